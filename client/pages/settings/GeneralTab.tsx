import { SegmentedControl, Stack, Text, useMantineColorScheme } from '@mantine/core';
import { toColorScheme, toPreference, type ThemePreference } from '../../theme';
import { SettingsSection } from '../../components/settings/SettingsSection';

export function GeneralTab() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SettingsSection title="Appearance" description="Choose how the dashboard looks to you.">
      <Stack gap={6}>
        <Text size="sm" fw={500} id="theme-label">
          Theme
        </Text>
        <SegmentedControl
          aria-labelledby="theme-label"
          value={toPreference(colorScheme)}
          onChange={(value) => setColorScheme(toColorScheme(value as ThemePreference))}
          data={[
            { label: 'Light', value: 'light' },
            { label: 'Dark', value: 'dark' },
            { label: 'System', value: 'system' },
          ]}
          w={{ base: '100%', xs: 360 }}
        />
        <Text size="xs" c="dimmed">
          System follows your operating system&apos;s setting.
        </Text>
      </Stack>
    </SettingsSection>
  );
}

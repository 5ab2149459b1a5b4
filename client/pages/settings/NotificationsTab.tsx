import { Stack, Text } from '@mantine/core';
import { SettingSwitch } from '../../components/SettingSwitch';
import { SettingsSection } from '../../components/settings/SettingsSection';
import { usePreferences, type PreferenceName } from '../../components/settings/usePreferences';
import { ACCOUNT_TEXTS, TOASTS } from '../../messages';

const NOTIFICATION_OPTIONS: { key: PreferenceName; label: string; description: string }[] = [
  { key: 'email_notifications', label: 'Email notifications', description: 'Turn off to receive only the emails your account needs.' },
  { key: 'notify_security_alerts', label: 'Security alerts', description: 'Sign-ins from new devices and two-factor authentication turned on.' },
  { key: 'notify_product_updates', label: 'Product updates', description: 'New features and improvements.' },
  { key: 'notify_marketing', label: 'Marketing emails', description: 'Tips, offers and event invitations.' },
];

export function NotificationsTab() {
  const preferences = usePreferences({ saved: TOASTS.notificationsUpdated, failed: ACCOUNT_TEXTS.notificationsUpdateFailed });
  return (
    <SettingsSection title="Notifications" description="Choose which e-mails you receive. Changes apply immediately.">
      <Stack gap="lg">
        {NOTIFICATION_OPTIONS.map((option) => (
          <SettingSwitch
            key={option.key}
            label={option.label}
            description={option.description}
            checked={preferences.value(option.key)}
            onChange={(checked) => void preferences.set(option.key, checked)}
          />
        ))}
        <Text size="sm" c="dimmed">
          Links you ask for (verification, password reset, email change) and notices that protect your account (password or email address
          changed, two-factor authentication turned off, someone using your address) are always sent.
        </Text>
      </Stack>
    </SettingsSection>
  );
}

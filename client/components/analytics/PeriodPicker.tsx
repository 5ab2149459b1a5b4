import { useId, useState } from 'react';
import { SegmentedControl, SimpleGrid, Stack, Text, TextInput, useMatches } from '@mantine/core';
import { customPeriodError, PERIOD_PRESETS, startOfDays, utcToday, type AnalyticsPeriod } from './period';

const CUSTOM = 'custom';

const presetOf = (period: AnalyticsPeriod) => ('days' in period ? PERIOD_PRESETS.find((preset) => preset.days === period.days) : undefined);

/** The period's first and last day, as the custom fields show them. */
function boundsOf(period: AnalyticsPeriod): { from: string; to: string } {
  if ('from' in period) return period;
  const to = utcToday();
  return { from: startOfDays(to, period.days), to };
}

/**
 * The analytics period: a preset (the last 7, 30 or 90 days, a year) or a custom range of UTC days
 * picked with the browser's date fields. A custom range applies as soon as both days make one the
 * server takes; until then the fields say what is wrong and the screen keeps the last good period.
 */
export function PeriodPicker({ value, onChange }: { value: AnalyticsPeriod; onChange: (period: AnalyticsPeriod) => void }) {
  const [custom, setCustom] = useState(() => !presetOf(value));
  const [draft, setDraft] = useState(() => boundsOf(value));
  const error = custom ? customPeriodError(draft.from, draft.to) : null;
  // Small type on a phone, so the five choices fit its width without scrolling sideways.
  const size = useMatches({ base: 'xs', sm: 'sm' });
  const errorId = useId();

  const choose = (choice: string) => {
    if (choice === CUSTOM) {
      // The custom fields start from the period on screen, so choosing Custom changes nothing yet.
      const bounds = boundsOf(value);
      setDraft(bounds);
      setCustom(true);
      onChange(bounds);
      return;
    }
    setCustom(false);
    onChange({ days: Number(choice) });
  };

  // Marked invalid with a red border only: Mantine's error state also reddens the date, below AA contrast on the dark theme.
  const invalid = error
    ? { 'aria-invalid': true, 'aria-describedby': errorId, styles: { input: { borderColor: 'var(--mantine-color-error)' } } }
    : {};

  const edit = (field: 'from' | 'to', day: string) => {
    const next = { ...draft, [field]: day };
    setDraft(next);
    if (!customPeriodError(next.from, next.to)) onChange(next);
  };

  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Period"
        value={custom ? CUSTOM : String(presetOf(value)?.days ?? CUSTOM)}
        onChange={choose}
        data={[...PERIOD_PRESETS.map((preset) => ({ value: String(preset.days), label: preset.label })), { value: CUSTOM, label: 'Custom' }]}
        size={size}
        fullWidth
      />
      {custom && (
        <Stack gap={4}>
          <SimpleGrid cols={2} spacing="sm" maw={360}>
            <TextInput
              type="date"
              label="From"
              value={draft.from}
              max={draft.to || undefined}
              onChange={(event) => edit('from', event.currentTarget.value)}
              {...invalid}
            />
            <TextInput
              type="date"
              label="To"
              value={draft.to}
              min={draft.from || undefined}
              onChange={(event) => edit('to', event.currentTarget.value)}
              {...invalid}
            />
          </SimpleGrid>
          {error ? (
            <Text size="sm" c="red" role="alert" id={errorId}>
              {error}
            </Text>
          ) : (
            <Text size="xs" c="dimmed">
              UTC days, both counted; at most 366.
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

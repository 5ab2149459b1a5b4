import { Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { formatNumber } from '../../lib/format';

export interface UsagePoint {
  /** Unique key (e.g. the date). */
  key: string;
  /** Short label under the bar (e.g. 'Mon'). */
  label: string;
  /** Longer label for the tooltip (e.g. 'Mon, Jun 3'); defaults to `label`. */
  title?: string;
  requests: number;
}

/**
 * A small bar chart of requests per day. Plain elements rather than a chart library: it is seven bars,
 * and it reads the same in both themes. The last bar (today) is highlighted; days without requests keep
 * a thin stub so the week stays readable.
 */
export function UsageBars({ data, label }: { data: UsagePoint[]; label: string }) {
  const max = Math.max(1, ...data.map((point) => point.requests));
  const summary = data.map((point) => `${point.title ?? point.label} ${formatNumber(point.requests)}`).join(', ');
  return (
    <Stack gap={4} role="img" aria-label={`${label}: ${summary}`}>
      <Group gap={6} align="flex-end" h={88} wrap="nowrap">
        {data.map((point, index) => (
          <Tooltip key={point.key} label={`${point.title ?? point.label}: ${formatNumber(point.requests)} requests`} withArrow>
            <Box
              data-testid="usage-bar"
              style={{
                flex: 1,
                height: point.requests > 0 ? `${Math.max(8, (point.requests / max) * 100)}%` : 3,
                borderRadius: 4,
                backgroundColor:
                  point.requests === 0
                    ? 'var(--mantine-color-default-border)'
                    : index === data.length - 1
                      ? 'var(--mantine-primary-color-filled)'
                      : 'light-dark(var(--mantine-color-indigo-3), var(--mantine-color-indigo-8))',
              }}
            />
          </Tooltip>
        ))}
      </Group>
      <Group gap={6} wrap="nowrap" aria-hidden>
        {data.map((point) => (
          <Text key={point.key} size="xs" c="dimmed" ta="center" style={{ flex: 1 }}>
            {point.label}
          </Text>
        ))}
      </Group>
    </Stack>
  );
}

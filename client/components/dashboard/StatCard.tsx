import { Card, Group, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { formatNumber } from '../../lib/format';

/** One figure of the dashboard with its hint underneath; skeletons until the figures arrive. */
export function StatCard({
  label,
  value,
  hint,
  icon: IconComponent,
  color,
}: {
  label: string;
  value: number | undefined;
  hint: string | undefined;
  icon: Icon;
  color: string;
}) {
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton h={30} w={80} mt={6} radius="sm" />
          ) : (
            <Text fz={{ base: 24, sm: 28 }} fw={800} lh={1.2} mt={4} data-testid="stat-value">
              {formatNumber(value)}
            </Text>
          )}
        </div>
        <ThemeIcon size={40} radius="md" variant="light" color={color} visibleFrom="sm">
          <IconComponent size={22} stroke={1.6} />
        </ThemeIcon>
      </Group>
      {hint === undefined ? (
        <Skeleton h={12} w={90} mt="sm" radius="sm" />
      ) : (
        <Text size="xs" c="dimmed" mt="sm">
          {hint}
        </Text>
      )}
    </Card>
  );
}

import { Card, Group, Skeleton, Text, Title } from '@mantine/core';
import type { DashboardStats } from '../../../shared/schemas/projects';
import { formatNumber, shortDateOf, weekdayOf } from '../../lib/format';
import { UsageBars, type UsagePoint } from './UsageBars';

/** The dashboard stats' last seven UTC days of API requests (summed over the projects by the server) as bars. */
function weekBars(stats: DashboardStats): UsagePoint[] {
  return stats.api_requests_last_7_days.map(({ day, requests }) => ({
    key: day,
    label: weekdayOf(day),
    title: `${weekdayOf(day)}, ${shortDateOf(day)}`,
    requests,
  }));
}

/** Today's and this month's requests and the last seven days as bars (there is no monthly allowance to measure them against). */
export function ApiUsage({ stats }: { stats: DashboardStats | undefined }) {
  const week = stats ? weekBars(stats) : undefined;
  const weekTotal = week?.reduce((sum, point) => sum + point.requests, 0);

  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="usage-heading">
      <Title order={2} fz="lg" mb="md" id="usage-heading">
        API usage
      </Title>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Today
        </Text>
        {stats ? <Text fw={700}>{formatNumber(stats.total_api_requests_today)}</Text> : <Skeleton h={18} w={60} />}
      </Group>
      <Group justify="space-between" mt={6}>
        <Text size="sm" c="dimmed">
          This month
        </Text>
        {stats ? <Text fw={700}>{formatNumber(stats.total_api_requests_month)}</Text> : <Skeleton h={18} w={60} />}
      </Group>

      <Group justify="space-between" mt="md" mb={6}>
        <Text size="xs" c="dimmed">
          Requests, last 7 days
        </Text>
        {weekTotal !== undefined && (
          <Text size="xs" c="dimmed">
            {formatNumber(weekTotal)} total
          </Text>
        )}
      </Group>
      {week ? <UsageBars data={week} label="API requests over the last 7 days" /> : <Skeleton h={106} radius="md" />}
    </Card>
  );
}

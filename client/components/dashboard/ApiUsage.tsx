import { Badge, Card, Group, Progress, Skeleton, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { DashboardStats } from '../../../shared/schemas/projects';
import { formatNumber, shortDateOf, usageLevel, usageOf, weekdayOf } from '../../lib/format';
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

/** Today's and this month's requests, the last seven days as bars, and the monthly rate limit. */
export function ApiUsage({ stats }: { stats: DashboardStats | undefined }) {
  const week = stats ? weekBars(stats) : undefined;
  const usage = stats ? usageOf(stats.total_api_requests_month, stats.monthly_request_limit) : undefined;
  const level = usage ? usageLevel(usage.percent) : undefined;
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

      <Group justify="space-between" mt="lg" mb={6}>
        <Text size="sm" fw={600}>
          Rate limit
        </Text>
        {level ? (
          <Badge
            color={level.color}
            variant="light"
            leftSection={level.color === 'teal' ? <IconCircleCheck size={12} /> : <IconAlertTriangle size={12} />}
          >
            {level.label}
          </Badge>
        ) : (
          <Skeleton h={20} w={70} radius="xl" />
        )}
      </Group>
      <Progress
        value={usage ? Math.min(100, usage.percent) : 0}
        color={level?.color ?? 'gray'}
        size="md"
        radius="xl"
        aria-label="Rate limit used"
        // Even a little use shows as a sliver.
        styles={usage && usage.percent > 0 && usage.percent < 1 ? { section: { minWidth: 4 } } : undefined}
      />
      <Text size="xs" c="dimmed" mt={6} data-testid="rate-limit-text">
        {stats && usage
          ? `${usage.label} of your monthly limit used (${formatNumber(stats.total_api_requests_month)} of ${formatNumber(stats.monthly_request_limit)} requests)`
          : '\u00a0'}
      </Text>
    </Card>
  );
}

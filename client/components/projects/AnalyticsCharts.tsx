import { BarChart, LineChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconActivity, IconAlertTriangle, IconLogin, IconUserPlus, IconUsers, type Icon } from '@tabler/icons-react';
import type { Analytics } from '../../../shared/schemas/projects';
import { formatNumber, shortDateOf } from '../../lib/format';

/** The project overview's activity looks back this many days (the analytics screen picks its own period). */
export const ANALYTICS_DAYS = 30;

export type AnalyticsDay = Analytics['days'][number];

export interface AnalyticsTotals {
  signups: number;
  logins: number;
  failed_logins: number;
  api_requests: number;
  peak_active_users: number;
}

export function totalsOf(days: AnalyticsDay[]): AnalyticsTotals {
  return days.reduce<AnalyticsTotals>(
    (sum, day) => ({
      signups: sum.signups + day.signups,
      logins: sum.logins + day.logins,
      failed_logins: sum.failed_logins + day.failed_logins,
      api_requests: sum.api_requests + day.api_requests,
      peak_active_users: Math.max(sum.peak_active_users, day.active_users),
    }),
    { signups: 0, logins: 0, failed_logins: 0, api_requests: 0, peak_active_users: 0 },
  );
}

export function hasActivity(analytics: Analytics): boolean {
  return analytics.monthly_active_users > 0 || analytics.days.some((d) => d.signups || d.logins || d.failed_logins || d.api_requests || d.active_users);
}

export function MetricCard({ label, value, hint, icon: IconComponent, color }: { label: string; value: number; hint?: string; icon: Icon; color: string }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} miw={0}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
            {label}
          </Text>
          <Text fz={26} fw={800} lh={1.2}>
            {formatNumber(value)}
          </Text>
        </Stack>
        <ThemeIcon size={34} radius="md" variant="light" color={color} visibleFrom="sm">
          <IconComponent size={19} stroke={1.7} />
        </ThemeIcon>
      </Group>
      {hint && (
        <Text size="xs" c="dimmed" mt={6}>
          {hint}
        </Text>
      )}
    </Card>
  );
}

/** The headline figures of a period: monthly active users and the period's totals. */
export function AnalyticsSummary({
  analytics,
  period = `Last ${analytics.days.length} days`,
  cols = { base: 2, sm: 3, lg: 5 },
}: {
  analytics: Analytics;
  /** The period in words, under each total. */
  period?: string;
  cols?: Record<string, number>;
}) {
  const totals = totalsOf(analytics.days);
  const attempts = totals.logins + totals.failed_logins;
  const failureRate = attempts ? Math.round((totals.failed_logins / attempts) * 100) : 0;
  return (
    <SimpleGrid cols={cols} spacing="md">
      <MetricCard label="Monthly active users" value={analytics.monthly_active_users} hint="Signed in, last 30 days" icon={IconUsers} color="grape" />
      <MetricCard label="Signups" value={totals.signups} hint={period} icon={IconUserPlus} color="teal" />
      <MetricCard label="Logins" value={totals.logins} hint={period} icon={IconLogin} color="indigo" />
      <MetricCard
        label="Failed logins"
        value={totals.failed_logins}
        hint={attempts ? `${failureRate}% of sign-in attempts` : period}
        icon={IconAlertTriangle}
        color="red"
      />
      <MetricCard label="API requests" value={totals.api_requests} hint={period} icon={IconActivity} color="orange" />
    </SimpleGrid>
  );
}

function ChartCard({ title, total, summary, children }: { title: string; total: string; summary: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={`${title} per day`}>
      <Group justify="space-between" align="baseline" mb="md" gap="xs">
        <Title order={2} fz="md">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {total}
        </Text>
      </Group>
      <div aria-hidden>{children}</div>
      <VisuallyHidden>{summary}</VisuallyHidden>
    </Card>
  );
}

const axis = {
  xAxisProps: { interval: 'preserveStartEnd' as const, minTickGap: 28, tickMargin: 8 },
  yAxisProps: { allowDecimals: false, width: 36 },
  tickLine: 'none' as const,
  valueFormatter: formatNumber,
};

/**
 * Logins as a solid line and signups dashed on top of it: on the days the two counts are
 * equal both stay visible (filled areas would hide the one below).
 */
const SIGNUPS_AND_LOGINS = [
  { name: 'logins', label: 'Logins', color: 'indigo.5' },
  { name: 'signups', label: 'Signups', color: 'teal.5', strokeDasharray: '6 4' },
];

/** A small chart of signups and logins per day, for the project's overview. */
export function ActivityChart({ analytics, height = 180 }: { analytics: Analytics; height?: number }) {
  const data = analytics.days.map((day) => ({ ...day, date: shortDateOf(day.day) }));
  return (
    <div aria-hidden>
      <LineChart
        h={height}
        data={data}
        dataKey="date"
        curveType="monotone"
        withLegend
        legendProps={{ verticalAlign: 'bottom', height: 32 }}
        withDots={false}
        series={SIGNUPS_AND_LOGINS}
        {...axis}
      />
    </div>
  );
}

/** Charts of the period, one per measure, from projects.analytics (one row per UTC day, zero-filled). */
export function AnalyticsCharts({ analytics }: { analytics: Analytics }) {
  const data = analytics.days.map((day) => ({ ...day, date: shortDateOf(day.day) }));
  const totals = totalsOf(analytics.days);
  const describe = (key: keyof AnalyticsDay, unit: string) =>
    `${unit} per day: ${data.filter((d) => Number(d[key]) > 0).map((d) => `${d.date} ${d[key]}`).join(', ') || 'none'}.`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <ChartCard
        title="Signups and logins"
        total={`${formatNumber(totals.signups)} signups · ${formatNumber(totals.logins)} logins`}
        summary={`${describe('signups', 'Signups')} ${describe('logins', 'Logins')}`}
      >
        <LineChart
          h={220}
          data={data}
          dataKey="date"
          curveType="monotone"
          withLegend
          legendProps={{ verticalAlign: 'bottom', height: 36 }}
          withDots={false}
          series={SIGNUPS_AND_LOGINS}
          {...axis}
        />
      </ChartCard>
      <ChartCard
        title="Daily active users"
        total={`peak ${formatNumber(totals.peak_active_users)}`}
        summary={describe('active_users', 'Active users')}
      >
        <LineChart
          h={220}
          data={data}
          dataKey="date"
          curveType="monotone"
          withDots={false}
          series={[{ name: 'active_users', label: 'Active users', color: 'grape.5' }]}
          {...axis}
        />
      </ChartCard>
      <ChartCard
        title="Failed logins"
        total={formatNumber(totals.failed_logins)}
        summary={describe('failed_logins', 'Failed logins')}
      >
        <BarChart
          h={220}
          data={data}
          dataKey="date"
          maxBarWidth={18}
          series={[{ name: 'failed_logins', label: 'Failed logins', color: 'red.5' }]}
          {...axis}
        />
      </ChartCard>
      <ChartCard title="API requests" total={formatNumber(totals.api_requests)} summary={describe('api_requests', 'API requests')}>
        <BarChart
          h={220}
          data={data}
          dataKey="date"
          maxBarWidth={18}
          series={[{ name: 'api_requests', label: 'API requests', color: 'orange.5' }]}
          {...axis}
        />
      </ChartCard>
    </SimpleGrid>
  );
}

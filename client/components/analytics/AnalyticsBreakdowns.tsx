import { Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Analytics } from '../../../shared/schemas/projects';
import { countryLabel, failureReasonLabel, formatNumber, signInMethodLabel } from '../../lib/format';

/** Countries past this many share one "Other countries" row. */
const TOP_COUNTRIES = 8;

interface Row {
  key: string;
  label: string;
  succeeded: number;
  failed: number;
}

const SUCCEEDED_COLOR = 'teal.6';
const FAILED_COLOR = 'red.6';

function methodRows(analytics: Analytics): Row[] {
  return analytics.sign_ins_by_method.map((row) => ({ key: row.method ?? '', label: signInMethodLabel(row.method) ?? 'Unknown', ...row }));
}

function countryRows(analytics: Analytics): Row[] {
  const rows = analytics.sign_ins_by_country.map((row) => ({ key: row.country_code ?? '', label: countryLabel(row.country_code), ...row }));
  if (rows.length <= TOP_COUNTRIES + 1) return rows;
  const rest = rows.slice(TOP_COUNTRIES);
  const other = rest.reduce((sum, row) => ({ ...sum, succeeded: sum.succeeded + row.succeeded, failed: sum.failed + row.failed }), {
    key: 'other',
    label: `${rest.length} other countries`,
    succeeded: 0,
    failed: 0,
  });
  return [...rows.slice(0, TOP_COUNTRIES), other];
}

function reasonRows(analytics: Analytics): Row[] {
  return analytics.failures_by_reason.map((row) => ({ key: row.reason ?? '', label: failureReasonLabel(row.reason) ?? 'Unknown', succeeded: 0, failed: row.count }));
}

/** The two colours' meaning, once per card. */
function Legend({ failuresOnly }: { failuresOnly?: boolean }) {
  const item = (color: string, label: string) => (
    <Group gap={6} wrap="nowrap">
      <span aria-hidden style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${color.replace('.', '-')})` }} />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
  return (
    <Group gap="md" aria-hidden>
      {!failuresOnly && item(SUCCEEDED_COLOR, 'Signed in')}
      {item(FAILED_COLOR, 'Failed')}
    </Group>
  );
}

/**
 * One breakdown as a list: each row's counts in words, and a bar whose two parts (signed in, failed)
 * sit side by side, so equal counts never hide one another. Bars are scaled to the largest row.
 */
function BreakdownCard({ title, rows, failuresOnly, empty }: { title: string; rows: Row[]; failuresOnly?: boolean; empty: string }) {
  const largest = Math.max(1, ...rows.map((row) => row.succeeded + row.failed));
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" align="baseline" mb="sm" gap="xs">
        <Title order={2} fz="md">
          {title}
        </Title>
        {rows.length > 0 && <Legend failuresOnly={failuresOnly} />}
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {rows.map((row) => (
            <li key={row.key}>
              <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
                <Text size="sm" fw={500} truncate="end" miw={0}>
                  {row.label}
                </Text>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {failuresOnly
                    ? formatNumber(row.failed)
                    : `${formatNumber(row.succeeded)} signed in · ${formatNumber(row.failed)} failed`}
                </Text>
              </Group>
              <Progress.Root size="sm" aria-hidden>
                {!failuresOnly && <Progress.Section value={(row.succeeded / largest) * 100} color={SUCCEEDED_COLOR} />}
                <Progress.Section value={(row.failed / largest) * 100} color={FAILED_COLOR} />
              </Progress.Root>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** The period's sign-in attempts by method and by country, and its failures by reason. */
export function AnalyticsBreakdowns({ analytics }: { analytics: Analytics }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} spacing="lg">
      <BreakdownCard title="Sign-ins by method" rows={methodRows(analytics)} empty="No sign-in attempts in this period." />
      <BreakdownCard title="Sign-ins by country" rows={countryRows(analytics)} empty="No sign-in attempts in this period." />
      <BreakdownCard title="Failures by reason" rows={reasonRows(analytics)} failuresOnly empty="No failed sign-ins in this period." />
    </SimpleGrid>
  );
}

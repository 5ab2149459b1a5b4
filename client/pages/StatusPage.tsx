import { Alert, Anchor, Badge, Card, Code, Container, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../components/PageHeader';
import { formatDateTime } from '../lib/format';

/** What /health and /ready answer (the liveness and readiness probes). */
interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unavailable';
  version: string;
  uptime_s: number;
}
interface Readiness {
  status: 'ready' | 'not_ready';
  database: 'ok' | 'unavailable';
  migrations: 'ok' | 'pending' | 'unknown';
  pending_migrations: string[];
}

const REFRESH_MS = 30_000;

/** /ready answers 503 with its reasons in the body: both answers are read as they come. */
async function probe<T>(url: string, signal: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  return (await response.json()) as T;
}

async function readStatus(signal: AbortSignal) {
  const [health, readiness] = await Promise.all([probe<Health>('/health', signal), probe<Readiness>('/ready', signal)]);
  return { health, readiness, checkedAt: new Date().toISOString() };
}

function uptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

function State({ good, label }: { good: boolean; label: string }) {
  return (
    <Badge color={good ? 'teal' : 'red'} variant="light">
      {label}
    </Badge>
  );
}

/** The footer's System Status: this server's probes in words, refreshed every 30 s. */
export function StatusPage() {
  const status = useQuery({ queryKey: ['system-status'], queryFn: ({ signal }) => readStatus(signal), refetchInterval: REFRESH_MS, retry: false });
  const data = status.data;
  const operational = data?.health.status === 'ok' && data.readiness.status === 'ready';

  return (
    <Container size="sm" py="xl">
      <PageHeader title="System status" description="This server's health, as its liveness and readiness probes report it." />
      {status.isPending && <Loader aria-label="Checking" />}
      {status.isError && (
        <Alert color="red" title="The server does not answer">
          Its health could not be read. Try again in a moment.
        </Alert>
      )}
      {data && (
        <Stack gap="md">
          <Alert color={operational ? 'teal' : 'orange'} title={operational ? 'All systems operational' : 'Degraded service'}>
            {operational ? 'Sign-ins, sign-ups and the API are being served.' : 'Some requests may fail until the database is back.'}
          </Alert>
          <Card withBorder padding={0} radius="md">
            <Table verticalSpacing="sm" horizontalSpacing="lg" aria-label="Components">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Server</Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <State good label="Answering" />
                      <Text size="sm" c="dimmed">
                        version {data.health.version}, up {uptime(data.health.uptime_s)}
                      </Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Database</Table.Td>
                  <Table.Td>
                    <State good={data.readiness.database === 'ok'} label={data.readiness.database === 'ok' ? 'Answering' : 'Unavailable'} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>Migrations</Table.Td>
                  <Table.Td>
                    {data.readiness.migrations === 'unknown' ? (
                      <Text size="sm" c="dimmed">
                        Unknown while the database does not answer
                      </Text>
                    ) : (
                      <Stack gap={4}>
                        <State good={data.readiness.migrations === 'ok'} label={data.readiness.migrations === 'ok' ? 'Up to date' : 'Pending'} />
                        {data.readiness.pending_migrations.map((name) => (
                          <Code key={name}>{name}</Code>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Card>
          <Text size="sm" c="dimmed">
            Checked {formatDateTime(data.checkedAt)}; refreshed every 30 seconds. For monitors:{' '}
            <Anchor href="/health" size="sm">
              /health
            </Anchor>{' '}
            and{' '}
            <Anchor href="/ready" size="sm">
              /ready
            </Anchor>
            .
          </Text>
        </Stack>
      )}
    </Container>
  );
}

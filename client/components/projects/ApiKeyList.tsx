import { Badge, Button, Card, Code, Group, Stack, Text } from '@mantine/core';
import { IconKeyOff } from '@tabler/icons-react';
import type { ApiKey } from '../../../shared/schemas/projects';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0} miw={96}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * One row per key that wraps on narrow screens (a table would scroll sideways at 375 px). Active keys
 * first, newest first, as the server orders them.
 */
export function ApiKeyList({
  keys,
  onRevoke,
  revokingId,
}: {
  keys: ApiKey[];
  /** Left out for a viewer, who cannot revoke. */
  onRevoke?: (key: ApiKey) => void;
  revokingId: string | null;
}) {
  const ordered = [...keys].sort((a, b) => Number(Boolean(a.revoked_at)) - Number(Boolean(b.revoked_at)));
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="API keys">
      {ordered.map((key) => {
        const revoked = Boolean(key.revoked_at);
        return (
          <Card
            key={key.id}
            component="li"
            withBorder
            radius="md"
            padding="md"
            aria-label={key.name}
            style={revoked ? { opacity: 0.72 } : undefined}
          >
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={6} miw={0} style={{ flex: '1 1 220px' }}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={700} truncate maw="100%">
                    {key.name}
                  </Text>
                  <Badge variant="light" color={revoked ? 'gray' : 'teal'} size="sm">
                    {revoked ? 'Revoked' : 'Active'}
                  </Badge>
                </Group>
                <Code w="fit-content" aria-label={`Key prefix ${key.prefix}`}>
                  {key.prefix}…
                </Code>
              </Stack>
              <Group gap="lg" wrap="wrap" style={{ flex: '2 1 320px' }} align="flex-start">
                <Meta label="Created" value={formatDate(key.created_at)} />
                <Meta label="Last used" value={formatDateTime(key.last_used_at, 'Never')} />
                <Meta label="Requests today" value={formatNumber(key.requests_today)} />
                {revoked && <Meta label="Revoked on" value={formatDate(key.revoked_at)} />}
              </Group>
              {!revoked && onRevoke && (
                <Button
                  variant="light"
                  color="red"
                  size="xs"
                  leftSection={<IconKeyOff size={14} />}
                  onClick={() => onRevoke(key)}
                  loading={revokingId === key.id}
                  aria-label={`Revoke ${key.name}`}
                >
                  Revoke
                </Button>
              )}
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}

import { Button, Stack, Text } from '@mantine/core';
import type { Session } from '../../../shared/schemas/admin';
import { formatDateTime, shortDeviceId } from '../../lib/format';
import { MONITOR_TEXTS } from '../../messages';
import { actionState, useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import type { SearchFilter } from './source';
import { DateRangeFields, ExportLink, ListToolbar, SearchField } from './ListToolbar';

const when = (iso: string) => (
  <Text size="sm" className={NOWRAP}>
    {formatDateTime(iso)}
  </Text>
);

const columns: Column<Session>[] = [
  {
    header: 'User',
    cell: (session) => (
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {session.user_email}
      </Text>
    ),
  },
  {
    header: 'Device',
    // A label for people ('Chrome on Linux'), then the device's short id (the full user agent is in the details).
    cell: (session) => (
      <Stack gap={0}>
        <Text size="sm" className={NOWRAP} title={session.user_agent ?? undefined}>
          {session.device_label}
        </Text>
        {session.device_id && (
          <Text size="xs" c="dimmed" ff="monospace" title={session.device_id}>
            {shortDeviceId(session.device_id)}
          </Text>
        )}
      </Stack>
    ),
  },
  {
    header: 'Client',
    // Where the sign-in came through, so two sessions of one user on one browser tell apart.
    cell: (session) => (
      <Text size="sm" className={NOWRAP}>
        {session.client_label}
      </Text>
    ),
  },
  {
    header: 'IP address',
    cell: (session) => (
      <Text size="sm" ff="monospace" className={NOWRAP}>
        {session.ip_address ?? '—'}
      </Text>
    ),
  },
  // User agent, Created and Expires open under the row: with every column in it, Revoke ends up off a 1280 px screen.
  {
    header: 'User agent',
    cell: (session) => (
      <Text size="xs" c="dimmed" maw={220} truncate="end" title={session.user_agent ?? undefined}>
        {session.user_agent ?? 'Unknown'}
      </Text>
    ),
    inDetails: true,
  },
  { header: 'Created', cell: (session) => when(session.created_at), inDetails: true },
  { header: 'Last used', cell: (session) => when(session.last_used_at) },
  { header: 'Expires', cell: (session) => when(session.expires_at), inDetails: true },
];

export function SessionsTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source, actions, pending, run } = useMonitor();
  const { q, from, to } = filters as SearchFilter;
  const query = source.useSessions({ page, per_page: perPage, q, from, to });

  return (
    <>
      <ListToolbar end={<ExportLink href={source.exportUrl('sessions', { q, from, to })} />}>
        <SearchField label="Search sessions" placeholder="Search by e-mail or IP" value={q ?? ''} onSearch={(text) => onFilterChange('q', text)} />
        <DateRangeFields from={from} to={to} onChange={onFilterChange} />
      </ListToolbar>
      <ListShell
        label="Active sessions"
        query={query}
        items={(data) => data.sessions}
        itemKey={(session) => session.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={q || from || to ? 'No active sessions match these filters.' : 'No active sessions.'}
        minWidth={760}
        actions={(session) => (
          <Button
            size="xs"
            variant="light"
            color="red"
            {...actionState(pending, session.id, 'revoke')}
            onClick={() =>
              void run({ id: session.id, action: 'revoke' }, () => actions.revokeSession(session.id), {
                success: MONITOR_TEXTS.sessionRevoked,
                failure: MONITOR_TEXTS.sessionRevokeFailed,
              })
            }
          >
            Revoke
          </Button>
        )}
      />
    </>
  );
}

import { Stack, Text } from '@mantine/core';
import type { AuditEntry } from '../../../shared/schemas/audit';
import { auditActionLabel, auditSubjectLabel, formatDateTime } from '../../lib/format';
import { AuditChanges } from './AuditChanges';
import { AUDIT_ACTION_OPTIONS } from './auditActions';
import { useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import { DateRangeFields, ExportLink, FilterSelect, ListToolbar, SearchField } from './ListToolbar';
import type { AuditFilters } from './source';

const columns: Column<AuditEntry>[] = [
  {
    header: 'Time',
    cell: (entry) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(entry.created_at)}
      </Text>
    ),
  },
  {
    header: 'Actor',
    cell: (entry) => (
      <Text size="sm" className={NOWRAP} c={entry.actor_email ? undefined : 'dimmed'}>
        {entry.actor_email ?? 'System'}
      </Text>
    ),
  },
  {
    header: 'Action',
    cell: (entry) => (
      <Text size="sm" fw={500} title={entry.action}>
        {auditActionLabel(entry.action)}
      </Text>
    ),
  },
  {
    header: 'Target',
    cell: (entry) => (
      <Stack gap={0} miw={0} style={{ overflowWrap: 'anywhere' }}>
        <Text size="sm">{entry.target_label ?? entry.target_id ?? '—'}</Text>
        <Text size="xs" c="dimmed">
          {auditSubjectLabel(entry.target_type)}
        </Text>
      </Stack>
    ),
  },
  {
    header: 'IP',
    cell: (entry) => (
      <Text size="sm" ff="monospace" className={NOWRAP}>
        {entry.ip_address ?? '—'}
      </Text>
    ),
  },
  { header: 'Changes', cell: (entry) => <AuditChanges entry={entry} />, inDetails: true },
  {
    header: 'User agent',
    cell: (entry) => (
      <Text size="xs" c="dimmed" maw={360}>
        {entry.user_agent ?? '—'}
      </Text>
    ),
    inDetails: true,
  },
];

/** Who changed what: every recorded change of the scope, newest first, with each change's before and after. */
export function AuditLogTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source } = useMonitor();
  const { action, actor, from, to } = filters as AuditFilters;
  const query = source.useAuditLog({ page, per_page: perPage, action, actor, from, to });

  return (
    <>
      <ListToolbar end={<ExportLink href={source.exportUrl('audit-log', { action, actor, from, to })} />}>
        <SearchField label="Search by actor" placeholder="Actor's e-mail" value={actor ?? ''} onSearch={(text) => onFilterChange('actor', text)} />
        <FilterSelect label="Action" placeholder="All actions" data={AUDIT_ACTION_OPTIONS} value={action} onChange={(value) => onFilterChange('action', value)} />
        <DateRangeFields from={from} to={to} onChange={onFilterChange} />
      </ListToolbar>
      <ListShell
        label="Audit log"
        query={query}
        items={(data) => data.entries}
        itemKey={(entry) => entry.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={action || actor || from || to ? 'No changes match these filters.' : 'No changes recorded yet.'}
        minWidth={820}
      />
    </>
  );
}

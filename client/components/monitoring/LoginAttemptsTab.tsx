import { Anchor, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { LoginAttempt } from '../../../shared/schemas/admin';
import { countryLabel, failureReasonLabel, formatDateTime, signInMethodLabel } from '../../lib/format';
import { useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import { CountryField, DateRangeFields, ExportLink, FilterSelect, ListToolbar, SearchField } from './ListToolbar';
import type { AttemptFilters } from './source';

const OUTCOMES = [
  { value: 'success', label: 'Successful' },
  { value: 'failure', label: 'Failed' },
];

/** The DB-IP data licence (CC BY 4.0) asks for this link wherever its country data is shown. */
export function DbIpAttribution() {
  return (
    <Text size="xs" c="dimmed">
      Country data: <Anchor href="https://db-ip.com">IP Geolocation by DB-IP</Anchor>
    </Text>
  );
}

const NETWORKS = [
  { value: 'true', label: 'Hosting, VPN or proxy' },
  { value: 'false', label: 'Neither' },
];

/**
 * `is_vpn` says the address belongs to a hosting network (a datacenter, a cloud, a VPN provider's
 * servers): where VPN exits live, but also where bots and scripts run. The badge says what is known.
 */
const HOSTING_HINT = 'The address belongs to a hosting network: a datacenter, a cloud provider or a VPN service.';

const columns: Column<LoginAttempt>[] = [
  {
    header: 'Email',
    cell: (attempt) => (
      <Text size="sm" fw={500} className={NOWRAP}>
        {attempt.email}
      </Text>
    ),
  },
  {
    header: 'IP address',
    cell: (attempt) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" ff="monospace">
          {attempt.ip_address ?? '—'}
        </Text>
        {attempt.is_vpn && (
          <Tooltip label={HOSTING_HINT} multiline w={260}>
            <Badge size="sm" variant="light" color="orange" tabIndex={0}>
              Hosting
            </Badge>
          </Tooltip>
        )}
        {attempt.is_proxy && (
          <Badge size="sm" variant="light" color="grape">
            Proxy
          </Badge>
        )}
      </Group>
    ),
  },
  {
    header: 'Result',
    cell: (attempt) => {
      const reason = failureReasonLabel(attempt.failure_reason);
      return (
        <Stack gap={2} align="flex-start">
          <Group gap={4} wrap="nowrap">
            <Badge variant="light" color={attempt.success ? 'teal' : 'red'}>
              {attempt.success ? 'Success' : 'Failed'}
            </Badge>
          </Group>
          {!attempt.success && reason && (
            <Text size="xs" c="dimmed">
              {reason}
            </Text>
          )}
        </Stack>
      );
    },
  },
  {
    header: 'Method',
    cell: (attempt) => (
      <Text size="sm" className={NOWRAP}>
        {signInMethodLabel(attempt.method) ?? '—'}
      </Text>
    ),
  },
  {
    header: 'Country',
    cell: (attempt) => <Text size="sm">{countryLabel(attempt.country_code)}</Text>,
  },
  {
    header: 'Time',
    cell: (attempt) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(attempt.created_at)}
      </Text>
    ),
  },
];

export function LoginAttemptsTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source } = useMonitor();
  const { q, outcome, vpn, country, from, to } = filters as AttemptFilters;
  const query = source.useLoginAttempts({ page, per_page: perPage, q, outcome, vpn, country, from, to });
  const filtered = q || outcome || vpn || country || from || to;

  return (
    <>
      <ListToolbar end={<ExportLink href={source.exportUrl('login-attempts', { q, outcome, vpn, country, from, to })} />}>
        <SearchField label="Search login attempts" placeholder="Search by e-mail or IP" value={q ?? ''} onSearch={(text) => onFilterChange('q', text)} />
        <FilterSelect label="Result" placeholder="All results" data={OUTCOMES} value={outcome} onChange={(value) => onFilterChange('outcome', value)} />
        <FilterSelect label="Network" placeholder="Any network" data={NETWORKS} value={vpn} onChange={(value) => onFilterChange('vpn', value)} />
        <CountryField value={country} onChange={(value) => onFilterChange('country', value)} />
        <DateRangeFields from={from} to={to} onChange={onFilterChange} />
      </ListToolbar>
      <ListShell
        label="Login attempts"
        query={query}
        items={(data) => data.attempts}
        itemKey={(attempt) => attempt.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={filtered ? 'No login attempts match these filters.' : 'No login attempts yet.'}
        minWidth={760}
        footer={<DbIpAttribution />}
      />
    </>
  );
}

import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { Device } from '../../../shared/schemas/admin';
import { formatDateTime, shortDeviceId } from '../../lib/format';
import { MONITOR_TEXTS } from '../../messages';
import { actionState, useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import { DateRangeFields, ExportLink, FilterSelect, ListToolbar, SearchField } from './ListToolbar';
import type { DeviceFilters } from './source';

const STATUSES = [
  { value: 'blocked', label: 'Blocked' },
  { value: 'trusted', label: 'Trusted' },
];

const columns: Column<Device>[] = [
  {
    header: 'Device',
    // A label for people ('Chrome on Linux', the full user agent on hover), then the fingerprint's last 12 characters.
    cell: (device) => (
      <Stack gap={0}>
        <Text size="sm" className={NOWRAP} title={device.user_agent ?? undefined}>
          {device.device_label}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" title={device.device_id}>
          {shortDeviceId(device.device_id)}
        </Text>
      </Stack>
    ),
  },
  {
    header: 'User',
    cell: (device) => (
      <Text size="sm" className={NOWRAP}>
        {device.user_email}
      </Text>
    ),
  },
  {
    header: 'Status',
    cell: (device) => (
      <Group gap={6} wrap="nowrap">
        {device.is_trusted && (
          <Badge variant="light" color="teal">
            Trusted
          </Badge>
        )}
        {device.is_blocked && (
          <Badge variant="light" color="red">
            Blocked
          </Badge>
        )}
        {!device.is_trusted && !device.is_blocked && (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Group>
    ),
  },
  {
    header: 'First seen',
    cell: (device) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(device.first_seen)}
      </Text>
    ),
  },
  {
    header: 'Last seen',
    cell: (device) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(device.last_seen)}
      </Text>
    ),
  },
];

export function DevicesTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source, actions, pending, run } = useMonitor();
  const { q, status, from, to } = filters as DeviceFilters;
  const query = source.useDevices({ page, per_page: perPage, q, status, from, to });

  return (
    <>
      <ListToolbar end={<ExportLink href={source.exportUrl('devices', { q, status, from, to })} />}>
        <SearchField label="Search devices" placeholder="Search by e-mail, device or IP" value={q ?? ''} onSearch={(text) => onFilterChange('q', text)} />
        <FilterSelect label="Status" placeholder="All devices" data={STATUSES} value={status} onChange={(value) => onFilterChange('status', value)} />
        <DateRangeFields from={from} to={to} onChange={onFilterChange} />
      </ListToolbar>
      <ListShell
        label="Devices"
        query={query}
        items={(data) => data.devices}
        itemKey={(device) => device.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={q || status || from || to ? 'No devices match these filters.' : 'No devices seen yet.'}
        minWidth={900}
        actions={(device) => (
          <>
            <Button
              size="xs"
              variant="default"
              {...actionState(pending, device.id, 'trust')}
              onClick={() =>
                void run({ id: device.id, action: 'trust' }, () => actions.toggleDeviceTrust(device.id), {
                  success: MONITOR_TEXTS.deviceTrustUpdated,
                  failure: MONITOR_TEXTS.deviceTrustFailed,
                })
              }
            >
              {device.is_trusted ? 'Untrust' : 'Trust'}
            </Button>
            <Button
              size="xs"
              variant="light"
              color={device.is_blocked ? 'teal' : 'red'}
              {...actionState(pending, device.id, 'block')}
              onClick={() =>
                void run({ id: device.id, action: 'block' }, () => actions.toggleDeviceBlock(device.id), {
                  success: MONITOR_TEXTS.deviceStatusUpdated,
                  failure: MONITOR_TEXTS.deviceStatusFailed,
                })
              }
            >
              {device.is_blocked ? 'Unblock' : 'Block'}
            </Button>
          </>
        )}
      />
    </>
  );
}

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
    cell: (device) => (
      <Text size="sm" ff="monospace" title={device.device_id}>
        {shortDeviceId(device.device_id)}
      </Text>
    ),
  },
  {
    header: 'User',
    cell: (device) => (
      <Stack gap={0} maw={260}>
        <Text size="sm" className={NOWRAP}>
          {device.user_email}
        </Text>
        {device.user_agent && (
          <Text size="xs" c="dimmed" truncate="end" title={device.user_agent}>
            {device.user_agent}
          </Text>
        )}
      </Stack>
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

import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFileExport, IconFileImport, IconUserPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import type { MonitoredUser as User } from '../../../shared/schemas/admin';
import { useAuth } from '../../auth/AuthProvider';
import { formatDate, formatDateTime, nameOrEmail } from '../../lib/format';
import { notify } from '../../lib/notify';
import { MONITOR_TEXTS, USER_PAGE_TEXTS } from '../../messages';
import { CreateUserModal } from './CreateUserModal';
import { ExportUsersModal } from './ExportUsersModal';
import { ImportUsersModal } from './ImportUsersModal';
import { actionState, useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import { DateRangeFields, ExportLink, FilterSelect, ListToolbar, SearchField } from './ListToolbar';
import type { UserFilters } from './source';

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** The list's columns; the user's name opens their page. */
const columnsFor = (userPath: (id: string) => string): Column<User>[] => [
  {
    header: 'User',
    cell: (user) => {
      const name = nameOrEmail(user);
      return (
        <Stack gap={0} miw={160} style={{ overflowWrap: 'anywhere' }}>
          <Anchor component={Link} to={userPath(user.id)} size="sm" fw={600}>
            {name}
          </Anchor>
          {name !== user.email && (
            <Text size="xs" c="dimmed">
              {user.email}
            </Text>
          )}
        </Stack>
      );
    },
  },
  {
    header: 'Status',
    cell: (user) => (
      <Group gap={6} wrap="nowrap">
        <Badge variant="light" color={user.is_active ? 'teal' : 'gray'}>
          {user.is_active ? 'Active' : 'Inactive'}
        </Badge>
        {user.is_verified && (
          <Badge variant="light" color="blue">
            Verified
          </Badge>
        )}
        {user.mfa_enabled && (
          <Badge variant="light" color="indigo" title="Two-factor authentication is on">
            MFA
          </Badge>
        )}
        {user.mail_bounced_at && (
          <Badge variant="light" color="orange" title={`The mail server refused this address for good on ${formatDateTime(user.mail_bounced_at)}`}>
            Mail bounced
          </Badge>
        )}
        {user.role === 'admin' && (
          <Badge variant="outline" color="grape">
            Admin
          </Badge>
        )}
      </Group>
    ),
  },
  {
    header: 'Created',
    cell: (user) => (
      <Text size="sm" className={NOWRAP}>
        {formatDate(user.created_at)}
      </Text>
    ),
  },
  {
    header: 'Last login',
    cell: (user) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(user.last_login)}
      </Text>
    ),
  },
];

export function UsersTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source, actions, pending, run } = useMonitor();
  const { user: me } = useAuth();
  const { q, status, from, to } = filters as UserFilters;
  const query = source.useUsers({ page, per_page: perPage, q, status, from, to });
  const [resetting, setResetting] = useState<User | null>(null);
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const navigate = useNavigate();
  const columns = useMemo(() => columnsFor(source.userPath), [source]);
  const canCreate = actions.createUser !== undefined && !source.readOnly;

  const resetMfa = (user: User) => {
    setResetting(null);
    void run({ id: user.id, action: 'reset-mfa' }, () => actions.resetUserMfa(user.id), {
      success: MONITOR_TEXTS.mfaReset,
      failure: MONITOR_TEXTS.mfaResetFailed,
    });
  };

  return (
    <>
      <ListToolbar
        end={
          <Group gap="xs">
            {canCreate && (
              <Button size="sm" leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)}>
                Create user
              </Button>
            )}
            {source.projectId && !source.readOnly && (
              <>
                <Button size="sm" variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                  Import users
                </Button>
                <Button size="sm" variant="default" leftSection={<IconFileExport size={16} />} onClick={() => setExporting(true)}>
                  Export users
                </Button>
              </>
            )}
            <ExportLink href={source.exportUrl('users', { q, status, from, to })} />
          </Group>
        }
      >
        <SearchField label="Search users" placeholder="Search by e-mail or name" value={q ?? ''} onSearch={(text) => onFilterChange('q', text)} />
        <FilterSelect label="Status" placeholder="All statuses" data={STATUSES} value={status} onChange={(value) => onFilterChange('status', value)} />
        <DateRangeFields from={from} to={to} onChange={onFilterChange} />
      </ListToolbar>
      <ListShell
        label="Users"
        query={query}
        items={(data) => data.users}
        itemKey={(user) => user.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={q || status || from || to ? 'No users match these filters.' : 'No users yet.'}
        minWidth={760}
        actions={(user) => (
          <>
            {user.mfa_enabled && (
              <Button size="xs" variant="default" {...actionState(pending, user.id, 'reset-mfa')} onClick={() => setResetting(user)}>
                Reset two-factor
              </Button>
            )}
            {actions.unlockUser && (
              <Button
                size="xs"
                variant="default"
                {...actionState(pending, user.id, 'unlock')}
                onClick={() =>
                  void run({ id: user.id, action: 'unlock' }, () => actions.unlockUser!(user.id), {
                    success: MONITOR_TEXTS.userUnlocked,
                    failure: MONITOR_TEXTS.userUnlockFailed,
                  })
                }
              >
                Unlock
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              color={user.is_active ? 'red' : 'teal'}
              {...actionState(pending, user.id, 'toggle')}
              // The server refuses it anyway: nobody can lock themself out.
              {...(user.id === me?.id && user.is_active ? { disabled: true, title: 'You cannot deactivate your own account' } : {})}
              onClick={() =>
                void run({ id: user.id, action: 'toggle' }, () => actions.toggleUserActive(user.id), {
                  success: MONITOR_TEXTS.userStatusUpdated,
                  failure: MONITOR_TEXTS.userStatusFailed,
                })
              }
            >
              {user.is_active ? 'Deactivate' : 'Activate'}
            </Button>
          </>
        )}
      />
      {canCreate && (
        <CreateUserModal
          opened={creating}
          onClose={() => setCreating(false)}
          create={actions.createUser!}
          onCreated={(user) => {
            setCreating(false);
            notify.success(USER_PAGE_TEXTS.userCreated);
            void actions.reload();
            navigate(source.userPath(user.id));
          }}
        />
      )}
      {source.projectId && <ExportUsersModal projectId={source.projectId} opened={exporting} onClose={() => setExporting(false)} />}
      {source.projectId && <ImportUsersModal projectId={source.projectId} opened={importing} onClose={() => setImporting(false)} onImported={() => void actions.reload()} />}
      <Modal opened={resetting !== null} onClose={() => setResetting(null)} title="Reset two-factor authentication" centered>
        <Stack gap="md">
          <Text size="sm">
            {resetting?.email} will sign in with the password alone: the authenticator app, recovery codes and passkeys are removed, and the user is told by mail. Do this only once you are sure who is asking.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setResetting(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => resetting && resetMfa(resetting)}>
              Reset
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

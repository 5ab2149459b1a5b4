import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Avatar, Badge, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import type { UserDetail } from '../../../shared/schemas/user-detail';
import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from '../../../shared/schemas/social';
import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import {
  auditActionLabel,
  countryLabel,
  failureReasonLabel,
  formatDate,
  formatDateTime,
  initials,
  shortDeviceId,
  signInMethodLabel,
} from '../../lib/format';
import { notify } from '../../lib/notify';
import { MONITOR_TEXTS, USER_PAGE_TEXTS } from '../../messages';
import { ConfirmModal } from '../ConfirmModal';
import { OrganizationsSection } from './OrganizationsSection';
import type { UserActions, UserPageSource } from './source';

type EnterpriseIdentity = UserDetail['enterprise_identities'][number];
const ENTERPRISE_TYPES = { saml: 'SAML', oidc: 'OpenID Connect' } as const;
/** "Corp Okta (SAML, provisioned by SCIM), last sign-in 2 Jun 2025". */
const enterpriseSummary = (identity: EnterpriseIdentity) =>
  `${identity.name} (${ENTERPRISE_TYPES[identity.type]}${identity.scim ? ', provisioned by SCIM' : ''})${identity.last_sign_in_at ? `, last sign-in ${formatDate(identity.last_sign_in_at)}` : ', never signed in'}`;
const enterpriseTitle = (identity: EnterpriseIdentity) => `Enterprise single sign-on: ${enterpriseSummary(identity)}`;
const providerName = (provider: string) => (Object.hasOwn(SOCIAL_PROVIDER_NAMES, provider) ? SOCIAL_PROVIDER_NAMES[provider as SocialProvider] : provider);

/** A titled card of the page; `end` holds its header's buttons. */
function Section({ title, end, children }: { title: string; end?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {end}
      </Group>
      {children}
    </Card>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** A table that scrolls sideways inside its card on a narrow screen instead of squeezing its columns. */
function ScrollTable({ label, minWidth, head, children }: { label: string; minWidth: number; head: string[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table aria-label={label} verticalSpacing="xs" fz="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {head.map((cell, index) => (
              <Table.Th key={index}>{cell}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="div" size="sm" fw={500} ta="right" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

/** Verified, MFA, passkeys, providers, bounced mail, role: what the account is at a glance. */
export function StatusBadges({ user }: { user: UserDetail }) {
  return (
    <Group gap={6} role="group" aria-label="Status">
      <Badge variant="light" color={user.is_active ? 'teal' : 'gray'}>
        {user.is_active ? 'Active' : 'Inactive'}
      </Badge>
      <Badge variant="light" color={user.is_verified ? 'blue' : 'yellow'}>
        {user.is_verified ? 'Verified' : 'Unverified'}
      </Badge>
      {user.mfa_enabled && (
        <Badge variant="light" color="indigo" title="Two-factor authentication is on">
          MFA
        </Badge>
      )}
      {user.passkeys > 0 && (
        <Badge variant="light" color="violet">
          {user.passkeys === 1 ? '1 passkey' : `${user.passkeys} passkeys`}
        </Badge>
      )}
      {user.identities.map((provider, index) => (
        <Badge key={`${provider}-${index}`} variant="outline" color="gray" title={`Signs in with ${providerName(provider)}`}>
          {providerName(provider)}
        </Badge>
      ))}
      {user.enterprise_identities.map((identity) => (
        <Badge key={identity.connection_id} variant="outline" color="cyan" title={enterpriseTitle(identity)}>
          SSO: {identity.name}
        </Badge>
      ))}
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
  );
}

type Confirming = 'reset-mfa' | 'sign-out' | 'delete' | null;

function UserBody({ source, user, actions }: { source: UserPageSource; user: UserDetail; actions: UserActions }) {
  const { user: me } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const readOnly = source.readOnly;
  const self = me?.id === user.id;

  /** Runs an action with its button busy, toasts the outcome, then reloads the page and its lists. */
  const run = async (key: string, action: () => Promise<unknown>, texts: { success: string; failure: string }) => {
    setBusy(key);
    try {
      await action();
      notify.success(texts.success);
    } catch (error) {
      notify.error(errorMessage(error, texts.failure));
    } finally {
      setBusy(null);
      setConfirming(null);
      await actions.reload().catch(() => undefined);
    }
  };
  const busyProps = (key: string) => ({ loading: busy === key, disabled: busy !== null && busy !== key });

  const remove = async () => {
    setBusy('delete');
    setDeleteError(null);
    try {
      await actions.deleteUser();
      notify.success(USER_PAGE_TEXTS.userDeleted);
      await actions.reload().catch(() => undefined);
      navigate(source.back.to);
    } catch (error) {
      setDeleteError(errorMessage(error, USER_PAGE_TEXTS.deleteFailed));
    } finally {
      setBusy(null);
    }
  };

  const name = [user.first_name?.trim(), user.last_name?.trim()].filter(Boolean).join(' ') || user.email;
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-start" gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start" miw={0}>
            <Avatar size={56} radius="xl" color="indigo" visibleFrom="xs">
              {initials(user)}
            </Avatar>
            <Stack gap={4} miw={0}>
              <Title order={1} fz={{ base: 22, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Title>
              {name !== user.email && (
                <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
              )}
              <StatusBadges user={user} />
            </Stack>
          </Group>
        </Group>
        {!readOnly && (
          <Group gap="xs" mt="md" aria-label="Actions" role="group">
            {!user.is_verified && (
              <Button
                size="xs"
                variant="default"
                {...busyProps('resend')}
                onClick={() =>
                  void run('resend', actions.resendVerification, { success: USER_PAGE_TEXTS.verificationSent, failure: USER_PAGE_TEXTS.verificationFailed })
                }
              >
                Resend verification
              </Button>
            )}
            <Button
              size="xs"
              variant="default"
              {...busyProps('reset')}
              onClick={() => void run('reset', actions.sendPasswordReset, { success: USER_PAGE_TEXTS.passwordResetSent, failure: USER_PAGE_TEXTS.passwordResetFailed })}
            >
              Send password reset
            </Button>
            {(user.mfa_enabled || user.passkeys > 0) && (
              <Button size="xs" variant="default" {...busyProps('reset-mfa')} onClick={() => setConfirming('reset-mfa')}>
                Reset two-factor
              </Button>
            )}
            {actions.unlock && (
              <Button
                size="xs"
                variant="default"
                {...busyProps('unlock')}
                onClick={() => void run('unlock', actions.unlock!, { success: MONITOR_TEXTS.userUnlocked, failure: MONITOR_TEXTS.userUnlockFailed })}
              >
                Unlock
              </Button>
            )}
            <Button
              size="xs"
              variant="default"
              {...busyProps('sign-out')}
              {...(self ? { disabled: true, title: 'Sign your own sessions out in Settings' } : {})}
              onClick={() => setConfirming('sign-out')}
            >
              Sign out everywhere
            </Button>
            <Button
              size="xs"
              variant="light"
              color={user.is_active ? 'red' : 'teal'}
              {...busyProps('toggle')}
              {...(self && user.is_active ? { disabled: true, title: 'You cannot deactivate your own account' } : {})}
              onClick={() => void run('toggle', actions.toggleActive, { success: MONITOR_TEXTS.userStatusUpdated, failure: MONITOR_TEXTS.userStatusFailed })}
            >
              {user.is_active ? 'Deactivate' : 'Activate'}
            </Button>
            <Button
              size="xs"
              color="red"
              {...busyProps('delete')}
              {...(self ? { disabled: true, title: 'Delete your own account in Settings' } : {})}
              onClick={() => {
                setDeleteError(null);
                setConfirming('delete');
              }}
            >
              Delete
            </Button>
          </Group>
        )}
      </Card>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Section title="Profile">
          <Stack gap={0}>
            <Field label="E-mail">{user.email}</Field>
            <Field label="First name">{user.first_name ?? '—'}</Field>
            <Field label="Last name">{user.last_name ?? '—'}</Field>
            {source.scope === 'admin' && <Field label="Company">{user.company_name ?? '—'}</Field>}
            {source.scope === 'admin' && <Field label="Website">{user.website_url ?? '—'}</Field>}
            <Field label="Language">{user.locale ?? '—'}</Field>
            <Field label="Created">{formatDateTime(user.created_at)}</Field>
            <Field label="Last login">{formatDateTime(user.last_login)}</Field>
            <Field label="User ID">
              <Text span ff="monospace" size="xs">
                {user.id}
              </Text>
            </Field>
          </Stack>
        </Section>
        <Section title="Sign-in methods">
          <Stack gap={0}>
            <Field label="Password">{user.has_password ? 'Set' : 'None'}</Field>
            <Field label="Two-factor authentication">{user.mfa_enabled ? 'On' : 'Off'}</Field>
            <Field label="Passkeys">{user.passkeys}</Field>
            <Field label="Providers">{user.identities.length ? user.identities.map(providerName).join(', ') : 'None'}</Field>
            <Field label="Enterprise SSO">{user.enterprise_identities.length ? user.enterprise_identities.map(enterpriseSummary).join('; ') : 'None'}</Field>
            <Field label="Mail">{user.mail_bounced_at ? `Bounced on ${formatDate(user.mail_bounced_at)}` : 'Delivered'}</Field>
            <Field label="Session idle timeout">{user.session_idle_timeout_minutes ? `${user.session_idle_timeout_minutes} minutes` : 'None'}</Field>
          </Stack>
        </Section>
      </SimpleGrid>

      <OrganizationsSection source={source} user={user} />

      <Section
        title="Sessions"
        end={
          !readOnly &&
          user.sessions.length > 0 &&
          !self && (
            <Button size="xs" variant="light" color="red" {...busyProps('sign-out')} onClick={() => setConfirming('sign-out')}>
              Revoke all
            </Button>
          )
        }
      >
        {user.sessions.length === 0 ? (
          <Empty>No live sessions.</Empty>
        ) : (
          <ScrollTable label="Sessions" minWidth={620} head={['Device', 'Client', 'IP address', 'Started', 'Last used', ...(readOnly ? [] : [''])]}>
            {user.sessions.map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {session.device_label}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{session.client_label}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {session.ip_address ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(session.created_at)}</Table.Td>
                <Table.Td>{formatDateTime(session.last_used_at)}</Table.Td>
                {!readOnly && (
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      {...busyProps(`session:${session.id}`)}
                      onClick={() =>
                        void run(`session:${session.id}`, () => actions.revokeSession(session.id), { success: MONITOR_TEXTS.sessionRevoked, failure: MONITOR_TEXTS.sessionRevokeFailed })
                      }
                    >
                      Revoke
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section title="Devices">
        {user.devices.length === 0 ? (
          <Empty>No devices yet.</Empty>
        ) : (
          <ScrollTable label="Devices" minWidth={680} head={['Device', 'Last IP', 'First seen', 'Last seen', 'Status', ...(readOnly ? [] : [''])]}>
            {user.devices.map((device) => (
              <Table.Tr key={device.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {device.device_label}
                  </Text>
                  <Tooltip label={device.device_id}>
                    <Text size="xs" c="dimmed" ff="monospace" tabIndex={0}>
                      {shortDeviceId(device.device_id)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {device.last_ip ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDate(device.first_seen)}</Table.Td>
                <Table.Td>{formatDateTime(device.last_seen)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {device.is_trusted && (
                      <Badge size="sm" variant="light" color="teal">
                        Trusted
                      </Badge>
                    )}
                    {device.is_blocked && (
                      <Badge size="sm" variant="light" color="red">
                        Blocked
                      </Badge>
                    )}
                    {!device.is_trusted && !device.is_blocked && '—'}
                  </Group>
                </Table.Td>
                {!readOnly && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Button
                        size="xs"
                        variant="default"
                        {...busyProps(`trust:${device.id}`)}
                        onClick={() =>
                          void run(`trust:${device.id}`, () => actions.toggleDeviceTrust(device.id), { success: MONITOR_TEXTS.deviceTrustUpdated, failure: MONITOR_TEXTS.deviceTrustFailed })
                        }
                      >
                        {device.is_trusted ? 'Untrust' : 'Trust'}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color={device.is_blocked ? 'teal' : 'red'}
                        {...busyProps(`block:${device.id}`)}
                        onClick={() =>
                          void run(`block:${device.id}`, () => actions.toggleDeviceBlock(device.id), { success: MONITOR_TEXTS.deviceStatusUpdated, failure: MONITOR_TEXTS.deviceStatusFailed })
                        }
                      >
                        {device.is_blocked ? 'Unblock' : 'Block'}
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section title="Recent login attempts">
        {user.login_attempts.length === 0 ? (
          <Empty>No login attempts yet.</Empty>
        ) : (
          <ScrollTable label="Recent login attempts" minWidth={640} head={['Time', 'Result', 'Method', 'IP address', 'Country']}>
            {user.login_attempts.map((attempt) => (
              <Table.Tr key={attempt.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(attempt.created_at)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge variant="light" color={attempt.success ? 'teal' : 'red'} style={{ flexShrink: 0 }}>
                      {attempt.success ? 'Success' : 'Failed'}
                    </Badge>
                    {!attempt.success && attempt.failure_reason && (
                      <Text size="xs" c="dimmed">
                        {failureReasonLabel(attempt.failure_reason)}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{signInMethodLabel(attempt.method) ?? '—'}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {attempt.ip_address ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>{countryLabel(attempt.country_code)}</Table.Td>
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <Section title="Audit log">
        {user.audit.length === 0 ? (
          <Empty>No changes recorded about this user.</Empty>
        ) : (
          <ScrollTable label="Audit entries" minWidth={560} head={['Time', 'Action', 'By']}>
            {user.audit.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {auditActionLabel(entry.action)}
                  </Text>
                  {entry.target_type !== 'user' && entry.target_label && (
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {entry.target_label}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.actor_email ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Section>

      <ConfirmModal
        opened={confirming === 'reset-mfa'}
        title="Reset two-factor authentication"
        confirmLabel="Reset"
        pending={busy === 'reset-mfa'}
        onClose={() => setConfirming(null)}
        onConfirm={() => void run('reset-mfa', actions.resetMfa, { success: MONITOR_TEXTS.mfaReset, failure: MONITOR_TEXTS.mfaResetFailed })}
      >
        <Text size="sm">
          {user.email} will sign in with the password alone: the authenticator app, recovery codes and passkeys are removed, and the user is told by mail. Do this only
          once you are sure who is asking.
        </Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirming === 'sign-out'}
        title="Sign out everywhere"
        confirmLabel="Sign out everywhere"
        pending={busy === 'sign-out'}
        onClose={() => setConfirming(null)}
        onConfirm={() => void run('sign-out', actions.signOutEverywhere, { success: USER_PAGE_TEXTS.signedOut, failure: USER_PAGE_TEXTS.signOutFailed })}
      >
        <Text size="sm">Every session of {user.email} ends now, on every device. The user can sign in again.</Text>
      </ConfirmModal>
      <ConfirmModal
        opened={confirming === 'delete'}
        title="Delete user"
        confirmLabel="Delete user"
        typedConfirmation={user.email}
        pending={busy === 'delete'}
        error={deleteError}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(null)}
      >
        <Text size="sm">
          This deletes <b>{user.email}</b> for good.{' '}
          {source.scope === 'admin'
            ? 'Their projects go with the account, with those projects’ end users.'
            : 'Their sessions, devices and login history go with the account; your webhooks get user.deleted.'}{' '}
          This cannot be undone.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

/** A user's page over a source: loading, not found (or refused), then the account. */
export function UserView({ source, userId }: { source: UserPageSource; userId: string }) {
  const query = source.useUser(userId);
  const actions = source.useActions(userId);
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Center py="xl">
        <Loader aria-label="Loading the user" />
      </Center>
    );
  } else if (query.error || !query.data) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="User not available">
        <Group justify="space-between" gap="sm">
          <Text size="sm">{errorMessage(query.error, USER_PAGE_TEXTS.loadFailed)}</Text>
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  } else {
    body = <UserBody source={source} user={query.data} actions={actions} />;
  }
  return (
    <Stack gap="md">
      <Anchor component={Link} to={source.back.to} size="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} />
          {source.back.label}
        </Group>
      </Anchor>
      {body}
    </Stack>
  );
}

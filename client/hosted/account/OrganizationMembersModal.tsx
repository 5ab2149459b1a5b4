import { useState } from 'react';
import { Badge, Button, Group, Loader, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDoorExit, IconSend } from '@tabler/icons-react';
import { MEMBERS_MANAGE, ORG_MEMBER_ROLE, type MyOrganization, type OrganizationMember } from '../../../shared/schemas/organizations';
import { notify } from '../../lib/notify';
import { useHostedT } from '../../i18n/useHostedT';
import { FormAlert } from '../components/FormAlert';
import { ORGANIZATIONS_KEY, PROFILE_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';

const EMAIL = /^\S+@\S+\.\S+$/;
const nameOf = (member: OrganizationMember) => [member.first_name, member.last_name].filter(Boolean).join(' ');

/**
 * Inside one of the end user's organizations: its members with their roles, inviting someone (with
 * members:manage, among the roles the server says they may give), and leaving it after a confirmation.
 */
export function OrganizationMembersModal({ organization, onClose }: { organization: MyOrganization | null; onClose: () => void }) {
  const { t } = useHostedT();
  const [leaving, setLeaving] = useState(false);
  const close = () => {
    setLeaving(false);
    onClose();
  };
  return (
    <Modal opened={organization !== null} onClose={close} title={organization ? t('org.membersOf', { name: organization.name }) : ''} centered size="lg" closeButtonProps={{ 'aria-label': t('common.close') }}>
      {organization &&
        (leaving ? (
          <LeaveConfirmation organization={organization} onCancel={() => setLeaving(false)} onLeft={close} />
        ) : (
          <Stack gap="lg">
            <MemberList organization={organization} />
            {organization.permissions.includes(MEMBERS_MANAGE) && <InviteForm organization={organization} />}
            <Group justify="flex-end">
              <Button variant="subtle" color="red" leftSection={<IconDoorExit size={16} />} onClick={() => setLeaving(true)}>
                {t('org.leave')}
              </Button>
            </Group>
          </Stack>
        ))}
    </Modal>
  );
}

function MemberList({ organization }: { organization: MyOrganization }) {
  const { api } = useHosted();
  const { t, formatDate } = useHostedT();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile });
  const members = useQuery({ queryKey: [...ORGANIZATIONS_KEY, organization.id, 'members'], queryFn: () => api.organizationMembers(organization.id) });

  if (members.isPending) return <Loader size="sm" aria-label={t('org.members')} />;
  if (!members.data) {
    return (
      <Stack gap="sm">
        <FormAlert>{t('org.membersLoadFailed')}</FormAlert>
        <Group>
          <Button variant="default" onClick={() => void members.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" role="list" aria-label={t('org.members')}>
      {members.data.members.map((member) => (
        <Paper key={member.user_id} withBorder p="sm" radius="md" role="listitem" aria-label={member.email}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <div style={{ minWidth: 0, flex: '1 1 200px' }}>
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {member.email}
              </Text>
              <Text size="xs" c="dimmed">
                {nameOf(member) ? `${nameOf(member)} · ` : ''}
                {t('org.joined', { date: formatDate(member.joined_at) })}
              </Text>
            </div>
            <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
              {member.user_id === profile.data?.id && (
                <Badge variant="light" color="teal">
                  {t('org.you')}
                </Badge>
              )}
              <Badge variant="light" color="gray" tt="none">
                {member.role}
              </Badge>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

function InviteForm({ organization }: { organization: MyOrganization }) {
  const { api } = useHosted();
  const { t } = useHostedT();
  const roles = useQuery({ queryKey: [...ORGANIZATIONS_KEY, organization.id, 'roles'], queryFn: () => api.assignableRoles(organization.id) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>(ORG_MEMBER_ROLE);
  const [emailError, setEmailError] = useState<string | null>(null);
  const { submitting, error, submit } = useFormSubmit(t('org.inviteFailed'));
  const options = (roles.data?.roles ?? [{ key: ORG_MEMBER_ROLE, name: ORG_MEMBER_ROLE }]).map((option) => ({
    value: option.key,
    label: option.name === option.key ? option.key : `${option.name} · ${option.key}`,
  }));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) return setEmailError(t('msg.emailInvalid'));
    void submit(async () => {
      const sent = await api.inviteToOrganization(organization.id, { email: address, role });
      notify.success(t('org.invited', { email: sent.email }));
      setEmail('');
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="hosted-invite-heading">
      <Stack gap="sm">
        <div>
          <Title order={3} fz="sm" id="hosted-invite-heading">
            {t('org.inviteTitle')}
          </Title>
          <Text size="xs" c="dimmed" mt={2}>
            {t('org.inviteHelp')}
          </Text>
        </div>
        {error && <FormAlert>{error}</FormAlert>}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('org.inviteEmail')}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setEmailError(null);
            }}
            error={emailError}
            style={{ flex: '1 1 220px' }}
          />
          <Select label={t('org.inviteRole')} data={options} value={role} onChange={(value) => value && setRole(value)} allowDeselect={false} w={{ base: '100%', xs: 220 }} comboboxProps={{ withinPortal: true }} />
        </Group>
        <Group>
          <Button type="submit" leftSection={<IconSend size={16} />} loading={submitting}>
            {t('org.inviteSend')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LeaveConfirmation({ organization, onCancel, onLeft }: { organization: MyOrganization; onCancel: () => void; onLeft: () => void }) {
  const { api } = useHosted();
  const { t } = useHostedT();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: api.profile });
  const { submitting, error, submit } = useFormSubmit(t('org.leaveFailed'));

  const leave = () =>
    submit(async () => {
      await api.removeOrganizationMember(organization.id, profile.data!.id);
      notify.success(t('org.left', { name: organization.name }));
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      onLeft();
    });

  return (
    <Stack gap="md">
      <Title order={3} fz="md">
        {t('org.leaveTitle', { name: organization.name })}
      </Title>
      <Text size="sm">{t('org.leaveText')}</Text>
      {error && <FormAlert>{error}</FormAlert>}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {t('common.cancel')}
        </Button>
        <Button color="red" onClick={() => void leave()} loading={submitting} disabled={!profile.data}>
          {t('org.leave')}
        </Button>
      </Group>
    </Stack>
  );
}

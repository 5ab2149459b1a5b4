import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Loader, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDoorExit, IconMailForward, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { roleAllows, TEAM_MESSAGES, type Invitation, type Member, type ProjectRole } from '../../../shared/schemas/teams';
import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ConfirmModal } from '../ConfirmModal';
import { notifyFailure } from './states';

export const ROLE_LABELS: Record<ProjectRole, string> = { owner: 'Owner', admin: 'Admin', viewer: 'Viewer' };
const ROLE_HINTS: Record<ProjectRole, string> = {
  owner: 'Everything, including deleting the project and managing owners',
  admin: 'Everything but deleting the project and managing owners',
  viewer: 'Reads monitoring, analytics and settings; changes nothing',
};
const ROLE_COLORS: Record<ProjectRole, string> = { owner: 'grape', admin: 'blue', viewer: 'gray' };

/** The roles the caller may give: owners give any, admins give admin and viewer. */
const grantable = (role: ProjectRole): ProjectRole[] => (role === 'owner' ? ['owner', 'admin', 'viewer'] : ['admin', 'viewer']);
const roleOptions = (roles: ProjectRole[]) => roles.map((value) => ({ value, label: ROLE_LABELS[value] }));

export function RoleBadge({ role }: { role: ProjectRole }) {
  return (
    <Badge size="sm" variant="light" color={ROLE_COLORS[role]}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}

const nameOf = (member: Member) => [member.first_name, member.last_name].filter(Boolean).join(' ');

/** Who works on the project and as what: members, their roles, invitations by e-mail, leaving. */
export function ProjectTeam({ project }: { project: Project }) {
  const team = trpc.teams.get.useQuery({ id: project.id });
  const utils = trpc.useUtils();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const changeRole = trpc.teams.changeRole.useMutation();
  const removeMember = trpc.teams.removeMember.useMutation();
  const leave = trpc.teams.leave.useMutation();
  const revoke = trpc.teams.revokeInvitation.useMutation();

  const role = team.data?.role ?? project.role;
  const manages = roleAllows(role, 'admin');
  const refresh = () => Promise.all([utils.teams.get.invalidate({ id: project.id }), utils.projects.get.invalidate({ id: project.id })]);

  const onChangeRole = async (member: Member, next: ProjectRole) => {
    try {
      await changeRole.mutateAsync({ id: project.id, user_id: member.user_id, role: next });
      notify.success(`${member.email} is now ${next === 'admin' ? 'an admin' : `a ${next}`}`);
      await refresh();
    } catch (error) {
      notifyFailure('Could not change the role', error);
    }
  };

  const leaving = removing !== null && removing.user_id === user?.id;
  const onRemove = async () => {
    if (!removing) return;
    setRemoveError(null);
    try {
      if (leaving) {
        await leave.mutateAsync({ id: project.id });
        notify.success(`You left ${project.name}`);
        await utils.projects.list.invalidate();
        navigate('/projects');
        return;
      }
      await removeMember.mutateAsync({ id: project.id, user_id: removing.user_id });
      notify.success(`${removing.email} was removed from the project`);
      setRemoving(null);
      await refresh();
    } catch (error) {
      setRemoveError(errorMessage(error, 'Could not remove the member'));
    }
  };

  const onRevoke = async (invitation: Invitation) => {
    try {
      await revoke.mutateAsync({ id: project.id, invitation_id: invitation.id });
      notify.success(`The invitation to ${invitation.email} was withdrawn`);
      await refresh();
    } catch (error) {
      notifyFailure('Could not withdraw the invitation', error);
    }
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="team-heading">
        <Group justify="space-between" align="flex-start" gap="sm" mb="md">
          <div style={{ flex: '1 1 260px' }}>
            <Group gap="xs">
              <Title order={3} fz="md" id="team-heading">
                Team
              </Title>
              <Text size="sm" c="dimmed">
                Your role:
              </Text>
              <RoleBadge role={role} />
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {ROLE_HINTS[role]}.
            </Text>
          </div>
        </Group>
        {team.isPending ? (
          <Loader size="sm" aria-label="Loading the team" />
        ) : team.isError ? (
          <Text size="sm" c="red" role="alert">
            Could not load the team.
          </Text>
        ) : (
          <Stack gap="xs" role="list" aria-label="Members">
            {team.data.members.map((member) => {
              const isSelf = member.user_id === user?.id;
              // Admins manage admins and viewers; owners everyone. Anyone may leave.
              const canManage = manages && !isSelf && (role === 'owner' || member.role !== 'owner');
              return (
                <Paper key={member.user_id} withBorder p="sm" radius="md" role="listitem" aria-label={member.email}>
                  <Group justify="space-between" gap="sm" wrap="wrap">
                    <div style={{ minWidth: 0, flex: '1 1 200px' }}>
                      <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {member.email}
                        {isSelf && (
                          <Text span c="dimmed" size="sm" fw={400}>
                            {' '}
                            (you)
                          </Text>
                        )}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {nameOf(member) ? `${nameOf(member)} · ` : ''}joined {formatDate(member.joined_at)}
                      </Text>
                    </div>
                    <Group gap="xs" wrap="nowrap">
                      {canManage ? (
                        <Select
                          aria-label={`Role of ${member.email}`}
                          size="xs"
                          w={120}
                          data={roleOptions(grantable(role))}
                          value={member.role}
                          allowDeselect={false}
                          onChange={(next) => next && next !== member.role && void onChangeRole(member, next as ProjectRole)}
                          disabled={changeRole.isPending}
                        />
                      ) : (
                        <RoleBadge role={member.role} />
                      )}
                      {isSelf ? (
                        <Tooltip label="Leave the project">
                          <ActionIcon variant="subtle" color="red" aria-label="Leave the project" onClick={() => setRemoving(member)}>
                            <IconDoorExit size={18} />
                          </ActionIcon>
                        </Tooltip>
                      ) : (
                        canManage && (
                          <Tooltip label="Remove from the project">
                            <ActionIcon variant="subtle" color="red" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
                              <IconTrash size={18} />
                            </ActionIcon>
                          </Tooltip>
                        )
                      )}
                    </Group>
                  </Group>
                </Paper>
              );
            })}
          </Stack>
        )}
      </Card>

      {manages ? (
        <InviteCard project={project} role={role} invitations={team.data?.invitations ?? []} onInvited={refresh} onRevoke={onRevoke} revoking={revoke.isPending} />
      ) : (
        <Alert variant="light" color="gray" title="Read-only access">
          As a viewer you can see this project&rsquo;s monitoring, analytics and settings. Ask an admin or owner to change anything.
        </Alert>
      )}

      <ConfirmModal
        opened={removing !== null}
        title={leaving ? 'Leave this project?' : 'Remove this member?'}
        confirmLabel={leaving ? 'Leave project' : 'Remove'}
        pending={removeMember.isPending || leave.isPending}
        error={removeError}
        onConfirm={() => void onRemove()}
        onClose={() => {
          setRemoving(null);
          setRemoveError(null);
        }}
      >
        <Text size="sm">
          {leaving
            ? `You will lose access to ${project.name}. Someone on the team has to invite you again to come back.`
            : `${removing?.email} will lose access to ${project.name} at once.`}
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

function InviteCard({
  project,
  role,
  invitations,
  onInvited,
  onRevoke,
  revoking,
}: {
  project: Project;
  role: ProjectRole;
  invitations: Invitation[];
  onInvited: () => Promise<unknown>;
  onRevoke: (invitation: Invitation) => Promise<void>;
  revoking: boolean;
}) {
  const invite = trpc.teams.invite.useMutation();
  const form = useForm<{ email: string; role: ProjectRole }>({
    mode: 'controlled',
    initialValues: { email: '', role: 'viewer' },
    validate: { email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'Enter a valid e-mail address') },
  });

  const onSubmit = form.onSubmit(async (values) => {
    try {
      const sent = await invite.mutateAsync({ id: project.id, email: values.email.trim(), role: values.role });
      notify.success(`Invitation sent to ${sent.email}`);
      form.reset();
      await onInvited();
    } catch (error) {
      const detail = errorMessage(error, 'Could not send the invitation');
      if (detail === TEAM_MESSAGES.alreadyMember || /e-?mail/i.test(detail)) form.setFieldError('email', detail);
      else notifyFailure('Could not send the invitation', error);
    }
  });

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="invite-heading">
      <Title order={3} fz="md" id="invite-heading">
        Invite someone
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        They get a link by e-mail, valid 7 days. They sign in or sign up with that address and accept.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="E-mail address"
            placeholder="colleague@example.com"
            type="email"
            autoComplete="off"
            style={{ flex: '1 1 220px' }}
            {...form.getInputProps('email')}
          />
          <Select label="Role" w={140} data={roleOptions(grantable(role))} allowDeselect={false} {...form.getInputProps('role')} />
          <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconUserPlus size={16} />} loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mt={6}>
          {ROLE_HINTS[form.getValues().role]}.
        </Text>
      </form>

      {invitations.length > 0 && (
        <Stack gap="xs" mt="lg" role="list" aria-label="Pending invitations">
          <Text size="sm" fw={600}>
            Pending invitations
          </Text>
          {invitations.map((invitation) => (
            <Paper key={invitation.id} withBorder p="sm" radius="md" role="listitem" aria-label={invitation.email}>
              <Group justify="space-between" gap="sm" wrap="nowrap">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <IconMailForward size={18} style={{ flexShrink: 0 }} aria-hidden />
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {invitation.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {ROLE_LABELS[invitation.role]} · expires {formatDate(invitation.expires_at)}
                    </Text>
                  </div>
                </Group>
                {(role === 'owner' || invitation.role !== 'owner') && (
                  <Tooltip label="Withdraw the invitation">
                    <ActionIcon variant="subtle" color="red" aria-label={`Withdraw the invitation to ${invitation.email}`} loading={revoking} onClick={() => void onRevoke(invitation)}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Card>
  );
}

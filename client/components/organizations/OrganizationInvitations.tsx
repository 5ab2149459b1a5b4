import { ActionIcon, Badge, Button, Card, Group, Loader, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward, IconSend, IconTrash } from '@tabler/icons-react';
import { ORG_MEMBER_ROLE, ORGANIZATION_INVITATION_TTL_DAYS, type Organization, type OrganizationInvitation } from '../../../shared/schemas/organizations';
import { errorMessage } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { notifyFailure } from '../projects/states';
import { useRoleOptions } from './useRoleOptions';

const STATUS: Record<OrganizationInvitation['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  accepted: { label: 'Accepted', color: 'teal' },
  expired: { label: 'Expired', color: 'gray' },
};

function statusLine(invitation: OrganizationInvitation) {
  if (invitation.status === 'accepted') return `accepted ${formatDate(invitation.accepted_at)}`;
  if (invitation.status === 'expired') return `expired ${formatDate(invitation.expires_at)}`;
  return `expires ${formatDate(invitation.expires_at)}`;
}

/** Invitations by e-mail into an organization: send one with a role, see each one's status, revoke a pending one. */
export function OrganizationInvitations({ projectId, organization, manages }: { projectId: string; organization: Organization; manages: boolean }) {
  const scope = { id: projectId, organization_id: organization.id };
  const invitations = trpc.organizations.invitations.useQuery(scope);
  const utils = trpc.useUtils();
  const roles = useRoleOptions(projectId);
  const invite = trpc.organizations.invite.useMutation();
  const revoke = trpc.organizations.revokeInvitation.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', role: ORG_MEMBER_ROLE },
    validate: { email: (value: string) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'Please enter a valid email address') },
  });

  const onSubmit = form.onSubmit(async (values) => {
    try {
      const sent = await invite.mutateAsync({ ...scope, email: values.email.trim(), role: values.role });
      notify.success(`Invitation sent to ${sent.email}`);
      form.reset();
      await utils.organizations.invitations.invalidate(scope);
    } catch (failure) {
      form.setFieldError('email', errorMessage(failure, 'Could not send the invitation'));
    }
  });

  const onRevoke = async (invitation: OrganizationInvitation) => {
    try {
      await revoke.mutateAsync({ ...scope, invitation_id: invitation.id });
      notify.success(`The invitation to ${invitation.email} was revoked`);
      await utils.organizations.invitations.invalidate(scope);
    } catch (failure) {
      notifyFailure('Could not revoke the invitation', failure);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organization-invitations-heading">
      <Title order={3} fz="md" id="organization-invitations-heading">
        Invitations
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        The link goes by e-mail and works once, for {ORGANIZATION_INVITATION_TTL_DAYS} days. They sign in or sign up with that address on your hosted pages and accept.
      </Text>
      {manages && (
        <form onSubmit={onSubmit} noValidate aria-label="Invite by e-mail">
          <Group align="flex-start" gap="sm" wrap="wrap" mb="md">
            <TextInput label="E-mail address" placeholder="colleague@example.com" type="email" autoComplete="off" style={{ flex: '1 1 220px' }} {...form.getInputProps('email')} />
            <Select label="Role" w={230} data={roles.options} allowDeselect={false} {...form.getInputProps('role')} />
            <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconSend size={16} />} loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </form>
      )}
      {invitations.isPending ? (
        <Loader size="sm" aria-label="Loading the invitations" />
      ) : invitations.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(invitations.error, 'Could not load the invitations.')}
        </Text>
      ) : invitations.data.invitations.length === 0 ? (
        <Text size="sm" c="dimmed">
          No invitations yet.
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-label="Invitations">
          {invitations.data.invitations.map((invitation) => (
            <Paper key={invitation.id} withBorder p="sm" radius="md" role="listitem" aria-label={invitation.email}>
              <Group justify="space-between" gap="sm" wrap="wrap">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
                  <IconMailForward size={18} style={{ flexShrink: 0 }} aria-hidden />
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {invitation.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {roles.nameOf(invitation.role)} · {statusLine(invitation)}
                    </Text>
                  </div>
                </Group>
                <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Badge variant="light" color={STATUS[invitation.status].color}>
                    {STATUS[invitation.status].label}
                  </Badge>
                  {manages && invitation.status === 'pending' && (
                    <Tooltip label="Revoke the invitation">
                      <ActionIcon variant="subtle" color="red" aria-label={`Revoke the invitation to ${invitation.email}`} loading={revoke.isPending} onClick={() => void onRevoke(invitation)}>
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Card>
  );
}

import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ActionIcon, Anchor, Badge, Button, Card, Group, Loader, Paper, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useForm } from '@mantine/form';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { ORG_MEMBER_ROLE, type Organization, type OrganizationMember } from '../../../shared/schemas/organizations';
import { errorMessage } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ConfirmModal } from '../ConfirmModal';
import { SEARCH_DEBOUNCE_MS } from '../monitoring/ListToolbar';
import { projectUserPath } from '../user-page/source';
import { notifyFailure } from '../projects/states';
import { useRoleOptions } from './useRoleOptions';

const nameOf = (member: OrganizationMember) => [member.first_name, member.last_name].filter(Boolean).join(' ');

/** An organization's members (each linked to their user page): their roles (changed in place), removing one, adding an end user of the project. */
export function OrganizationMembers({ projectId, organization, manages }: { projectId: string; organization: Organization; manages: boolean }) {
  const scope = { id: projectId, organization_id: organization.id };
  const members = trpc.organizations.members.useQuery(scope);
  const utils = trpc.useUtils();
  const roles = useRoleOptions(projectId);
  const updateMember = trpc.organizations.updateMember.useMutation();
  const removeMember = trpc.organizations.removeMember.useMutation();
  const [removing, setRemoving] = useState<OrganizationMember | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const refresh = () => Promise.all([utils.organizations.members.invalidate(scope), utils.organizations.get.invalidate(scope), utils.organizations.list.invalidate({ id: projectId })]);

  const onChangeRole = async (member: OrganizationMember, role: string) => {
    try {
      await updateMember.mutateAsync({ ...scope, user_id: member.user_id, role });
      notify.success(`${member.email} is now ${roles.nameOf(role)}`);
      await refresh();
    } catch (failure) {
      notifyFailure('Could not change the role', failure);
    }
  };

  const onRemove = async () => {
    if (!removing) return;
    setRemoveError(null);
    try {
      await removeMember.mutateAsync({ ...scope, user_id: removing.user_id });
      notify.success(`${removing.email} was removed from ${organization.name}`);
      setRemoving(null);
      await refresh();
    } catch (failure) {
      setRemoveError(errorMessage(failure, 'Could not remove the member'));
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organization-members-heading">
      <Title order={3} fz="md" id="organization-members-heading" mb="md">
        Members
      </Title>
      {members.isPending ? (
        <Loader size="sm" aria-label="Loading the members" />
      ) : members.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(members.error, 'Could not load the members.')}
        </Text>
      ) : members.data.members.length === 0 ? (
        <Text size="sm" c="dimmed">
          {manages ? 'No members yet. Add one of the project’s users below, or invite someone by e-mail.' : 'No members yet.'}
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-label="Members">
          {members.data.members.map((member) => (
            <Paper key={member.user_id} withBorder p="sm" radius="md" role="listitem" aria-label={member.email}>
              <Group justify="space-between" gap="sm" wrap="wrap">
                <div style={{ minWidth: 0, flex: '1 1 200px' }}>
                  <Anchor component={Link} to={projectUserPath(projectId, member.user_id)} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {member.email}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {nameOf(member) ? `${nameOf(member)} · ` : ''}joined {formatDate(member.joined_at)}
                  </Text>
                </div>
                <Group gap="xs" wrap="nowrap">
                  {manages ? (
                    <Select
                      aria-label={`Role of ${member.email}`}
                      size="xs"
                      w={{ base: 190, xs: 230 }}
                      data={roles.options}
                      value={member.role}
                      allowDeselect={false}
                      onChange={(next) => next && next !== member.role && void onChangeRole(member, next)}
                      disabled={updateMember.isPending}
                    />
                  ) : (
                    <Badge variant="light">{member.role}</Badge>
                  )}
                  {manages && (
                    <Tooltip label="Remove from the organization">
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
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
      {manages && <AddMemberForm projectId={projectId} organization={organization} roleOptions={roles.options} onAdded={refresh} />}
      <ConfirmModal
        opened={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove"
        pending={removeMember.isPending}
        error={removeError}
        onConfirm={() => void onRemove()}
        onClose={() => {
          setRemoving(null);
          setRemoveError(null);
        }}
      >
        <Text size="sm">
          {removing?.email} leaves {organization.name}. Their tokens stop carrying it at their next refresh.
        </Text>
      </ConfirmModal>
    </Card>
  );
}

function AddMemberForm({
  projectId,
  organization,
  roleOptions,
  onAdded,
}: {
  projectId: string;
  organization: Organization;
  roleOptions: { value: string; label: string }[];
  onAdded: () => Promise<unknown>;
}) {
  const add = trpc.organizations.addMember.useMutation();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const users = trpc.projects.monitor.users.useQuery({ id: projectId, page: 1, per_page: 20, ...(q ? { q } : {}) }, { placeholderData: (previous) => previous });
  const form = useForm({
    mode: 'controlled',
    initialValues: { user_id: '', role: ORG_MEMBER_ROLE },
    validate: { user_id: (value: string) => (value.trim() ? null : 'Pick a user or enter a user ID') },
  });
  const userOptions = (users.data?.users ?? []).map((user) => ({ value: user.id, label: user.email }));

  const onSubmit = form.onSubmit(async (values) => {
    try {
      const member = await add.mutateAsync({ id: projectId, organization_id: organization.id, user_id: values.user_id.trim(), role: values.role });
      notify.success(`${member.email} was added to ${organization.name}`);
      form.reset();
      setSearch('');
      await onAdded();
    } catch (failure) {
      form.setFieldError('user_id', errorMessage(failure, 'Could not add the member'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a member">
      <Text size="sm" fw={600} mt="lg" mb="xs">
        Add a member
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <Select
          label="Pick from the project's users"
          placeholder="Search by e-mail or name"
          searchable
          clearable
          data={userOptions}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user found'}
          filter={({ options }) => options}
          value={userOptions.some((option) => option.value === form.getValues().user_id) ? form.getValues().user_id : null}
          onChange={(value) => form.setFieldValue('user_id', value ?? '')}
          style={{ flex: '1 1 220px' }}
        />
        <TextInput label="User ID" placeholder="usr_…" style={{ flex: '1 1 180px' }} {...form.getInputProps('user_id')} />
        <Select label="Role" w={230} data={roleOptions} allowDeselect={false} {...form.getInputProps('role')} />
        <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconUserPlus size={16} />} loading={add.isPending}>
          Add member
        </Button>
      </Group>
    </form>
  );
}

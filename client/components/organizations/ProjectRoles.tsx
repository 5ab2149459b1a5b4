import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Loader, Modal, Paper, Stack, TagsInput, Text, TextInput, Textarea, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_PERMISSIONS_PER_ROLE, type OrganizationRole } from '../../../shared/schemas/organizations';
import type { Project } from '../../../shared/schemas/projects';
import { roleAllows } from '../../../shared/schemas/teams';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ConfirmModal } from '../ConfirmModal';
import { ErrorState } from '../projects/states';

const ROLE_KEY = /^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)?$/;
const PERMISSION_KEY = /^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)+$/;

/** Project → Roles & permissions: the built-in roles and the project's own, each a set of permission keys. */
export function ProjectRoles({ project }: { project: Project }) {
  const roles = trpc.organizations.roles.useQuery({ id: project.id });
  const manages = roleAllows(project.role, 'admin');
  const [editing, setEditing] = useState<OrganizationRole | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OrganizationRole | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = trpc.organizations.deleteRole.useMutation();
  const utils = trpc.useUtils();

  const onDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await remove.mutateAsync({ id: project.id, role_key: deleting.key });
      notify.success(`Role ${deleting.key} deleted`);
      setDeleting(null);
      await utils.organizations.roles.invalidate({ id: project.id });
    } catch (failure) {
      setDeleteError(errorMessage(failure, 'Could not delete the role'));
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="roles-heading">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={2} fz="md" id="roles-heading">
            Roles &amp; permissions
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            A member holds one role in each organization. Access tokens carry it as org_role, and its permission keys as org_permissions. org:admin holds every permission.
          </Text>
        </div>
        {manages && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New role
          </Button>
        )}
      </Group>
      {roles.isPending ? (
        <Loader size="sm" aria-label="Loading the roles" />
      ) : roles.isError ? (
        <ErrorState title="Could not load the roles" error={roles.error} onRetry={() => void roles.refetch()} />
      ) : (
        <Stack gap="xs" role="list" aria-label="Roles">
          {roles.data.roles.map((role) => (
            <Paper key={role.key} withBorder p="sm" radius="md" role="listitem" aria-label={role.key}>
              <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Group gap="xs">
                    <Text fw={600} size="sm">
                      {role.name}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {role.key}
                    </Text>
                    {role.built_in && (
                      <Badge size="xs" variant="outline" color="gray">
                        Built-in
                      </Badge>
                    )}
                  </Group>
                  {role.description && (
                    <Text size="xs" c="dimmed" mt={2}>
                      {role.description}
                    </Text>
                  )}
                  <Group gap={4} mt={6}>
                    {role.key === 'org:admin' ? (
                      <Text size="xs" c="dimmed">
                        Every permission
                      </Text>
                    ) : role.permissions.length === 0 ? (
                      <Text size="xs" c="dimmed">
                        No permissions
                      </Text>
                    ) : (
                      role.permissions.map((permission) => (
                        <Badge key={permission} size="sm" variant="light" tt="none">
                          {permission}
                        </Badge>
                      ))
                    )}
                  </Group>
                </div>
                {manages && !role.built_in && (
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit ${role.key}`} onClick={() => setEditing(role)}>
                        <IconPencil size={18} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon variant="subtle" color="red" aria-label={`Delete ${role.key}`} onClick={() => setDeleting(role)}>
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <RoleModal project={project} role={editing} suggestions={roles.data?.permissions ?? []} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete ${deleting?.key}?`}
        confirmLabel="Delete role"
        pending={remove.isPending}
        error={deleteError}
        onConfirm={() => void onDelete()}
        onClose={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
      >
        <Text size="sm">Invitations with this role can no longer be sent. A role that members still hold cannot be deleted: give them another role first.</Text>
      </ConfirmModal>
    </Card>
  );
}

function RoleModal({ project, role, suggestions, onClose }: { project: Project; role: OrganizationRole | 'new' | null; suggestions: string[]; onClose: () => void }) {
  const isNew = role === 'new';
  const existing = role && role !== 'new' ? role : null;
  return (
    <Modal opened={role !== null} onClose={onClose} title={isNew ? 'New role' : `Edit ${existing?.key ?? ''}`} centered size="lg">
      {role !== null && <RoleForm key={existing?.key ?? 'new'} project={project} role={existing} suggestions={suggestions} onDone={onClose} />}
    </Modal>
  );
}

function RoleForm({ project, role, suggestions, onDone }: { project: Project; role: OrganizationRole | null; suggestions: string[]; onDone: () => void }) {
  const create = trpc.organizations.createRole.useMutation();
  const update = trpc.organizations.updateRole.useMutation();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { key: role?.key ?? '', name: role?.name ?? '', description: role?.description ?? '', permissions: role?.permissions ?? [] },
    validate: {
      key: (value: string) =>
        role ? null : !value.trim() ? 'role is required' : ROLE_KEY.test(value.trim()) ? null : 'role must look like org:billing or billing (lowercase letters, digits, _ and -)',
      name: (value: string) => (value.trim() ? null : 'name is required'),
      permissions: (value: string[]) => {
        const wrong = value.find((key) => !PERMISSION_KEY.test(key));
        if (wrong) return `“${wrong}”: a permission must look like invoices:read (lowercase words joined by colons)`;
        return value.length > MAX_PERMISSIONS_PER_ROLE ? `A role may hold at most ${MAX_PERMISSIONS_PER_ROLE} permissions` : null;
      },
    },
  });

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    const fields = { name: values.name.trim(), description: values.description.trim() || null, permissions: values.permissions };
    try {
      if (role) await update.mutateAsync({ id: project.id, role_key: role.key, ...fields });
      else await create.mutateAsync({ id: project.id, key: values.key.trim(), ...fields });
      notify.success(role ? `Role ${role.key} saved` : `Role ${values.key.trim()} created`);
      await utils.organizations.roles.invalidate({ id: project.id });
      onDone();
    } catch (failure) {
      setError(errorMessage(failure, role ? 'Could not save the role' : 'Could not create the role'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput label="Key" placeholder="org:billing" description="Tokens carry it as org_role; it cannot change later" disabled={Boolean(role)} data-autofocus {...form.getInputProps('key')} />
        <TextInput label="Name" placeholder="Billing manager" {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
        <TagsInput
          label="Permissions"
          description="Permission keys such as invoices:read; press Enter after each"
          placeholder="invoices:read"
          data={suggestions}
          clearable
          splitChars={[',', ' ']}
          {...form.getInputProps('permissions')}
        />
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {role ? 'Save role' : 'Create role'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

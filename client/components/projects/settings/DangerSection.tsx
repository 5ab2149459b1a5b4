import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import type { Project } from '../../../../shared/schemas/projects';
import { notify } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';
import { PROJECT_TEXTS, TOASTS } from '../../../messages';
import { DeleteProjectModal } from '../DeleteProjectModal';
import { notifyFailure } from '../states';
import { useStoreProject } from './useStoreProject';

/** Settings → Danger zone: switch the project off (and on again), or delete it after typing its name. */
export function DangerSection({ project }: { project: Project }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const update = trpc.projects.update.useMutation();
  const remove = trpc.projects.delete.useMutation();
  const store = useStoreProject();
  const [deleting, setDeleting] = useState(false);

  const onToggleActive = async () => {
    try {
      const next = await update.mutateAsync({ id: project.id, is_active: !project.is_active });
      notify.success(next.is_active ? PROJECT_TEXTS.projectActivated : PROJECT_TEXTS.projectDeactivated);
      await store(next);
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.projectUpdateFailed, error);
    }
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync({ id: project.id });
      setDeleting(false);
      notify.success(TOASTS.projectDeleted);
      navigate('/projects', { replace: true });
      await Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
    } catch (error) {
      notifyFailure(TOASTS.projectDeleteFailed, error);
    }
  };

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="status-heading">
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={6} style={{ flex: '1 1 280px' }}>
            <Group gap="xs">
              <Title order={3} fz="md" id="status-heading">
                Status
              </Title>
              <Badge variant="light" color={project.is_active ? 'teal' : 'gray'}>
                {project.is_active ? 'Active' : 'Inactive'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {project.is_active
                ? 'Deactivating refuses every public API call for this project (its keys answer 403) until you activate it again. Nothing is deleted.'
                : 'The public API refuses this project\u2019s keys while it is inactive. Activate it to let your backend sign users up and in again.'}
            </Text>
          </Stack>
          <Button
            variant={project.is_active ? 'default' : 'filled'}
            color={project.is_active ? 'orange' : 'teal'}
            leftSection={project.is_active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
            onClick={() => void onToggleActive()}
            loading={update.isPending}
          >
            {project.is_active ? 'Deactivate project' : 'Activate project'}
          </Button>
        </Group>
      </Card>

      <Card
        withBorder
        radius="md"
        padding="lg"
        component="section"
        aria-labelledby="danger-heading"
        style={{ borderColor: 'light-dark(var(--mantine-color-red-3), var(--mantine-color-red-9))' }}
      >
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={6} style={{ flex: '1 1 280px' }}>
            <Title order={3} fz="md" id="danger-heading" c="light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))">
              Delete this project
            </Title>
            <Text size="sm" c="dimmed">
              Deletes the project with its API keys, its end users, their sessions and devices, and its analytics.
            </Text>
          </Stack>
          <Button color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)} disabled={project.role !== 'owner'}>
            Delete project
          </Button>
        </Group>
        {project.role === 'admin' && (
          <Text size="xs" c="dimmed" mt="sm">
            Only an owner can delete the project.
          </Text>
        )}
      </Card>
      <DeleteProjectModal project={deleting ? project : null} pending={remove.isPending} onConfirm={() => void onDelete()} onClose={() => setDeleting(false)} />
    </Stack>
  );
}

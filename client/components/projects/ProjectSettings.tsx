import { useEffect } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { DELETE_PROJECT_CONFIRM, PROJECT_TEXTS, TOASTS } from '../../messages';
import { ProjectFormFields, ProjectFormSchema, toProjectInput, type ProjectFormValues } from './ProjectForm';
import { ProjectConnections } from './ProjectConnections';
import { ProjectEndUserSettings } from './ProjectEndUserSettings';
import { ProjectSignInSettings } from './ProjectSignInSettings';
import { ProjectWebhooks } from './ProjectWebhooks';
import { notifyFailure } from './states';

const valuesOf = (project: Project): ProjectFormValues => ({
  name: project.name,
  description: project.description ?? '',
  website_url: project.website_url ?? '',
  environment: project.environment,
});

/** Edit a project's details, switch it on or off, or delete it. */
export function ProjectSettings({ project }: { project: Project }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const update = trpc.projects.update.useMutation();
  const remove = trpc.projects.delete.useMutation();
  const form = useForm<ProjectFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(project),
    validate: resolver(ProjectFormSchema),
  });

  // When the saved project changes (after a save, or another tab), the form starts from it again.
  const saved = JSON.stringify(valuesOf(project));
  useEffect(() => {
    form.setInitialValues(valuesOf(project));
    form.setValues(valuesOf(project));
    form.resetDirty();
  }, [saved]);

  const store = (next: Project) => {
    utils.projects.get.setData({ id: next.id }, next);
    return Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
  };

  const onSave = form.onSubmit(async (values) => {
    try {
      const next = await update.mutateAsync({ id: project.id, ...toProjectInput(values) });
      notify.success(PROJECT_TEXTS.projectUpdated);
      await store(next);
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.projectUpdateFailed, error);
    }
  });

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
    if (!window.confirm(DELETE_PROJECT_CONFIRM)) return;
    try {
      await remove.mutateAsync({ id: project.id });
      notify.success(TOASTS.projectDeleted);
      navigate('/projects', { replace: true });
      await Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
    } catch (error) {
      notifyFailure(TOASTS.projectDeleteFailed, error);
    }
  };

  const toggling = update.isPending && update.variables?.is_active !== undefined;
  const saving = update.isPending && !toggling;

  const readOnly = project.role === 'viewer';
  return (
    <Stack gap="lg">
      {readOnly && (
        <Alert variant="light" color="gray" title="Read-only access">
          You are a viewer on this project: its settings are shown, and an admin or owner changes them.
        </Alert>
      )}
      {/* A disabled fieldset turns off every control inside it, including the cards' own buttons. */}
      <fieldset disabled={readOnly} aria-label="Project settings" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="details-heading">
            <Title order={2} fz="md" id="details-heading" mb="md">
              Project details
            </Title>
            <form onSubmit={onSave} noValidate>
              <ProjectFormFields form={form} />
              <Group justify="flex-end" gap="sm" mt="lg">
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                  Discard changes
                </Button>
                <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                  Save changes
                </Button>
              </Group>
            </form>
          </Card>

          <ProjectSignInSettings project={project} onSaved={store} />

          <ProjectEndUserSettings project={project} />

          <ProjectConnections project={project} />

          <ProjectWebhooks project={project} />

          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="status-heading">
            <Group justify="space-between" align="flex-start" gap="md">
              <Stack gap={6} style={{ flex: '1 1 280px' }}>
                <Group gap="xs">
                  <Title order={2} fz="md" id="status-heading">
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
                loading={toggling}
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
                <Title order={2} fz="md" id="danger-heading" c="red">
                  Delete this project
                </Title>
                <Text size="sm" c="dimmed">
                  Deletes the project with its API keys, its end users, their sessions and devices, and its analytics.
                </Text>
              </Stack>
              <Button color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete()} loading={remove.isPending} disabled={project.role !== 'owner'}>
                Delete project
              </Button>
            </Group>
            {project.role === 'admin' && (
              <Text size="xs" c="dimmed" mt="sm">
                Only an owner can delete the project.
              </Text>
            )}
          </Card>
        </Stack>
      </fieldset>
    </Stack>
  );
}

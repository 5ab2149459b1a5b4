import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { resolver } from '../../forms';
import { trpc } from '../../lib/trpc';
import { notify } from '../../lib/notify';
import { TOASTS } from '../../messages';
import type { Project } from '../../../shared/schemas/projects';
import { ProjectFormFields, ProjectFormSchema, emptyProjectForm, toProjectInput, type ProjectFormValues } from './ProjectForm';
import { notifyFailure } from './states';

/** Create a project: validated in the browser with the server's rules, then projects.create. */
export function CreateProjectModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (project: Project) => void;
}) {
  const utils = trpc.useUtils();
  const create = trpc.projects.create.useMutation();
  const form = useForm<ProjectFormValues>({
    mode: 'controlled',
    initialValues: emptyProjectForm,
    validate: resolver(ProjectFormSchema),
  });

  const close = () => {
    onClose();
    form.reset();
  };

  const onSubmit = form.onSubmit(async (values) => {
    try {
      const project = await create.mutateAsync(toProjectInput(values));
      notify.success(TOASTS.projectCreated);
      await Promise.all([utils.projects.list.invalidate(), utils.projects.dashboardStats.invalidate()]);
      close();
      onCreated?.(project);
    } catch (error) {
      notifyFailure(TOASTS.projectCreateFailed, error);
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Create project" centered size="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <ProjectFormFields form={form} autoFocus />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create project
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

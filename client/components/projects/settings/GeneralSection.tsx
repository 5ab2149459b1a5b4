import { useEffect } from 'react';
import { Button, Card, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Project } from '../../../../shared/schemas/projects';
import { resolver } from '../../../forms';
import { notify } from '../../../lib/notify';
import { trpc } from '../../../lib/trpc';
import { PROJECT_TEXTS } from '../../../messages';
import { UnsavedChangesGuard } from '../../UnsavedChangesGuard';
import { ProjectFormFields, ProjectFormSchema, toProjectInput, type ProjectFormValues } from '../ProjectForm';
import { notifyFailure } from '../states';
import { useStoreProject } from './useStoreProject';

const valuesOf = (project: Project): ProjectFormValues => ({
  name: project.name,
  description: project.description ?? '',
  website_url: project.website_url ?? '',
  environment: project.environment,
});

/** Settings → General: the project's name, description, website and environment. */
export function GeneralSection({ project }: { project: Project }) {
  const update = trpc.projects.update.useMutation();
  const store = useStoreProject();
  const form = useForm<ProjectFormValues>({ mode: 'controlled', initialValues: valuesOf(project), validate: resolver(ProjectFormSchema) });

  // When the saved project changes (after a save, or another tab), the form starts from it again.
  const saved = JSON.stringify(valuesOf(project));
  useEffect(() => {
    form.setInitialValues(valuesOf(project));
    form.setValues(valuesOf(project));
    form.resetDirty();
  }, [saved]);

  const onSave = form.onSubmit(async (values) => {
    try {
      const next = await update.mutateAsync({ id: project.id, ...toProjectInput(values) });
      notify.success(PROJECT_TEXTS.projectUpdated);
      await store(next);
    } catch (error) {
      notifyFailure(PROJECT_TEXTS.projectUpdateFailed, error);
    }
  });

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={onSave} noValidate aria-label="Project details">
        <ProjectFormFields form={form} />
        <Group justify="flex-end" gap="sm" mt="lg">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
            Discard changes
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
            Save changes
          </Button>
        </Group>
      </form>
      <UnsavedChangesGuard when={form.isDirty()} onDiscard={() => form.reset()} />
    </Card>
  );
}

import { Card, Skeleton, Stack } from '@mantine/core';
import type { Project } from '../../../shared/schemas/projects';
import { trpc } from '../../lib/trpc';
import { SETTINGS_TEXTS } from '../../messages';
import { ProjectEndUserMails } from './ProjectEndUserMails';
import { ProjectEndUserRules } from './ProjectEndUserRules';
import { ProjectWording } from './ProjectWording';
import { ErrorState } from './states';

/** The project's settings for its end users (GET/PATCH /api/v1/projects/{id}/settings): read by the whole team, changed by owners and admins. */
export function ProjectEndUserSettings({ project }: { project: Project }) {
  const settings = trpc.projectSettings.get.useQuery({ id: project.id });
  const readOnly = project.role === 'viewer';

  if (settings.isPending) {
    return (
      <Card withBorder radius="md" padding="lg" aria-busy="true" aria-label="Loading end-user settings">
        <Skeleton h={16} w="40%" mb="md" />
        <Skeleton h={120} />
      </Card>
    );
  }
  if (settings.isError) return <ErrorState title={SETTINGS_TEXTS.loadFailed} error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <Stack gap="lg">
      <ProjectEndUserRules projectId={project.id} settings={settings.data} readOnly={readOnly} />
      <ProjectEndUserMails projectId={project.id} projectName={project.name} settings={settings.data} readOnly={readOnly} />
      <ProjectWording projectId={project.id} settings={settings.data} readOnly={readOnly} />
    </Stack>
  );
}

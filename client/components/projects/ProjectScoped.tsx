import type { ReactNode } from 'react';
import { Anchor, Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconFolderPlus, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { TOASTS } from '../../messages';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { RoleBadge } from './ProjectTeam';
import { projectPath } from './ProjectCard';
import { ProjectPicker, useSelectedProject } from './ProjectPicker';
import { EmptyState, ErrorState } from './states';

/**
 * A screen about one of the developer's projects (?project=ID): loading, error and no-project states,
 * then the picker with the chosen project's badge and details link above the screen's own content.
 */
export function ProjectScoped({
  skeleton,
  emptyText,
  children,
}: {
  skeleton: ReactNode;
  /** Why the screen needs a project, shown when there is none yet. */
  emptyText: ReactNode;
  children: (project: Project) => ReactNode;
}) {
  const { projects, selected, select } = useSelectedProject();

  if (projects.isPending) {
    return (
      <Stack gap="lg">
        <Skeleton h={60} w={320} maw="100%" radius="md" />
        {skeleton}
      </Stack>
    );
  }
  if (projects.isError) {
    return <ErrorState title={TOASTS.projectsLoadFailed} error={projects.error} onRetry={() => void projects.refetch()} />;
  }
  if (!selected) {
    return (
      <EmptyState
        icon={<IconFolderPlus size={30} />}
        title="Create a project first"
        action={
          <Button component={Link} to="/projects?create=1" leftSection={<IconPlus size={16} />}>
            Create project
          </Button>
        }
      >
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectPicker projects={projects.data} value={selected.id} onChange={select} />
        <Group gap="xs">
          {selected.role !== 'owner' && <RoleBadge role={selected.role} />}
          <EnvironmentBadge environment={selected.environment} />
          <Anchor component={Link} to={projectPath(selected)} size="sm">
            Project details
          </Anchor>
        </Group>
      </Group>
      {children(selected)}
    </Stack>
  );
}

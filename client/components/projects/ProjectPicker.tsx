import { useEffect } from 'react';
import { Group, Select, Text } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { trpc } from '../../lib/trpc';
import { TOASTS } from '../../messages';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { useLoadErrorToast } from './states';

/**
 * The project a screen is about, kept in ?project=ID so links and reloads land on the same one.
 * Without one (or with an unknown id) the first project is chosen, replacing the history entry.
 */
export function useSelectedProject() {
  const [searchParams, setSearchParams] = useSearchParams();
  const projects = trpc.projects.list.useQuery(undefined, { select: (answer) => answer.projects });
  useLoadErrorToast(projects.errorUpdatedAt, projects.isError, TOASTS.projectsLoadFailed);
  const requested = searchParams.get('project');
  const list = projects.data ?? [];
  const selected = list.find((project) => project.id === requested) ?? null;
  const fallback = list[0];

  useEffect(() => {
    if (!projects.isSuccess || selected || !fallback) return;
    setSearchParams(
      (params) => {
        params.set('project', fallback.id);
        return params;
      },
      { replace: true },
    );
  }, [projects.isSuccess, selected, fallback, setSearchParams]);

  const select = (id: string) =>
    setSearchParams((params) => {
      params.set('project', id);
      return params;
    });

  return { projects, selected: selected ?? (projects.isSuccess ? (fallback ?? null) : null), select };
}

export function ProjectPicker({
  projects,
  value,
  onChange,
}: {
  projects: Project[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  const byId = new Map(projects.map((project) => [project.id, project]));
  return (
    <Select
      label="Project"
      data={projects.map((project) => ({ value: project.id, label: project.name }))}
      value={value}
      onChange={(id) => id && onChange(id)}
      allowDeselect={false}
      searchable={projects.length > 8}
      nothingFoundMessage="No project matches"
      leftSection={<IconFolder size={16} />}
      w={{ base: '100%', xs: 320 }}
      renderOption={({ option }) => {
        const project = byId.get(option.value);
        return (
          <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
            <Text size="sm" truncate>
              {option.label}
            </Text>
            {project && <EnvironmentBadge environment={project.environment} />}
          </Group>
        );
      }}
    />
  );
}

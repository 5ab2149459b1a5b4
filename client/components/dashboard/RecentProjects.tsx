import { Badge, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFolderPlus, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { RECENT_PROJECTS_SHOWN } from '../../../shared/constants';
import type { Project } from '../../../shared/schemas/projects';
import { countOf } from '../../lib/format';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { projectPath } from '../projects/ProjectCard';

function ProjectList({ projects }: { projects: Project[] | undefined }) {
  if (!projects) {
    return (
      <Stack gap="sm" aria-hidden>
        {Array.from({ length: RECENT_PROJECTS_SHOWN }, (_, index) => (
          <Skeleton key={index} h={62} radius="md" />
        ))}
      </Stack>
    );
  }
  if (projects.length === 0) {
    return (
      <Stack align="center" ta="center" gap="xs" py="lg">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconFolderPlus size={26} />
        </ThemeIcon>
        <Text fw={600}>No projects yet</Text>
        <Text size="sm" c="dimmed" maw={320}>
          Create a project to get a project key and start signing your users up.
        </Text>
        <Button component={Link} to="/projects?create=1" size="xs" mt={4} leftSection={<IconPlus size={14} />}>
          Create project
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      {projects.slice(0, RECENT_PROJECTS_SHOWN).map((project) => (
        <Card
          key={project.id}
          component={Link}
          to={projectPath(project)}
          withBorder
          padding="sm"
          radius="md"
          aria-label={`${project.name}, ${project.environment}, ${project.is_active ? 'Active' : 'Inactive'}`}
          style={{ color: 'inherit', textDecoration: 'none' }}
        >
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} miw={0}>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {project.name}
                </Text>
                <EnvironmentBadge environment={project.environment} />
              </Group>
              <Text size="xs" c="dimmed">
                {countOf(project.total_users, 'user')} · {countOf(project.total_logins, 'login')}
              </Text>
            </Stack>
            <Badge variant="dot" color={project.is_active ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
              {project.is_active ? 'Active' : 'Inactive'}
            </Badge>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/** The newest projects, with a link to all of them. */
export function RecentProjects({ projects }: { projects: Project[] | undefined }) {
  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="recent-heading">
      <Group justify="space-between" mb="md">
        <Title order={2} fz="lg" id="recent-heading">
          Recent projects
        </Title>
        <Button component={Link} to="/projects" variant="subtle" size="xs">
          View all
        </Button>
      </Group>
      <ProjectList projects={projects} />
    </Card>
  );
}

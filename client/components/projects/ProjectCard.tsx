import { ActionIcon, Box, Button, Card, Group, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleX, IconEye, IconKey, IconSettings, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { CopyField } from '../CopyField';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { RoleBadge } from './ProjectTeam';
import { formatCompact, formatNumber } from '../../lib/format';

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0} align="center" aria-label={`${label}: ${formatNumber(value)}`} role="group">
      <Text fw={700} title={formatNumber(value)}>
        {formatCompact(value)}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

export function ActiveIcon({ active }: { active: boolean }) {
  return active ? (
    <Tooltip label="Active">
      <IconCircleCheckFilled size={18} color="var(--mantine-color-teal-6)" aria-label="Active" role="img" />
    </Tooltip>
  ) : (
    <Tooltip label="Inactive">
      <IconCircleX size={18} color="var(--mantine-color-dimmed)" aria-label="Inactive" role="img" />
    </Tooltip>
  );
}

export function projectPath(project: Pick<Project, 'id'>, tab?: 'settings') {
  return `/projects/${encodeURIComponent(project.id)}${tab ? '/settings/general' : ''}`;
}

export function ProjectCard({ project, onDelete, deleting }: { project: Project; onDelete: () => void; deleting?: boolean }) {
  return (
    <Card withBorder padding="lg" radius="md" component="article" aria-label={project.name}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} miw={0}>
          <Title order={2} fz="lg" lineClamp={1}>
            <Text component={Link} to={projectPath(project)} inherit c="inherit" style={{ textDecoration: 'none' }}>
              {project.name}
            </Text>
          </Title>
          <Group gap={6}>
            <EnvironmentBadge environment={project.environment} />
            {project.role !== 'owner' && <RoleBadge role={project.role} />}
            <ActiveIcon active={project.is_active} />
          </Group>
        </Stack>
        {project.role === 'owner' && (
          <Tooltip label="Delete project">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${project.name}`} onClick={onDelete} loading={deleting}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>

      <Text size="sm" c="dimmed" mt="sm" lineClamp={2} mih={40}>
        {project.description || 'No description'}
      </Text>

      <Group
        justify="space-around"
        mt="md"
        py="sm"
        wrap="nowrap"
        style={{ borderBlock: '1px solid var(--mantine-color-default-border)' }}
      >
        <Stat label="Users" value={project.total_users} />
        <Stat label="Logins" value={project.total_logins} />
        <Stat label="Signups" value={project.total_signups} />
      </Group>

      <Box mt="md">
        <CopyField label="Project key" value={project.project_key} copyLabel="Copy project key" compact />
      </Box>

      <SimpleGrid cols={3} spacing={6} mt="md">
        <Button component={Link} to={projectPath(project)} variant="light" size="xs" px={4} leftSection={<IconEye size={14} />}>
          View
        </Button>
        <Button
          component={Link}
          to={projectPath(project, 'settings')}
          variant="default"
          size="xs"
          px={4}
          leftSection={<IconSettings size={14} />}
        >
          Settings
        </Button>
        <Button
          component={Link}
          to={`/api-keys?project=${encodeURIComponent(project.id)}`}
          variant="default"
          size="xs"
          px={4}
          leftSection={<IconKey size={14} />}
        >
          API Keys
        </Button>
      </SimpleGrid>
    </Card>
  );
}

import type { ReactNode } from 'react';
import { Anchor, Badge, Card, Group, Text, Title } from '@mantine/core';
import type { Project } from '../../../shared/schemas/projects';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { EnvironmentBadge } from '../EnvironmentBadge';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" py={8} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right" style={{ minWidth: 0, overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </Group>
  );
}

function Totals({ project }: { project: Project }) {
  const items = [
    { label: 'Users', value: project.total_users },
    { label: 'Logins', value: project.total_logins },
    { label: 'Signups', value: project.total_signups },
  ];
  return (
    <Group grow gap="xs" mb="md" wrap="nowrap">
      {items.map((item) => (
        <Card key={item.label} withBorder radius="md" padding="sm" ta="center" aria-label={`${item.label}: ${formatNumber(item.value)}`}>
          <Text fw={800} fz={22} lh={1.2}>
            {formatNumber(item.value)}
          </Text>
          <Text size="xs" c="dimmed">
            {item.label}
          </Text>
        </Card>
      ))}
    </Group>
  );
}

/** The project's totals, environment, status, website and dates. */
export function ProjectFacts({ project }: { project: Project }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="facts-heading">
      <Title order={2} fz="md" id="facts-heading" mb="sm">
        Key facts
      </Title>
      <Totals project={project} />
      <Fact label="Environment">
        <EnvironmentBadge environment={project.environment} />
      </Fact>
      <Fact label="Status">
        <Badge variant="dot" color={project.is_active ? 'teal' : 'gray'}>
          {project.is_active ? 'Active' : 'Inactive'}
        </Badge>
      </Fact>
      <Fact label="Website">
        {project.website_url ? (
          <Anchor href={project.website_url} target="_blank" rel="noreferrer" size="sm">
            {project.website_url.replace(/^https?:\/\//, '')}
          </Anchor>
        ) : (
          <Text span size="sm" c="dimmed">
            Not set
          </Text>
        )}
      </Fact>
      <Fact label="Created">{formatDate(project.created_at)}</Fact>
      <Fact label="Last changed">{formatDateTime(project.updated_at)}</Fact>
    </Card>
  );
}

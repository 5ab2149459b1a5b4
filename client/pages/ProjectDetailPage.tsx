import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconChartBar, IconEye, IconFolderOff, IconKey, IconSettings, IconUsers } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { Project } from '../../shared/schemas/projects';
import { CopyField } from '../components/CopyField';
import { EnvironmentBadge } from '../components/EnvironmentBadge';
import { PageHeader } from '../components/PageHeader';
import { ANALYTICS_DAYS, ActivityChart, AnalyticsSummary, hasActivity } from '../components/projects/AnalyticsCharts';
import { ProjectSettings } from '../components/projects/ProjectSettings';
import { EmptyState, ErrorState, LoadingRegion, useLoadErrorToast } from '../components/projects/states';
import { errorCode } from '../lib/errors';
import { formatDate, formatDateTime, formatNumber } from '../lib/format';
import { trpc } from '../lib/trpc';
import { PROJECT_TEXTS } from '../messages';

type Tab = 'overview' | 'settings';

/** Where a project's public signing keys are published (its end users' access tokens verify against them). */
function jwksPath(projectKey: string): string {
  return `/public/api/v1/projects/${encodeURIComponent(projectKey)}/jwks.json`;
}

function absoluteUrl(path: string): string {
  return typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString();
}

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

function Overview({ project }: { project: Project }) {
  const analytics = trpc.projects.analytics.useQuery({ projectId: project.id, days: ANALYTICS_DAYS });
  useLoadErrorToast(analytics.errorUpdatedAt, analytics.isError, PROJECT_TEXTS.analyticsLoadFailed);
  const jwks = absoluteUrl(jwksPath(project.project_key));

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="lg">
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

          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="integration-heading">
            <Title order={2} fz="md" id="integration-heading" mb="md">
              Integration
            </Title>
            <Stack gap="md">
              <CopyField
                label="Project key"
                value={project.project_key}
                copyLabel="Copy project key"
                description="The audience (aud) of your end users' access tokens."
              />
              <CopyField
                label="JWKS URL"
                value={jwks}
                copyLabel="Copy JWKS URL"
                wrap
                description="Verify your end users' access tokens (ES256) with these public keys."
              />
            </Stack>
          </Card>
        </Stack>
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="activity-heading" h="100%">
          <Group justify="space-between" mb="md" gap="xs">
            <Title order={2} fz="md" id="activity-heading">
              Last {ANALYTICS_DAYS} days
            </Title>
            <Button
              component={Link}
              to={`/analytics?project=${encodeURIComponent(project.id)}`}
              variant="subtle"
              size="xs"
              leftSection={<IconChartBar size={14} />}
            >
              Open analytics
            </Button>
          </Group>
          {analytics.isPending ? (
            <LoadingRegion label="Loading analytics">
              <Stack gap="md">
                <Skeleton h={90} radius="md" />
                <Skeleton h={90} radius="md" />
                <Skeleton h={90} radius="md" />
              </Stack>
            </LoadingRegion>
          ) : analytics.isError ? (
            <ErrorState title={PROJECT_TEXTS.analyticsLoadFailed} error={analytics.error} onRetry={() => void analytics.refetch()} />
          ) : (
            <Stack gap="md">
              <AnalyticsSummary analytics={analytics.data} cols={{ base: 2 }} />
              {hasActivity(analytics.data) ? (
                <Box mt="xs">
                  <Text size="sm" fw={600} mb="xs">
                    Signups and logins per day
                  </Text>
                  <ActivityChart analytics={analytics.data} />
                </Box>
              ) : (
                <Text size="sm" c="dimmed">
                  No activity yet. Create an API key and call the public API from your backend; signups and logins show
                  up here the same day.
                </Text>
              )}
            </Stack>
          )}
        </Card>
      </Grid.Col>
    </Grid>
  );
}

function DetailSkeleton() {
  return (
    <LoadingRegion label="Loading project">
      <Skeleton h={14} w={160} radius="sm" mb="lg" />
      <Skeleton h={34} w={280} maw="100%" radius="sm" />
      <Skeleton h={16} w={360} maw="100%" radius="sm" mt="sm" mb="xl" />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Skeleton h={360} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Skeleton h={360} radius="md" />
        </Grid.Col>
      </Grid>
    </LoadingRegion>
  );
}

export function ProjectDetailPage() {
  const { projectId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = searchParams.get('tab') === 'settings' ? 'settings' : 'overview';
  const project = trpc.projects.get.useQuery({ projectId }, { enabled: Boolean(projectId) });
  const notFound = project.isError && errorCode(project.error) === 'NOT_FOUND';
  useLoadErrorToast(project.errorUpdatedAt, project.isError && !notFound, PROJECT_TEXTS.projectLoadFailed);

  const setTab = (next: string | null) =>
    setSearchParams(
      (params) => {
        if (next === 'settings') params.set('tab', 'settings');
        else params.delete('tab');
        return params;
      },
      { replace: true },
    );

  const back = (
    <Anchor component={Link} to="/projects" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> Projects
      </Group>
    </Anchor>
  );

  if (project.isPending) {
    return (
      <Container size="lg" py="xl">
        <DetailSkeleton />
      </Container>
    );
  }

  if (project.isError) {
    return (
      <Container size="lg" py="xl">
        <Breadcrumbs mb="lg">{back}</Breadcrumbs>
        {notFound ? (
          <EmptyState
            icon={<IconFolderOff size={28} />}
            title="Project not found"
            action={
              <Button component={Link} to="/projects" variant="light">
                Back to projects
              </Button>
            }
          >
            It may have been deleted, or it belongs to another account.
          </EmptyState>
        ) : (
          <ErrorState title={PROJECT_TEXTS.projectLoadFailed} error={project.error} onRetry={() => void project.refetch()} />
        )}
      </Container>
    );
  }

  const data = project.data;
  return (
    <Container size="lg" py="xl">
      <Breadcrumbs mb="md" separator="/">
        {back}
        <Text size="sm" c="dimmed" truncate maw={240}>
          {data.name}
        </Text>
      </Breadcrumbs>
      <PageHeader
        title={<span style={{ overflowWrap: 'anywhere' }}>{data.name}</span>}
        description={data.description || 'No description'}
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={`/api-keys?project=${encodeURIComponent(data.id)}`}
              variant="light"
              leftSection={<IconKey size={16} />}
            >
              API keys
            </Button>
            <Button
              component={Link}
              to={`/monitoring?project=${encodeURIComponent(data.id)}`}
              variant="default"
              leftSection={<IconUsers size={16} />}
            >
              Monitor users
            </Button>
          </Group>
        }
      />

      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="overview" leftSection={<IconEye size={16} />}>
            Overview
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} />}>
            Settings
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Overview project={data} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <ProjectSettings project={data} />
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}

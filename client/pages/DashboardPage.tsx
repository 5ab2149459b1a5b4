import {
  Badge,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconActivity,
  IconAlertTriangle,
  IconBook,
  IconChartBar,
  IconCircleCheck,
  IconFolder,
  IconFolderPlus,
  IconKey,
  IconPlus,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { RECENT_PROJECTS_SHOWN } from '../../shared/constants';
import type { DashboardStats, Project } from '../../shared/schemas/projects';
import { useAuth } from '../auth/AuthProvider';
import { EnvironmentBadge } from '../components/EnvironmentBadge';
import { PageHeader } from '../components/PageHeader';
import { UsageBars, type UsagePoint } from '../components/UsageBars';
import { projectPath } from '../components/projects/ProjectCard';
import { ErrorState, useLoadErrorToast } from '../components/projects/states';
import { countOf, formatNumber, shortDateOf, usageLevel, usageOf, weekdayOf } from '../lib/format';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

function StatCard({
  label,
  value,
  hint,
  icon: IconComponent,
  color,
}: {
  label: string;
  value: number | undefined;
  hint: string | undefined;
  icon: Icon;
  color: string;
}) {
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton h={30} w={80} mt={6} radius="sm" />
          ) : (
            <Text fz={{ base: 24, sm: 28 }} fw={800} lh={1.2} mt={4} data-testid="stat-value">
              {formatNumber(value)}
            </Text>
          )}
        </div>
        <ThemeIcon size={40} radius="md" variant="light" color={color} visibleFrom="sm">
          <IconComponent size={22} stroke={1.6} />
        </ThemeIcon>
      </Group>
      {hint === undefined ? (
        <Skeleton h={12} w={90} mt="sm" radius="sm" />
      ) : (
        <Text size="xs" c="dimmed" mt="sm">
          {hint}
        </Text>
      )}
    </Card>
  );
}

function RecentProjects({ projects }: { projects: Project[] | undefined }) {
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

/** The dashboard stats' last seven UTC days of API requests (summed over the projects by the server) as bars. */
function weekBars(stats: DashboardStats): UsagePoint[] {
  return stats.api_requests_last_7_days.map(({ day, requests }) => ({
    key: day,
    label: weekdayOf(day),
    title: `${weekdayOf(day)}, ${shortDateOf(day)}`,
    requests,
  }));
}

function ApiUsage({ stats }: { stats: DashboardStats | undefined }) {
  const week = stats ? weekBars(stats) : undefined;
  const usage = stats ? usageOf(stats.total_api_requests_month, stats.monthly_request_limit) : undefined;
  const level = usage ? usageLevel(usage.percent) : undefined;
  const weekTotal = week?.reduce((sum, point) => sum + point.requests, 0);

  return (
    <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="usage-heading">
      <Title order={2} fz="lg" mb="md" id="usage-heading">
        API usage
      </Title>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Today
        </Text>
        {stats ? <Text fw={700}>{formatNumber(stats.total_api_requests_today)}</Text> : <Skeleton h={18} w={60} />}
      </Group>
      <Group justify="space-between" mt={6}>
        <Text size="sm" c="dimmed">
          This month
        </Text>
        {stats ? <Text fw={700}>{formatNumber(stats.total_api_requests_month)}</Text> : <Skeleton h={18} w={60} />}
      </Group>

      <Group justify="space-between" mt="md" mb={6}>
        <Text size="xs" c="dimmed">
          Requests, last 7 days
        </Text>
        {weekTotal !== undefined && (
          <Text size="xs" c="dimmed">
            {formatNumber(weekTotal)} total
          </Text>
        )}
      </Group>
      {week ? <UsageBars data={week} label="API requests over the last 7 days" /> : <Skeleton h={106} radius="md" />}

      <Group justify="space-between" mt="lg" mb={6}>
        <Text size="sm" fw={600}>
          Rate limit
        </Text>
        {level ? (
          <Badge
            color={level.color}
            variant="light"
            leftSection={level.color === 'teal' ? <IconCircleCheck size={12} /> : <IconAlertTriangle size={12} />}
          >
            {level.label}
          </Badge>
        ) : (
          <Skeleton h={20} w={70} radius="xl" />
        )}
      </Group>
      <Progress
        value={usage ? Math.min(100, usage.percent) : 0}
        color={level?.color ?? 'gray'}
        size="md"
        radius="xl"
        aria-label="Rate limit used"
        // Even a little use shows as a sliver.
        styles={usage && usage.percent > 0 && usage.percent < 1 ? { section: { minWidth: 4 } } : undefined}
      />
      <Text size="xs" c="dimmed" mt={6} data-testid="rate-limit-text">
        {stats && usage
          ? `${usage.label} of your monthly limit used (${formatNumber(stats.total_api_requests_month)} of ${formatNumber(stats.monthly_request_limit)} requests)`
          : '\u00a0'}
      </Text>
    </Card>
  );
}

export function DashboardPage() {
  const { user } = useAuth();
  const stats = trpc.projects.dashboardStats.useQuery();
  const projects = trpc.projects.list.useQuery();
  const name = user?.first_name?.trim() || user?.email;
  const failed = stats.isError || projects.isError;
  useLoadErrorToast(Math.max(stats.errorUpdatedAt, projects.errorUpdatedAt), failed, TOASTS.dashboardLoadFailed);

  const s = stats.data;
  return (
    <Container size="lg" py="xl">
      <PageHeader
        title="Dashboard"
        description={`Welcome back, ${name}! Here's what's happening with your projects.`}
        actions={
          <Button component={Link} to="/projects?create=1" leftSection={<IconPlus size={16} />}>
            New project
          </Button>
        }
      />

      {failed ? (
        <ErrorState
          title={TOASTS.dashboardLoadFailed}
          error={stats.error ?? projects.error}
          onRetry={() => {
            if (stats.isError) void stats.refetch();
            if (projects.isError) void projects.refetch();
          }}
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'lg' }}>
            <StatCard
              label="Total projects"
              value={s?.total_projects}
              hint={s && `${formatNumber(s.active_projects)} active`}
              icon={IconFolder}
              color="indigo"
            />
            <StatCard
              label="API keys"
              value={s?.total_api_keys}
              hint={s && `${formatNumber(s.active_api_keys)} active`}
              icon={IconKey}
              color="grape"
            />
            <StatCard
              label="Total users"
              value={s?.total_project_users}
              hint={s && 'Across all projects'}
              icon={IconUsers}
              color="teal"
            />
            <StatCard
              label="API requests today"
              value={s?.total_api_requests_today}
              hint={s && `${formatNumber(s.total_api_requests_month)} this month`}
              icon={IconActivity}
              color="orange"
            />
          </SimpleGrid>

          <Grid gutter="lg" mt="lg">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Card withBorder padding="lg" radius="md" h="100%" component="section" aria-labelledby="recent-heading">
                <Group justify="space-between" mb="md">
                  <Title order={2} fz="lg" id="recent-heading">
                    Recent projects
                  </Title>
                  <Button component={Link} to="/projects" variant="subtle" size="xs">
                    View all
                  </Button>
                </Group>
                <RecentProjects projects={projects.data} />
              </Card>
            </Grid.Col>

            <Grid.Col span={{ base: 12, md: 5 }}>
              <ApiUsage stats={s} />
            </Grid.Col>
          </Grid>
        </>
      )}

      <Card withBorder padding="lg" radius="md" mt="lg" component="section" aria-labelledby="actions-heading">
        <Title order={2} fz="lg" mb="md" id="actions-heading">
          Quick actions
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Button component={Link} to="/projects?create=1" variant="light" leftSection={<IconPlus size={16} />}>
            Create project
          </Button>
          <Button component={Link} to="/api-keys" variant="light" color="grape" leftSection={<IconKey size={16} />}>
            Manage API keys
          </Button>
          <Button component={Link} to="/analytics" variant="light" color="teal" leftSection={<IconChartBar size={16} />}>
            View analytics
          </Button>
          <Button component={Link} to="/api-docs" variant="light" color="orange" leftSection={<IconBook size={16} />}>
            View API docs
          </Button>
        </SimpleGrid>
      </Card>
    </Container>
  );
}

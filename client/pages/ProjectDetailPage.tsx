import { Anchor, Breadcrumbs, Button, Container, Group, Tabs, Text } from '@mantine/core';
import { IconArrowLeft, IconBuilding, IconChartBar, IconEye, IconFolderOff, IconHistory, IconKey, IconSettings, IconShieldLock, IconUsers } from '@tabler/icons-react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { ProjectOrganizations } from '../components/organizations/ProjectOrganizations';
import { ProjectRoles } from '../components/organizations/ProjectRoles';
import { ProjectDetailSkeleton } from '../components/projects/ProjectDetailSkeleton';
import { ProjectOverview } from '../components/projects/ProjectOverview';
import { ProjectSettingsLayout } from '../components/projects/settings/ProjectSettingsLayout';
import { sectionPath } from '../components/projects/settings/sections';
import { EmptyState, ErrorState, useLoadErrorToast } from '../components/projects/states';
import { errorCode } from '../lib/errors';
import { trpc } from '../lib/trpc';
import { PROJECT_TEXTS } from '../messages';

/** Links of the one-page settings (?tab=settings, ?tab=team) still land on the section they meant. */
const LEGACY_TABS: Record<string, string> = { settings: 'general', team: 'team' };

/** The tabs beside Overview and Settings, by ?tab= (Settings has paths of its own). */
const QUERY_TABS = ['organizations', 'roles'] as const;
type QueryTab = (typeof QUERY_TABS)[number];
const queryTabOf = (value: string | null): QueryTab | undefined => QUERY_TABS.find((tab) => tab === value);

export function ProjectDetailPage() {
  const { projectId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const tab = location.pathname.startsWith(`${base}/settings`) ? 'settings' : (queryTabOf(searchParams.get('tab')) ?? 'overview');
  const legacy = LEGACY_TABS[searchParams.get('tab') ?? ''];
  const project = trpc.projects.get.useQuery({ id: projectId }, { enabled: Boolean(projectId) });
  const notFound = project.isError && errorCode(project.error) === 'NOT_FOUND';
  useLoadErrorToast(project.errorUpdatedAt, project.isError && !notFound, PROJECT_TEXTS.projectLoadFailed);

  // A pushed entry per tab, so the browser's back returns to the one before.
  const setTab = (next: string | null) => {
    if (next === tab) return;
    const queryTab = queryTabOf(next);
    navigate(next === 'settings' ? `${base}/settings` : queryTab ? `${base}?tab=${queryTab}` : base);
  };

  const back = (
    <Anchor component={Link} to="/projects" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> Projects
      </Group>
    </Anchor>
  );

  if (legacy) return <Navigate to={sectionPath(projectId, legacy)} replace />;

  if (project.isPending) {
    return (
      <Container size="lg" py="xl">
        <ProjectDetailSkeleton />
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
            It may have been deleted, or you are not on its team.
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
            <Button component={Link} to={`/analytics?project=${encodeURIComponent(data.id)}`} variant="default" leftSection={<IconChartBar size={16} />}>
              Analytics
            </Button>
            <Button
              component={Link}
              to={`/monitoring?project=${encodeURIComponent(data.id)}&tab=audit`}
              variant="default"
              leftSection={<IconHistory size={16} />}
            >
              Audit log
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
          <Tabs.Tab value="organizations" leftSection={<IconBuilding size={16} />}>
            Organizations
          </Tabs.Tab>
          <Tabs.Tab value="roles" leftSection={<IconShieldLock size={16} />}>
            Roles &amp; permissions
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Routes>
            <Route index element={<ProjectOverview project={data} />} />
            <Route path="*" element={<Navigate to={base} replace />} />
          </Routes>
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <Routes>
            <Route path="settings/*" element={<ProjectSettingsLayout project={data} />} />
          </Routes>
        </Tabs.Panel>
        <Tabs.Panel value="organizations">
          <ProjectOrganizations project={data} />
        </Tabs.Panel>
        <Tabs.Panel value="roles">
          <ProjectRoles project={data} />
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}

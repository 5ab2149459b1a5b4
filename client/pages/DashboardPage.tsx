import { Button, Container, Grid } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../components/PageHeader';
import { ApiUsage } from '../components/dashboard/ApiUsage';
import { QuickActions } from '../components/dashboard/QuickActions';
import { RecentProjects } from '../components/dashboard/RecentProjects';
import { StatCards } from '../components/dashboard/StatCards';
import { ErrorState, useLoadErrorToast } from '../components/projects/states';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

export function DashboardPage() {
  const { user } = useAuth();
  const stats = trpc.projects.dashboardStats.useQuery();
  const projects = trpc.projects.list.useQuery(undefined, { select: (answer) => answer.projects });
  const name = user?.first_name?.trim() || user?.email;
  const failed = stats.isError || projects.isError;
  useLoadErrorToast(Math.max(stats.errorUpdatedAt, projects.errorUpdatedAt), failed, TOASTS.dashboardLoadFailed);

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
          <StatCards stats={stats.data} />
          <Grid gutter="lg" mt="lg">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <RecentProjects projects={projects.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <ApiUsage stats={stats.data} />
            </Grid.Col>
          </Grid>
        </>
      )}

      <QuickActions />
    </Container>
  );
}

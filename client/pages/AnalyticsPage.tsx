import { Button, Card, Container, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { ANALYTICS_DAYS, AnalyticsCharts, AnalyticsSummary, hasActivity } from '../components/projects/AnalyticsCharts';
import { ProjectScoped } from '../components/projects/ProjectScoped';
import { EmptyState, ErrorState, LoadingRegion, useLoadErrorToast } from '../components/projects/states';
import { trpc } from '../lib/trpc';
import { PROJECT_TEXTS } from '../messages';

function AnalyticsSkeleton() {
  return (
    <LoadingRegion label="Loading analytics">
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} h={96} radius="md" />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} h={300} radius="md" />
          ))}
        </SimpleGrid>
      </Stack>
    </LoadingRegion>
  );
}

function ProjectAnalytics({ projectId }: { projectId: string }) {
  const analytics = trpc.projects.analytics.useQuery({ id: projectId, days: ANALYTICS_DAYS });
  useLoadErrorToast(analytics.errorUpdatedAt, analytics.isError, PROJECT_TEXTS.analyticsLoadFailed);

  if (analytics.isPending) return <AnalyticsSkeleton />;
  if (analytics.isError) {
    return <ErrorState title={PROJECT_TEXTS.analyticsLoadFailed} error={analytics.error} onRetry={() => void analytics.refetch()} />;
  }
  return (
    <Stack gap="lg">
      <AnalyticsSummary analytics={analytics.data} />
      {hasActivity(analytics.data) ? (
        <AnalyticsCharts analytics={analytics.data} />
      ) : (
        <EmptyState
          icon={<IconChartBar size={28} />}
          title="No activity in the last 30 days"
          action={
            <Button component={Link} to={`/api-keys?project=${encodeURIComponent(projectId)}`} variant="light" leftSection={<IconKey size={16} />}>
              Get an API key
            </Button>
          }
        >
          Signups, logins, failed logins, active users and API requests appear here once your backend calls the public
          API with one of this project's keys.
        </EmptyState>
      )}
    </Stack>
  );
}

export function AnalyticsPage() {
  const content = (
    <ProjectScoped
      skeleton={<AnalyticsSkeleton />}
      emptyText="Analytics are kept per project: signups, logins, failed logins, active users and API requests, per day."
    >
      {(project) => (
        <>
          <ProjectAnalytics key={project.id} projectId={project.id} />
          <Card withBorder radius="md" padding="md">
            <Text size="xs" c="dimmed">
              Days are UTC days. Active users are end users who signed in that day; monthly active
              users count each end user once over the last 30 days.
            </Text>
          </Card>
        </>
      )}
    </ProjectScoped>
  );

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Analytics" description={`How your projects' end users sign up and sign in, over the last ${ANALYTICS_DAYS} days.`} />
      {content}
    </Container>
  );
}

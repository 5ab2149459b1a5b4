import { Button, Card, Container, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar, IconKey } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { AnalyticsBreakdowns } from '../components/analytics/AnalyticsBreakdowns';
import { PeriodPicker } from '../components/analytics/PeriodPicker';
import { periodFromSearch, periodLabel, writePeriod, type AnalyticsPeriod } from '../components/analytics/period';
import { AnalyticsCharts, AnalyticsSummary, hasActivity } from '../components/projects/AnalyticsCharts';
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

/** The period in the link (?days=, ?from=&to=), so a reload or a shared link shows the same days. */
function usePeriod(): [AnalyticsPeriod, (period: AnalyticsPeriod) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const period = periodFromSearch(searchParams);
  return [period, (next) => setSearchParams((params) => writePeriod(params, next), { replace: true })];
}

function ProjectAnalytics({ projectId, period }: { projectId: string; period: AnalyticsPeriod }) {
  // The figures of the last period stay on screen while the next one loads.
  const analytics = trpc.projects.analytics.useQuery({ id: projectId, ...period }, { placeholderData: keepPreviousData });
  useLoadErrorToast(analytics.errorUpdatedAt, analytics.isError, PROJECT_TEXTS.analyticsLoadFailed);

  if (analytics.isPending) return <AnalyticsSkeleton />;
  if (analytics.isError) {
    return <ErrorState title={PROJECT_TEXTS.analyticsLoadFailed} error={analytics.error} onRetry={() => void analytics.refetch()} />;
  }
  const data = analytics.data;
  const label = periodLabel(data.from, data.to);
  return (
    <Stack gap="lg" aria-busy={analytics.isPlaceholderData || undefined}>
      <Text size="sm" c="dimmed">
        {label} · {data.days.length} {data.days.length === 1 ? 'day' : 'days'} (UTC)
      </Text>
      <AnalyticsSummary analytics={data} period={label} />
      {hasActivity(data) || data.sign_ins_by_method.length > 0 ? (
        <>
          <AnalyticsCharts analytics={data} />
          <AnalyticsBreakdowns analytics={data} />
        </>
      ) : (
        <EmptyState
          icon={<IconChartBar size={28} />}
          title="No activity in this period"
          action={
            <Button component={Link} to={`/api-keys?project=${encodeURIComponent(projectId)}`} variant="light" leftSection={<IconKey size={16} />}>
              Get an API key
            </Button>
          }
        >
          Signups, logins, failed logins, active users and API requests appear here once your backend calls the public
          API with one of this project's keys, or end users sign in on its hosted pages.
        </EmptyState>
      )}
    </Stack>
  );
}

export function AnalyticsPage() {
  const [period, setPeriod] = usePeriod();
  return (
    <Container size="lg" py="xl">
      <PageHeader title="Analytics" description="How your projects' end users sign up and sign in: per day, by method, by country, and why sign-ins fail." />
      <ProjectScoped
        skeleton={<AnalyticsSkeleton />}
        emptyText="Analytics are kept per project: signups, logins, failed logins, active users and API requests, per day."
      >
        {(project) => (
          <>
            <PeriodPicker value={period} onChange={setPeriod} />
            <ProjectAnalytics key={project.id} projectId={project.id} period={period} />
            <Card withBorder radius="md" padding="md">
              <Text size="xs" c="dimmed">
                Days are UTC days. Active users are end users who signed in that day; monthly active users count each end
                user once over the last 30 days, whatever the period. The breakdowns count sign-in attempts: the country
                is that of the address they came from (Unknown when it is not known), the method how they signed in. They
                reach back as far as login attempts are kept (90 days unless the server is set otherwise).
              </Text>
            </Card>
          </>
        )}
      </ProjectScoped>
    </Container>
  );
}

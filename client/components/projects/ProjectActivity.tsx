import { Box, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Project } from '../../../shared/schemas/projects';
import { trpc } from '../../lib/trpc';
import { PROJECT_TEXTS } from '../../messages';
import { ANALYTICS_DAYS, ActivityChart, AnalyticsSummary, hasActivity } from './AnalyticsCharts';
import { ErrorState, LoadingRegion, useLoadErrorToast } from './states';

/** The project's analytics over the last ANALYTICS_DAYS days, with a link to the full analytics screen. */
export function ProjectActivity({ project }: { project: Project }) {
  const analytics = trpc.projects.analytics.useQuery({ id: project.id, days: ANALYTICS_DAYS });
  useLoadErrorToast(analytics.errorUpdatedAt, analytics.isError, PROJECT_TEXTS.analyticsLoadFailed);

  return (
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
  );
}

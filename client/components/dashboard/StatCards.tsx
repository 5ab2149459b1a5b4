import { SimpleGrid } from '@mantine/core';
import { IconActivity, IconFolder, IconKey, IconUsers } from '@tabler/icons-react';
import type { DashboardStats } from '../../../shared/schemas/projects';
import { formatNumber } from '../../lib/format';
import { StatCard } from './StatCard';

/** Projects, API keys, end users and today's API requests. */
export function StatCards({ stats: s }: { stats: DashboardStats | undefined }) {
  return (
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
  );
}

import { useCallback, useState, type ReactNode } from 'react';
import { Card, Group, Progress, SimpleGrid, Skeleton, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconActivity,
  IconBuilding,
  IconAlertTriangle,
  IconDevices,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconLogin,
  IconMail,
  IconUserCheck,
  IconUsers,
  IconShieldCheck,
  type Icon,
} from '@tabler/icons-react';
import { ADMIN_LIST_DEFAULT_PAGE, ADMIN_LIST_DEFAULT_PER_PAGE } from '../../../shared/constants';
import type { AdminStats } from '../../../shared/schemas/admin';
import { formatNumber, successRate } from '../../lib/format';
import { ScrollableTabsList } from '../ScrollableTabsList';
import { AuditLogTab } from './AuditLogTab';
import { MonitorProvider, useLoadErrorToast, useMonitor } from './context';
import { DevicesTab } from './DevicesTab';
import { LoginAttemptsTab } from './LoginAttemptsTab';
import { MailTab } from './MailTab';
import { OrganizationsTab } from './OrganizationsTab';
import { SessionsTab } from './SessionsTab';
import type { ListFilters, MonitorSource } from './source';
import { UsersTab } from './UsersTab';

export const MONITOR_TABS = ['overview', 'users', 'organizations', 'attempts', 'devices', 'sessions', 'mail', 'audit'] as const;
export type MonitorTab = (typeof MONITOR_TABS)[number];
type ListTab = Exclude<MonitorTab, 'overview' | 'organizations'>;

/** A list's page and filters, kept while switching tabs. */
interface ListState {
  page: number;
  filters: ListFilters;
}
const START: ListState = { page: ADMIN_LIST_DEFAULT_PAGE, filters: {} };

export function toMonitorTab(value: string | null | undefined): MonitorTab {
  return (MONITOR_TABS as readonly string[]).includes(value ?? '') ? (value as MonitorTab) : 'overview';
}

const TAB_LABELS: Record<MonitorTab, { label: string; icon: Icon }> = {
  overview: { label: 'Overview', icon: IconLayoutDashboard },
  users: { label: 'Users', icon: IconUsers },
  organizations: { label: 'Organizations', icon: IconBuilding },
  attempts: { label: 'Login Attempts', icon: IconLogin },
  devices: { label: 'Devices', icon: IconDevices },
  sessions: { label: 'Sessions', icon: IconKey },
  mail: { label: 'Mail', icon: IconMail },
  audit: { label: 'Audit Log', icon: IconHistory },
};

function StatCard({ label, value, hint, icon: IconComponent, color }: { label: string; value: number | undefined; hint: string; icon: Icon; color: string }) {
  return (
    <Card withBorder padding="md" radius="md" role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} miw={0}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton height={30} width={60} mt={4} />
          ) : (
            <Text fz={{ base: 24, sm: 28 }} fw={800} lh={1.2}>
              {formatNumber(value)}
            </Text>
          )}
        </Stack>
        <ThemeIcon size={38} radius="md" variant="light" color={color} visibleFrom="xs">
          <IconComponent size={20} stroke={1.6} />
        </ThemeIcon>
      </Group>
      <Text size="xs" c="dimmed" mt="xs">
        {hint}
      </Text>
    </Card>
  );
}

function StatCards({ stats }: { stats: AdminStats | undefined }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'lg' }}>
      <StatCard label="Total Users" value={stats?.total_users} hint="All accounts" icon={IconUsers} color="indigo" />
      <StatCard label="Active Users" value={stats?.active_users} hint="Allowed to sign in" icon={IconUserCheck} color="teal" />
      <StatCard label="Verified Users" value={stats?.verified_users} hint="E-mail confirmed" icon={IconShieldCheck} color="blue" />
      <StatCard label="Failed Logins" value={stats?.failed_logins} hint="All time" icon={IconAlertTriangle} color="red" />
    </SimpleGrid>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="div" size="sm" fw={700}>
        {value}
      </Text>
    </Group>
  );
}

function OverviewTab({ stats }: { stats: AdminStats | undefined }) {
  const rate = stats ? successRate(stats) : 0;
  const value = (n: number | undefined) => (n === undefined ? <Skeleton height={14} width={32} /> : formatNumber(n));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <Card withBorder radius="md" padding="lg">
        <Group gap="xs" mb="sm">
          <IconActivity size={18} stroke={1.8} />
          <Title order={2} fz="lg">
            Login Statistics
          </Title>
        </Group>
        <Stack gap={0}>
          <Figure label="Total attempts" value={value(stats?.total_login_attempts)} />
          <Figure label="Successful" value={value(stats?.successful_logins)} />
          <Figure label="Failed" value={value(stats?.failed_logins)} />
          <Figure label="Blocked VPN" value={value(stats?.blocked_vpn_attempts)} />
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Group gap="xs" mb="sm">
          <IconShieldCheck size={18} stroke={1.8} />
          <Title order={2} fz="lg">
            System Health
          </Title>
        </Group>
        <Stack gap={0}>
          <Figure label="Unique devices" value={value(stats?.unique_devices)} />
          <Figure label="Success rate" value={stats ? `${rate}%` : value(undefined)} />
        </Stack>
        <Progress
          value={rate}
          color={rate >= 80 ? 'teal' : rate >= 50 ? 'yellow' : 'red'}
          size="lg"
          radius="xl"
          mt="md"
          aria-label="Success rate"
        />
      </Card>
    </SimpleGrid>
  );
}

function Monitor({ tab, onTabChange }: { tab: MonitorTab; onTabChange: (tab: MonitorTab) => void }) {
  const { source } = useMonitor();
  const stats = source.useStats();
  useLoadErrorToast(stats.error);
  const [lists, setLists] = useState<Record<ListTab, ListState>>({
    users: START,
    attempts: START,
    devices: START,
    sessions: START,
    mail: START,
    audit: START,
  });
  const pageProps = useCallback(
    (list: ListTab) => ({
      page: lists[list].page,
      perPage: ADMIN_LIST_DEFAULT_PER_PAGE,
      filters: lists[list].filters,
      onPageChange: (page: number) =>
        setLists((current) => (current[list].page === page ? current : { ...current, [list]: { ...current[list], page } })),
      onFilterChange: (name: string, value: string | null) =>
        setLists((current) => {
          const filters = { ...current[list].filters, [name]: value || undefined };
          if (filters[name] === current[list].filters[name]) return current;
          return { ...current, [list]: { page: ADMIN_LIST_DEFAULT_PAGE, filters } };
        }),
    }),
    [lists],
  );

  // Organizations are a project's: the admin area has no such tab (and shows the overview for it).
  const tabs = MONITOR_TABS.filter((value) => value !== 'organizations' || source.projectId);
  const shown = tabs.includes(tab) ? tab : 'overview';

  return (
    <Stack gap="lg">
      <StatCards stats={stats.data} />
      <Tabs value={shown} onChange={(value) => onTabChange(toMonitorTab(value))} keepMounted={false}>
        <ScrollableTabsList mb="md">
          {tabs.map((value) => {
            const { label, icon: TabIcon } = TAB_LABELS[value];
            return (
              <Tabs.Tab key={value} value={value} leftSection={<TabIcon size={16} stroke={1.7} />}>
                {label}
              </Tabs.Tab>
            );
          })}
        </ScrollableTabsList>
        <Tabs.Panel value="overview">
          <OverviewTab stats={stats.data} />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <UsersTab {...pageProps('users')} />
        </Tabs.Panel>
        {source.projectId && (
          <Tabs.Panel value="organizations">
            <OrganizationsTab projectId={source.projectId} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="attempts">
          <LoginAttemptsTab {...pageProps('attempts')} />
        </Tabs.Panel>
        <Tabs.Panel value="devices">
          <DevicesTab {...pageProps('devices')} />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsTab {...pageProps('sessions')} />
        </Tabs.Panel>
        <Tabs.Panel value="mail">
          <MailTab {...pageProps('mail')} />
        </Tabs.Panel>
        <Tabs.Panel value="audit">
          <AuditLogTab {...pageProps('audit')} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/**
 * Stats and the Overview, Users, Login Attempts, Devices, Sessions, Mail and Audit Log tabs over one data source: the
 * admin area (platform accounts) and the per-project monitoring (a project's end users, with an Organizations tab) both use it.
 */
export function MonitorView({ source, tab, onTabChange }: { source: MonitorSource; tab: MonitorTab; onTabChange: (tab: MonitorTab) => void }) {
  return (
    <MonitorProvider key={source.scope} source={source}>
      <Monitor tab={tab} onTabChange={onTabChange} />
    </MonitorProvider>
  );
}

import { useEffect } from 'react';
import { Alert, Button, Card, Center, Container, Group, Loader, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconFolderPlus, IconRefresh } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { MonitorView, toMonitorTab, type MonitorTab } from '../components/monitoring/MonitorView';
import { useProjectSource } from '../components/monitoring/source';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { TOASTS } from '../messages';

function ProjectMonitor({ projectId, readOnly, tab, onTabChange }: { projectId: string; readOnly: boolean; tab: MonitorTab; onTabChange: (tab: MonitorTab) => void }) {
  const source = useProjectSource(projectId, readOnly);
  return <MonitorView source={source} tab={tab} onTabChange={onTabChange} />;
}

function NoProjects() {
  return (
    <Card withBorder padding="xl" radius="md">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconFolderPlus size={30} />
        </ThemeIcon>
        <Title order={2} fz="xl">
          No projects yet
        </Title>
        <Text c="dimmed" maw={460}>
          Create a project and sign your users up through its API key. Their accounts, sign-ins, devices and sessions
          show up here.
        </Text>
        <Button component={Link} to="/projects" mt="xs">
          Go to projects
        </Button>
      </Stack>
    </Card>
  );
}

/**
 * Per-project monitoring: the admin area's views over the end users of one of the developer's projects.
 * The project is in the address (?project=ID), so other screens can link here.
 */
export function MonitoringPage() {
  const [params, setParams] = useSearchParams();
  const projects = trpc.projects.list.useQuery(undefined, { select: (answer) => answer.projects });
  const requested = params.get('project');
  const tab = toMonitorTab(params.get('tab'));
  const list = projects.data ?? [];
  const selected = list.find((project) => project.id === requested) ?? null;

  useEffect(() => {
    if (projects.error) notify.error(errorMessage(projects.error, TOASTS.projectsLoadFailed));
  }, [projects.error]);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  // Without a choice in the address, the first project is shown (and written there, so the view can be shared).
  const first = list[0]?.id ?? null;
  useEffect(() => {
    if (!requested && first) update({ project: first });
  }, [requested, first]);

  let body;
  if (projects.isPending) {
    body = (
      <Center py="xl">
        <Loader aria-label="Loading projects" />
      </Center>
    );
  } else if (projects.error && !projects.data) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{errorMessage(projects.error, TOASTS.projectsLoadFailed)}</Text>
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void projects.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  } else if (list.length === 0) {
    body = <NoProjects />;
  } else {
    body = (
      <Stack gap="lg">
        <Select
          label="Project"
          placeholder="Choose a project"
          data={list.map((project) => ({ value: project.id, label: project.name }))}
          value={selected?.id ?? null}
          onChange={(value) => value && update({ project: value, tab: null })}
          allowDeselect={false}
          searchable={list.length > 8}
          nothingFoundMessage="No project with that name"
          maw={{ base: '100%', sm: 360 }}
          comboboxProps={{ withinPortal: true }}
        />
        {selected ? (
          <ProjectMonitor
            projectId={selected.id}
            readOnly={selected.role === 'viewer'}
            tab={tab}
            onTabChange={(next) => update({ tab: next === 'overview' ? null : next })}
          />
        ) : (
          requested && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Project not found">
              This project does not exist or you are not on its team. Choose one of your projects above.
            </Alert>
          )
        )}
      </Stack>
    );
  }

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Monitoring" description="Your projects' end users: accounts, sign-ins, devices, active sessions and the audit log." />
      {body}
    </Container>
  );
}

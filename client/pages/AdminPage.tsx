import { Button, Card, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { isEffectiveAdmin } from '../../shared/schemas/user';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../components/PageHeader';
import { MonitorView, toMonitorTab, type MonitorTab } from '../components/monitoring/MonitorView';
import { useAdminSource } from '../components/monitoring/source';

function NotAuthorised() {
  return (
    <Container size="sm" py={64}>
      <Card withBorder padding="xl" radius="md">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={56} radius="xl" color="red" variant="light">
            <IconLock size={30} />
          </ThemeIcon>
          <Title order={1} fz={26}>
            Not authorised
          </Title>
          <Text c="dimmed">You are not authorised to view the admin area. It is only available to administrators.</Text>
          <Text c="dimmed" size="sm">
            To watch the users of your own projects, open Monitoring.
          </Text>
          <Stack gap="xs" mt="xs" w="100%" maw={260}>
            <Button component={Link} to="/monitoring">
              Open Monitoring
            </Button>
            <Button component={Link} to="/dashboard" variant="default">
              Back to dashboard
            </Button>
          </Stack>
        </Stack>
      </Card>
    </Container>
  );
}

function AdminArea() {
  const source = useAdminSource();
  const [params, setParams] = useSearchParams();
  const tab = toMonitorTab(params.get('tab'));
  const onTabChange = (next: MonitorTab) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'overview') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Admin" description="Platform accounts: users, login attempts, devices, active sessions and the audit log." />
      <MonitorView source={source} tab={tab} onTabChange={onTabChange} />
    </Container>
  );
}

/** The admin area: monitoring of the platform's own accounts. Administrators only; the server enforces it too. */
export function AdminPage() {
  const { user } = useAuth();
  return user && isEffectiveAdmin(user) ? <AdminArea /> : <NotAuthorised />;
}

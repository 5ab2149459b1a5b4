import { Container, Tabs } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconPalette, IconShieldLock } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import { SocialReturnNotice } from '../components/account/SocialReturnNotice';
import { PageHeader } from '../components/PageHeader';
import { DangerZoneTab } from './settings/DangerZoneTab';
import { GeneralTab } from './settings/GeneralTab';
import { NotificationsTab } from './settings/NotificationsTab';
import { SecurityTab } from './settings/SecurityTab';

export function SettingsPage() {
  const [params] = useSearchParams();
  // Back from connecting a provider: its outcome shows on the Security tab.
  const returning = params.has('social_linked') || params.has('social_error');
  return (
    <Container size="md" py="xl">
      <PageHeader title="Settings" description="Manage your preferences, security and account." />
      <SocialReturnNotice mb="lg" />
      <Tabs defaultValue={returning ? 'security' : 'general'} keepMounted={false}>
        <Tabs.List mb="lg" style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="general" leftSection={<IconPalette size={16} />}>
            General
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} />}>
            Security
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} />}>
            Notifications
          </Tabs.Tab>
          <Tabs.Tab value="danger" color="red" leftSection={<IconAlertTriangle size={16} />}>
            Danger Zone
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general">
          <GeneralTab />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecurityTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <NotificationsTab />
        </Tabs.Panel>
        <Tabs.Panel value="danger">
          <DangerZoneTab />
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}

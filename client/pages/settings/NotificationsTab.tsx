import { useState } from 'react';
import { Stack } from '@mantine/core';
import { SettingSwitch } from '../../components/SettingSwitch';
import { notify } from '../../lib/notify';
import { TOASTS } from '../../messages';
import { SettingsSection } from '../../components/settings/SettingsSection';

const NOTIFICATION_OPTIONS = [
  { key: 'emailNotifications', label: 'Email notifications', description: 'Account activity and important updates.' },
  { key: 'securityAlerts', label: 'Security alerts', description: 'Suspicious sign-ins, blocked devices and VPN flags.' },
  { key: 'productUpdates', label: 'Product updates', description: 'New features and improvements.' },
  { key: 'marketingEmails', label: 'Marketing emails', description: 'Tips, offers and event invitations.' },
] as const;

type NotificationKey = (typeof NOTIFICATION_OPTIONS)[number]['key'];

export function NotificationsTab() {
  const [prefs, setPrefs] = useState<Record<NotificationKey, boolean>>({
    emailNotifications: true,
    securityAlerts: true,
    productUpdates: false,
    marketingEmails: false,
  });
  return (
    <SettingsSection title="Notifications" description="Choose which e-mails you receive. Changes apply immediately.">
      <Stack gap="lg">
        {NOTIFICATION_OPTIONS.map((option) => (
          <SettingSwitch
            key={option.key}
            label={option.label}
            description={option.description}
            checked={prefs[option.key]}
            onChange={(checked) => {
              setPrefs((current) => ({ ...current, [option.key]: checked }));
              notify.success(TOASTS.notificationsUpdated);
            }}
          />
        ))}
      </Stack>
    </SettingsSection>
  );
}

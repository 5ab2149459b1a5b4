import { useState } from 'react';
import { Select, Stack } from '@mantine/core';
import { DEFAULT_SESSION_TIMEOUT_MIN, SESSION_TIMEOUT_OPTIONS_MIN } from '../../../shared/constants';
import { SettingSwitch } from '../../components/SettingSwitch';
import { TwoFactorCard } from '../../components/settings/TwoFactorCard';
import { usePreferences } from '../../components/settings/usePreferences';
import { notify } from '../../lib/notify';
import { ACCOUNT_TEXTS, TOASTS } from '../../messages';
import { ChangePasswordCard } from './ChangePasswordCard';
import { SettingsSection } from '../../components/settings/SettingsSection';

export function SecurityTab() {
  const preferences = usePreferences({ saved: TOASTS.securityUpdated, failed: ACCOUNT_TEXTS.securityUpdateFailed });
  const [sessionTimeout, setSessionTimeout] = useState(String(DEFAULT_SESSION_TIMEOUT_MIN));

  return (
    <Stack gap="lg">
      <ChangePasswordCard />
      <TwoFactorCard />
      <SettingsSection title="Security preferences" description="Changes apply immediately.">
        <Stack gap="lg">
          <SettingSwitch
            label="Login notifications"
            description="E-mail me when my account signs in from a new device."
            checked={preferences.value('login_notifications')}
            onChange={(checked) => void preferences.set('login_notifications', checked)}
          />
          <Select
            label="Session timeout"
            description="Sign out after this long without activity."
            data={SESSION_TIMEOUT_OPTIONS_MIN.map((minutes) => ({ value: String(minutes), label: `${minutes} minutes` }))}
            value={sessionTimeout}
            onChange={(value) => {
              if (!value || value === sessionTimeout) return;
              setSessionTimeout(value);
              notify.success(TOASTS.securityUpdated);
            }}
            allowDeselect={false}
            maw={260}
          />
        </Stack>
      </SettingsSection>
    </Stack>
  );
}

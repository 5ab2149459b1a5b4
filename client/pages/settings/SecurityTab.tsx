import { Select, Stack } from '@mantine/core';
import { SESSION_TIMEOUT_OPTIONS_MIN } from '../../../shared/constants';
import { useAuth } from '../../auth/AuthProvider';
import { SettingSwitch } from '../../components/SettingSwitch';
import { PasskeysCard } from '../../components/settings/PasskeysCard';
import { SignInMethodsCard } from '../../components/settings/SignInMethodsCard';
import { TwoFactorCard } from '../../components/settings/TwoFactorCard';
import { YourSessionsCard } from '../../components/settings/YourSessionsCard';
import { usePreferences } from '../../components/settings/usePreferences';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ACCOUNT_TEXTS, SESSION_TEXTS, TOASTS } from '../../messages';
import { ChangePasswordCard } from './ChangePasswordCard';
import { SettingsSection } from '../../components/settings/SettingsSection';

const NO_TIMEOUT = 'none';
const minutesLabel = (minutes: number) => `${minutes} minutes`;

export function SecurityTab() {
  const { user, setUser } = useAuth();
  const utils = trpc.useUtils();
  const updateProfile = trpc.profile.update.useMutation();
  const preferences = usePreferences({ saved: TOASTS.securityUpdated, failed: ACCOUNT_TEXTS.securityUpdateFailed });
  const minutes = user?.session_idle_timeout_minutes ?? null;
  const sessionTimeout = minutes === null ? NO_TIMEOUT : String(minutes);
  // A value set through the API that the list does not offer is still shown as it is.
  const timeoutOptions: readonly number[] =
    minutes === null || SESSION_TIMEOUT_OPTIONS_MIN.some((option) => option === minutes)
      ? SESSION_TIMEOUT_OPTIONS_MIN
      : [...SESSION_TIMEOUT_OPTIONS_MIN, minutes].sort((a, b) => a - b);

  const changeSessionTimeout = async (value: string) => {
    try {
      setUser(await updateProfile.mutateAsync({ session_idle_timeout_minutes: value === NO_TIMEOUT ? null : Number(value) }));
      notify.success(TOASTS.securityUpdated);
      // Sessions already idle past the old timeout have just ended.
      await utils.auth.listSessions.invalidate();
    } catch (error) {
      notify.error(errorMessage(error, SESSION_TEXTS.timeoutUpdateFailed));
    }
  };

  return (
    <Stack gap="lg">
      <ChangePasswordCard />
      <TwoFactorCard />
      <PasskeysCard />
      <SignInMethodsCard />
      <YourSessionsCard />
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
            data={[
              { value: NO_TIMEOUT, label: 'No timeout' },
              ...timeoutOptions.map((option) => ({ value: String(option), label: minutesLabel(option) })),
            ]}
            value={sessionTimeout}
            onChange={(value) => {
              if (!value || value === sessionTimeout) return;
              void changeSessionTimeout(value);
            }}
            disabled={updateProfile.isPending}
            allowDeselect={false}
            maw={260}
          />
        </Stack>
      </SettingsSection>
    </Stack>
  );
}

import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Container,
  Divider,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  useMantineColorScheme,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconBell, IconPalette, IconShieldLock } from '@tabler/icons-react';
import { DEFAULT_SESSION_TIMEOUT_MIN, SESSION_TIMEOUT_OPTIONS_MIN } from '../../shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { PageHeader } from '../components/PageHeader';
import { PasswordField } from '../components/PasswordField';
import { SettingSwitch } from '../components/SettingSwitch';
import { ChangePasswordFormSchema, resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { DELETE_CONFIRM_WORD, MESSAGES, TOASTS, VALIDATION } from '../messages';
import { toColorScheme, toPreference, type ThemePreference } from '../theme';

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="xl" radius="md">
      <Title order={2} fz="lg">
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mt={4}>
          {description}
        </Text>
      )}
      <Divider my="md" />
      {children}
    </Card>
  );
}

function GeneralTab() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Section title="Appearance" description="Choose how the dashboard looks to you.">
      <Stack gap={6}>
        <Text size="sm" fw={500} id="theme-label">
          Theme
        </Text>
        <SegmentedControl
          aria-labelledby="theme-label"
          value={toPreference(colorScheme)}
          onChange={(value) => setColorScheme(toColorScheme(value as ThemePreference))}
          data={[
            { label: 'Light', value: 'light' },
            { label: 'Dark', value: 'dark' },
            { label: 'System', value: 'system' },
          ]}
          w={{ base: '100%', xs: 360 }}
        />
        <Text size="xs" c="dimmed">
          System follows your operating system&apos;s setting.
        </Text>
      </Stack>
    </Section>
  );
}

function ChangePasswordCard() {
  const changePassword = trpc.auth.changePassword.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: resolver(ChangePasswordFormSchema),
  });

  const onSubmit = form.onSubmit(async (values) => {
    try {
      await changePassword.mutateAsync({ current_password: values.currentPassword, new_password: values.newPassword });
      notify.success(MESSAGES.passwordChanged);
      form.reset();
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.changePasswordFailed));
    }
  });

  return (
    <Section title="Change password" description="Use a password you don't use anywhere else.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={420}>
          <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <PasswordField label="New password" autoComplete="new-password" required {...form.getInputProps('newPassword')} />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Group>
            <Button type="submit" loading={changePassword.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function SecurityTab() {
  const [twoFactorEnabled, setTwoFactorEnabled] = useState(false);
  const [loginNotifications, setLoginNotifications] = useState(true);
  const [sessionTimeout, setSessionTimeout] = useState(String(DEFAULT_SESSION_TIMEOUT_MIN));

  return (
    <Stack gap="lg">
      <ChangePasswordCard />
      <Section title="Security preferences" description="Changes apply immediately.">
        <Stack gap="lg">
          <SettingSwitch
            label="Two-factor authentication"
            description="Require a second step when you sign in."
            checked={twoFactorEnabled}
            onChange={(checked) => {
              setTwoFactorEnabled(checked);
              notify.success(TOASTS.securityUpdated);
            }}
          />
          <SettingSwitch
            label="Login notifications"
            description="E-mail me when my account signs in from a new device."
            checked={loginNotifications}
            onChange={(checked) => {
              setLoginNotifications(checked);
              notify.success(TOASTS.securityUpdated);
            }}
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
      </Section>
    </Stack>
  );
}

const NOTIFICATION_OPTIONS = [
  { key: 'emailNotifications', label: 'Email notifications', description: 'Account activity and important updates.' },
  { key: 'securityAlerts', label: 'Security alerts', description: 'Suspicious sign-ins, blocked devices and VPN flags.' },
  { key: 'productUpdates', label: 'Product updates', description: 'New features and improvements.' },
  { key: 'marketingEmails', label: 'Marketing emails', description: 'Tips, offers and event invitations.' },
] as const;

type NotificationKey = (typeof NOTIFICATION_OPTIONS)[number]['key'];

function NotificationsTab() {
  const [prefs, setPrefs] = useState<Record<NotificationKey, boolean>>({
    emailNotifications: true,
    securityAlerts: true,
    productUpdates: false,
    marketingEmails: false,
  });
  return (
    <Section title="Notifications" description="Choose which e-mails you receive. Changes apply immediately.">
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
    </Section>
  );
}

function DangerZoneTab() {
  const [confirming, setConfirming] = useState(false);
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const matches = text === DELETE_CONFIRM_WORD;
  const deleteAccount = trpc.auth.deleteAccount.useMutation();
  const { endSession } = useAuth();

  const onDelete = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches) return;
    try {
      await deleteAccount.mutateAsync({ confirm: DELETE_CONFIRM_WORD });
      notify.success(MESSAGES.accountDeleted);
      endSession('/');
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.deleteAccountFailed));
    }
  };

  return (
    <Card withBorder padding="xl" radius="md" style={{ borderColor: 'var(--mantine-color-red-6)' }}>
      <Title order={2} fz="lg" c="red">
        Danger Zone
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        Irreversible actions. Be careful.
      </Text>
      <Divider my="md" />
      <Stack gap="md">
        <div>
          <Text fw={600}>Delete account</Text>
          <Text size="sm" c="dimmed">
            Permanently delete your account, your projects and all their data. This cannot be undone.
          </Text>
        </div>
        {!confirming ? (
          <Group>
            <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
              Delete account
            </Button>
          </Group>
        ) : (
          <form onSubmit={(event) => void onDelete(event)} noValidate>
            <Stack gap="sm" maw={420}>
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
                This will permanently delete your account.
              </Alert>
              <TextInput
                label={`Type ${DELETE_CONFIRM_WORD} to confirm`}
                value={text}
                onChange={(event) => setText(event.currentTarget.value)}
                onBlur={() => setTouched(true)}
                error={(touched || text.length > 0) && !matches ? VALIDATION.deleteConfirm : undefined}
                autoComplete="off"
                data-autofocus
              />
              <Group gap="sm">
                <Button type="submit" color="red" disabled={!matches} loading={deleteAccount.isPending}>
                  Permanently delete account
                </Button>
                <Button
                  variant="default"
                  onClick={() => {
                    setConfirming(false);
                    setText('');
                    setTouched(false);
                  }}
                >
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}

export function SettingsPage() {
  return (
    <Container size="md" py="xl">
      <PageHeader title="Settings" description="Manage your preferences, security and account." />
      <Tabs defaultValue="general" keepMounted={false}>
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

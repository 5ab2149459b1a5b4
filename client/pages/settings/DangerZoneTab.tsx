import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useAuth } from '../../auth/AuthProvider';
import { useStepUp } from '../../components/account/StepUp';
import { PasswordField } from '../../components/PasswordField';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { StepUpCancelled } from '../../lib/step-up';
import { trpc } from '../../lib/trpc';
import { DELETE_CONFIRM_WORD, MESSAGES, TOASTS, VALIDATION } from '../../messages';

/**
 * Settings → Danger zone: deleting the account for good, once DELETE is typed and the current password
 * given; an account without one (it signs in with a provider only) proves who it is in the step-up
 * dialog instead (a code mailed to it, or signing in again) unless its sign-in was a moment ago.
 */
export function DangerZoneTab() {
  const [confirming, setConfirming] = useState(false);
  const [text, setText] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const matches = text === DELETE_CONFIRM_WORD;
  const deleteAccount = trpc.profile.deleteAccount.useMutation();
  const methods = trpc.social.identities.useQuery();
  // Until the account's ways in are known, ask for the password as before.
  const hasPassword = methods.data?.has_password ?? true;
  const stepUp = useStepUp();
  const { endSession } = useAuth();

  const onDelete = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches || (hasPassword && !password)) return;
    try {
      // A session alone cannot delete the account: the current password, or without one a recent step-up.
      await stepUp.guard(() => deleteAccount.mutateAsync(hasPassword ? { password } : {}));
      notify.success(MESSAGES.accountDeleted);
      endSession('/');
    } catch (error) {
      if (!(error instanceof StepUpCancelled)) notify.error(errorMessage(error, TOASTS.deleteAccountFailed));
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
                {hasPassword
                  ? 'This will permanently delete your account. Enter your password to confirm it is you.'
                  : 'This will permanently delete your account. Your account has no password: unless you signed in a moment ago, we will e-mail you a code to confirm it is you.'}
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
              {hasPassword && (
                <PasswordField
                  label="Current password"
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={touched && !password ? VALIDATION.currentPasswordRequired : undefined}
                  autoComplete="current-password"
                />
              )}
              <Group gap="sm">
                <Button type="submit" color="red" disabled={!matches} loading={deleteAccount.isPending}>
                  Permanently delete account
                </Button>
                <Button
                  variant="default"
                  onClick={() => {
                    setConfirming(false);
                    setText('');
                    setPassword('');
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

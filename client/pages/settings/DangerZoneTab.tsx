import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useAuth } from '../../auth/AuthProvider';
import { PasswordField } from '../../components/PasswordField';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { DELETE_CONFIRM_WORD, MESSAGES, TOASTS, VALIDATION } from '../../messages';

export function DangerZoneTab() {
  const [confirming, setConfirming] = useState(false);
  const [text, setText] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const matches = text === DELETE_CONFIRM_WORD;
  const deleteAccount = trpc.profile.deleteAccount.useMutation();
  const { endSession } = useAuth();

  const onDelete = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches || !password) return;
    try {
      // The server asks for the current password: a session alone cannot delete the account.
      await deleteAccount.mutateAsync({ password });
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
                This will permanently delete your account. Enter your password to confirm it is you.
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
              <PasswordField
                label="Current password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={touched && !password ? VALIDATION.currentPasswordRequired : undefined}
                autoComplete="current-password"
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

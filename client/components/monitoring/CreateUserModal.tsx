import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { errorMessage } from '../../lib/errors';
import { USER_PAGE_TEXTS } from '../../messages';
import { PasswordField } from '../PasswordField';
import type { CreateUserFields } from './source';

interface CreateUserModalProps {
  opened: boolean;
  onClose: () => void;
  create: (input: CreateUserFields) => Promise<{ id: string }>;
  /** After the user is made (to open its page). */
  onCreated: (user: { id: string }) => void;
}

/**
 * A project's developer creates an end user: with a password, or without one (the user sets one through
 * "forgot password" or signs in with a provider); the address marked verified, or mailed a link.
 * The server's rules (address, the project's password rules) answer in the dialog.
 */
export function CreateUserModal({ opened, onClose, create, onCreated }: CreateUserModalProps) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [withPassword, setWithPassword] = useState<'yes' | 'no'>('yes');
  const [password, setPassword] = useState('');
  const [verified, setVerified] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setEmail('');
    setFirstName('');
    setLastName('');
    setWithPassword('yes');
    setPassword('');
    setVerified(false);
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const user = await create({
        email: email.trim(),
        ...(withPassword === 'yes' && { password }),
        ...(firstName.trim() && { first_name: firstName.trim() }),
        ...(lastName.trim() && { last_name: lastName.trim() }),
        email_verified: verified,
      });
      reset();
      onCreated(user);
    } catch (caught) {
      setError(errorMessage(caught, USER_PAGE_TEXTS.createFailed));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Create user" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput label="Email" type="email" required value={email} onChange={(event) => setEmail(event.currentTarget.value)} autoComplete="off" data-autofocus />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="First name" value={firstName} onChange={(event) => setFirstName(event.currentTarget.value)} autoComplete="off" />
            <TextInput label="Last name" value={lastName} onChange={(event) => setLastName(event.currentTarget.value)} autoComplete="off" />
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="create-user-password-choice">
              Password
            </Text>
            <SegmentedControl
              aria-labelledby="create-user-password-choice"
              value={withPassword}
              onChange={(value) => setWithPassword(value as 'yes' | 'no')}
              data={[
                { value: 'yes', label: 'Set a password' },
                { value: 'no', label: 'No password' },
              ]}
            />
          </Stack>
          {withPassword === 'yes' ? (
            <PasswordField label="Password" required value={password} onChange={(event) => setPassword(event.currentTarget.value)} autoComplete="new-password" />
          ) : (
            <Text size="xs" c="dimmed">
              The user sets a password through “Forgot password”, or signs in with a provider.
            </Text>
          )}
          <Checkbox
            label="Mark the address as verified"
            description={verified ? 'No verification mail is sent.' : 'The user is mailed a verification link.'}
            checked={verified}
            onChange={(event) => setVerified(event.currentTarget.checked)}
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Create user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

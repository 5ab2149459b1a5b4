import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';

interface DeleteUserDialogProps {
  opened: boolean;
  email: string;
  /** What else goes with the account, in a sentence. */
  consequence: string;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Deleting an account asks to type its address: the app's own dialog, never the browser's confirm(). */
export function DeleteUserDialog({ opened, email, consequence, pending, error, onConfirm, onClose }: DeleteUserDialogProps) {
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Delete user" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) onConfirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            This deletes <b>{email}</b> for good. {consequence} This cannot be undone.
          </Text>
          <TextInput
            label={`Type ${email} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={pending}>
              Delete user
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

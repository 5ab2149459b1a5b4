import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';

interface TypedConfirmModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** What must be typed to enable the red button (an organization's slug). */
  word: string;
  confirmLabel: string;
  pending: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** A destructive action that cannot be undone: the red button works once `word` is typed exactly. */
export function TypedConfirmModal({ opened, title, children, word, confirmLabel, pending, error, onConfirm, onClose }: TypedConfirmModalProps) {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (!opened) setTyped('');
  }, [opened]);
  const matches = typed.trim() === word;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) onConfirm();
        }}
        noValidate
      >
        <Stack gap="md">
          {children}
          <TextInput
            label={
              <>
                Type <Text span ff="monospace" fw={700}>{word}</Text> to confirm
              </>
            }
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

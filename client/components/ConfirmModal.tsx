import { useEffect, useId, useState, type ReactNode } from 'react';
import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** What confirming does, in a sentence or two. */
  children: ReactNode;
  /** The red button's label ("Remove", "Delete"). */
  confirmLabel: string;
  pending: boolean;
  /** A refusal to show inside the dialog (the dialog stays open). */
  error?: string | null;
  /**
   * For what cannot be undone: the name to type (a project's, an API key's) before the red button
   * works. Compared exactly, after trimming what was typed.
   */
  typedConfirmation?: string;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The house's confirmation of a destructive action: what it does, Cancel, and a red button; with
 * `typedConfirmation`, the name to type first. The app never uses the browser's confirm().
 */
export function ConfirmModal({ opened, title, children, confirmLabel, pending, error, typedConfirmation, onConfirm, onClose }: ConfirmModalProps) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  // Each opening starts empty, so a name typed for one item never confirms the next.
  useEffect(() => {
    if (opened) setTyped('');
  }, [opened, typedConfirmation]);
  const matches = typedConfirmation === undefined || typed.trim() === typedConfirmation;

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !pending) onConfirm();
        }}
        noValidate
      >
        <Stack gap="md">
          {children}
          {typedConfirmation !== undefined && (
            <TextInput
              id={inputId}
              label={
                <Text span size="sm">
                  Type <Code>{typedConfirmation}</Code> to confirm
                </Text>
              }
              aria-label={`Type ${typedConfirmation} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
            />
          )}
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={pending} disabled={!matches}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

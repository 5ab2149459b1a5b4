import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

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
  onConfirm: () => void;
  onClose: () => void;
}

/** The house's confirmation of a destructive action: what it does, Cancel, and a red button. */
export function ConfirmModal({ opened, title, children, confirmLabel, pending, error, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        {children}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

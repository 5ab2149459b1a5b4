import { Text } from '@mantine/core';
import type { Project } from '../../../shared/schemas/projects';
import { DELETE_PROJECT_CONFIRM } from '../../messages';
import { ConfirmModal } from '../ConfirmModal';

/** Deleting a project (its settings' Danger zone, a card on Projects): the spec's question, then its name typed. */
export function DeleteProjectModal({ project, pending, onConfirm, onClose }: { project: Pick<Project, 'name'> | null; pending: boolean; onConfirm(): void; onClose(): void }) {
  return (
    <ConfirmModal
      opened={project !== null}
      title="Delete project"
      confirmLabel="Delete project"
      pending={pending}
      typedConfirmation={project?.name ?? ''}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Text size="sm">{DELETE_PROJECT_CONFIRM}</Text>
      <Text size="sm" c="dimmed">
        Its API keys, end users, their sessions and devices, and its analytics go with it.
      </Text>
    </ConfirmModal>
  );
}

import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useBlocker } from 'react-router-dom';

/**
 * Holds a navigation away from a form with unsaved edits (a link, the browser's back, another section)
 * in the app's own dialog: Stay on the form, or Discard and go on. Closing or reloading the tab is left
 * to the browser's own question (beforeunload), the only one a page may ask there.
 *
 * Leaving means another path: a search or hash change on the same screen is not held.
 */
export function UnsavedChangesGuard({ when, onDiscard }: { when: boolean; onDiscard?: () => void }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // Saved (or discarded) while the dialog was open: nothing is held any more.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.reset();
  }, [blocker, when]);

  const blocked = blocker.state === 'blocked';
  return (
    <Modal opened={blocked} onClose={() => blocker.reset?.()} title="Discard unsaved changes?" centered>
      <Stack gap="md">
        <Text size="sm">You changed this section without saving. Leave it and lose those changes, or stay and save them.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Stay and keep editing
          </Button>
          <Button
            color="red"
            onClick={() => {
              onDiscard?.();
              blocker.proceed?.();
            }}
          >
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

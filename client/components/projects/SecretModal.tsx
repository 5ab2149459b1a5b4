import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { PROJECT_TEXTS } from '../../messages';
import { CopyField } from '../CopyField';

/**
 * The new key's secret, shown this once (the server keeps only a hash). Closing forgets it, so the
 * overlay does not close on an outside click or Escape: only the explicit button.
 */
export function SecretModal({ secret, keyName, onClose }: { secret: string | null; keyName: string; onClose: () => void }) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title="Your new API key"
      centered
      size="lg"
      closeOnClickOutside={false}
      closeOnEscape={false}
    >
      {secret !== null && (
        <Stack gap="md">
          <Text size="sm">
            <b>{keyName}</b> is ready. Send it in the <code>X-API-Key</code> header from your backend; never ship it to
            a browser or an app.
          </Text>
          <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} />} title="Shown only once">
            {PROJECT_TEXTS.secretWarning}
          </Alert>
          <CopyField label="Secret key" value={secret} copyLabel="Copy API key" wrap />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the key</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

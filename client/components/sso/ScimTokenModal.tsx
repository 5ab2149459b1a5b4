import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyField } from '../CopyField';
import type { ScimToken } from './ssoConnectionsApi';

export type ShownScimToken = ScimToken & { connectionName: string };

/** A new SCIM token, shown this once (creation or rotation): like a machine client's secret, only the explicit button closes it. */
export function ScimTokenModal({ shown, onClose }: { shown: ShownScimToken | null; onClose(): void }) {
  return (
    <Modal opened={shown !== null} onClose={onClose} title="Your SCIM token" centered size="lg" closeOnClickOutside={false} closeOnEscape={false}>
      {shown && (
        <Stack gap="md">
          <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} />} title="Shown only once">
            Copy the token now into the identity provider&rsquo;s provisioning settings for {shown.connectionName}. It will not be shown again: rotate it if it is lost.
          </Alert>
          <CopyField label="SCIM base URL" value={shown.base_url} copyLabel="Copy the SCIM base URL" wrap />
          <CopyField label="Bearer token" value={shown.token} copyLabel="Copy the SCIM token" wrap />
          <Text size="xs" c="dimmed">
            The IdP sends it as <code>Authorization: Bearer &lt;token&gt;</code>.
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the token</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

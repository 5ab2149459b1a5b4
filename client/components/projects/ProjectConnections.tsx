import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Loader, Modal, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';
import { IconTrash } from '@tabler/icons-react';
import type { Project } from '../../../shared/schemas/projects';
import { SOCIAL_MESSAGES, SOCIAL_PROVIDER_NAMES, SOCIAL_PROVIDERS, type Connection, type SocialProvider } from '../../../shared/schemas/social';
import { errorCode, errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { ProviderIcon } from '../auth/ProviderIcon';
import { ConnectionForm, fieldOfDetail, type ConnectionFormValues } from './ConnectionForm';
import { notifyFailure } from './states';

const TITLES: Record<SocialProvider, string> = { github: 'GitHub', google: 'Google', microsoft: 'Microsoft', oidc: 'OpenID Connect' };

/** Before the first save the server has no callback URL to give; it is always this one. */
const callbackUrlOf = (project: Project, provider: SocialProvider) => `${window.location.origin}/hosted/${project.project_key}/api/v1/auth/oauth/${provider}/callback`;

/** Sign-in with GitHub, Google, Microsoft or any OpenID Connect provider on the project's hosted pages. */
export function ProjectConnections({ project }: { project: Project }) {
  const list = trpc.social.connections.useQuery({ id: project.id });
  const [editing, setEditing] = useState<SocialProvider | null>(null);
  const [removing, setRemoving] = useState<Connection | null>(null);
  const byProvider = new Map(list.data?.connections.map((connection) => [connection.provider, connection]));

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="connections-heading">
      <Title order={3} fz="md" id="connections-heading">
        Connections
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Let your users sign in to the hosted pages with another service. Create an OAuth app at the provider with the callback URL shown here, then enter its client ID and
        secret.
      </Text>
      {list.isLoading ? (
        <Loader size="sm" aria-label="Loading connections" />
      ) : list.isError ? (
        <Text size="sm" c="red" role="alert">
          Could not load the connections.
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-label="Providers">
          {SOCIAL_PROVIDERS.map((provider) => (
            <ConnectionRow
              key={provider}
              provider={provider}
              connection={byProvider.get(provider) ?? null}
              onEdit={() => setEditing(provider)}
              onRemove={(connection) => setRemoving(connection)}
            />
          ))}
        </Stack>
      )}
      <EditConnectionModal project={project} provider={editing} connection={editing ? (byProvider.get(editing) ?? null) : null} onClose={() => setEditing(null)} />
      <RemoveConnectionModal project={project} connection={removing} onClose={() => setRemoving(null)} />
    </Card>
  );
}

function ConnectionRow({ provider, connection, onEdit, onRemove }: { provider: SocialProvider; connection: Connection | null; onEdit(): void; onRemove(connection: Connection): void }) {
  const title = TITLES[provider];
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={title}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ProviderIcon provider={provider} size={22} />
          <div style={{ minWidth: 0 }}>
            <Group gap={6}>
              <Text fw={600} size="sm">
                {title}
              </Text>
              {connection && (
                <Badge size="sm" variant="light" color={connection.enabled ? 'teal' : 'gray'}>
                  {connection.enabled ? 'Enabled' : 'Disabled'}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {connection ? `“Continue with ${connection.name}” · client ${connection.client_id}` : 'Not configured'}
            </Text>
          </div>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant={connection ? 'default' : 'light'} onClick={onEdit} aria-label={`${connection ? 'Edit' : 'Set up'} ${title}`}>
            {connection ? 'Edit' : 'Set up'}
          </Button>
          {connection && (
            <Tooltip label="Remove">
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${title}`} onClick={() => onRemove(connection)}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

function EditConnectionModal({ project, provider, connection, onClose }: { project: Project; provider: SocialProvider | null; connection: Connection | null; onClose(): void }) {
  const utils = trpc.useUtils();
  const save = trpc.social.saveConnection.useMutation();

  const onSave = async (values: ConnectionFormValues): Promise<string | null> => {
    if (!provider) return null;
    const github = provider === 'github';
    try {
      await save.mutateAsync({
        id: project.id,
        provider,
        client_id: values.client_id.trim(),
        // Empty keeps the stored secret.
        client_secret: values.client_secret.trim() || null,
        display_name: provider === 'oidc' ? values.display_name.trim() || null : null,
        issuer: github ? null : values.issuer.trim() || null,
        authorize_url: github ? values.authorize_url.trim() || null : null,
        token_url: github ? values.token_url.trim() || null : null,
        api_url: github ? values.api_url.trim() || null : null,
        enabled: values.enabled,
      });
      await utils.social.connections.invalidate({ id: project.id });
      notify.success(`${TITLES[provider]} connection saved`);
      onClose();
      return null;
    } catch (error) {
      const detail = errorMessage(error, '');
      if (errorCode(error) === 'UNPROCESSABLE_CONTENT' && fieldOfDetail(detail)) return detail;
      notifyFailure('Could not save the connection', error);
      return null;
    }
  };

  return (
    <Modal opened={provider !== null} onClose={onClose} title={provider ? `${connection ? 'Edit' : 'Set up'} ${TITLES[provider]}` : ''} centered size="lg">
      {provider && (
        <ConnectionForm
          key={`${provider}:${connection?.updated_at ?? 'new'}`}
          provider={provider}
          connection={connection}
          callbackUrl={connection?.callback_url ?? callbackUrlOf(project, provider)}
          saving={save.isPending}
          onSave={onSave}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

function RemoveConnectionModal({ project, connection, onClose }: { project: Project; connection: Connection | null; onClose(): void }) {
  const utils = trpc.useUtils();
  const remove = trpc.social.removeConnection.useMutation();
  const confirm = async () => {
    if (!connection) return;
    try {
      await remove.mutateAsync({ id: project.id, provider: connection.provider });
      await utils.social.connections.invalidate({ id: project.id });
      notify.success(SOCIAL_MESSAGES.connectionRemoved);
      onClose();
    } catch (error) {
      notifyFailure('Could not remove the connection', error);
    }
  };
  const name = connection ? SOCIAL_PROVIDER_NAMES[connection.provider] : '';
  return (
    <ConfirmModal opened={connection !== null} title="Remove connection" confirmLabel="Remove" pending={remove.isPending} onConfirm={() => void confirm()} onClose={onClose}>
      <Text size="sm">
        Your users will no longer be able to sign in with {connection?.name ?? name}. Accounts they made with it stay; they can sign in with a password or passkey they set.
      </Text>
    </ConfirmModal>
  );
}

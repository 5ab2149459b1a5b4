import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Code, Group, Loader, Menu, Modal, Paper, Stack, TagsInput, Text, TextInput, Title, Card } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconDots, IconKey, IconPencil, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MachineClient, MachineClientWithSecret } from '../../../shared/schemas/machine-clients';
import type { Project } from '../../../shared/schemas/projects';
import { ApiError } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { ConfirmModal } from '../ConfirmModal';
import { CopyField } from '../CopyField';
import { machineClientKeys, useMachineClientsApi, type MachineClientInput } from './machineClientsApi';
import { notifyFailure } from './states';

type Confirming = { kind: 'rotate' | 'revoke' | 'delete'; client: MachineClient };

/**
 * Backends, jobs and services that sign in as themselves (OAuth client credentials): their ids, the
 * scopes they may ask for, when they were last used; the secret shown once at creation and rotation.
 */
export function ProjectMachineClients({ project }: { project: Project }) {
  const api = useMachineClientsApi(project.id);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: machineClientKeys.list(project.id), queryFn: api.list, retry: false });
  const [editing, setEditing] = useState<MachineClient | 'new' | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [secret, setSecret] = useState<MachineClientWithSecret | null>(null);
  const readOnly = project.role === 'viewer';
  const refresh = () => queryClient.invalidateQueries({ queryKey: machineClientKeys.list(project.id) });

  const act = useMutation({
    mutationFn: async ({ kind, client }: Confirming) => {
      if (kind === 'rotate') return api.rotate(client.id);
      if (kind === 'revoke') return api.update(client.id, { revoked: true });
      return api.remove(client.id);
    },
  });
  const onConfirm = async () => {
    if (!confirming) return;
    try {
      const answer = await act.mutateAsync(confirming);
      await refresh();
      if (confirming.kind === 'rotate') setSecret(answer as MachineClientWithSecret);
      else notify.success(confirming.kind === 'revoke' ? 'Machine client revoked' : 'Machine client deleted');
      setConfirming(null);
    } catch (error) {
      notifyFailure('Could not change the machine client', error);
    }
  };

  const clients = list.data?.machine_clients ?? [];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="machine-clients-heading">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={3} fz="md" id="machine-clients-heading">
            Machine clients
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            Backends, jobs and services that call your API as themselves. Each gets a client id and secret for the OAuth client-credentials grant at{' '}
            <Code style={{ overflowWrap: 'anywhere' }}>{project.issuer}/oauth/token</Code>; its tokens name the client as subject and carry the scopes it asked for.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={readOnly || list.isLoading || list.isError}>
          Add machine client
        </Button>
      </Group>
      {readOnly && (
        <Alert variant="light" color="gray" mb="md">
          You are a viewer on this project: an admin or owner adds and changes machine clients.
        </Alert>
      )}
      {list.isLoading ? (
        <Loader size="sm" aria-label="Loading machine clients" />
      ) : list.isError ? (
        <Group gap="sm">
          <Text size="sm" c="red" role="alert">
            Could not load the machine clients.
          </Text>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Group>
      ) : clients.length === 0 ? (
        <Paper withBorder radius="md" p="md" style={{ borderStyle: 'dashed' }}>
          <Text size="sm" c="dimmed" ta="center">
            No machine clients yet. Add one for a backend or a scheduled job that needs its own access token.
          </Text>
        </Paper>
      ) : (
        <Stack gap="xs" role="list" aria-label="Machine clients">
          {clients.map((client) => (
            <ClientRow key={client.id} client={client} readOnly={readOnly} onEdit={() => setEditing(client)} onConfirm={(kind) => setConfirming({ kind, client })} />
          ))}
        </Stack>
      )}
      <EditClientModal projectId={project.id} editing={editing} onClose={() => setEditing(null)} onCreated={setSecret} />
      <ConfirmModal
        opened={confirming !== null}
        title={confirming?.kind === 'rotate' ? 'Rotate the secret' : confirming?.kind === 'revoke' ? 'Revoke machine client' : 'Delete machine client'}
        confirmLabel={confirming?.kind === 'rotate' ? 'Rotate' : confirming?.kind === 'revoke' ? 'Revoke' : 'Delete'}
        pending={act.isPending}
        onConfirm={() => void onConfirm()}
        onClose={() => setConfirming(null)}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {confirming?.kind === 'rotate'
            ? `The current secret of ${confirming.client.name} stops working at once. Put the new one in its configuration right away.`
            : confirming?.kind === 'revoke'
              ? `${confirming.client.name} can no longer get tokens, for good. Tokens it already has run out within the access-token lifetime.`
              : `${confirming?.client.name ?? ''} is removed and can no longer get tokens. Tokens it already has run out within the access-token lifetime.`}
        </Text>
      </ConfirmModal>
      <SecretModal
        issuer={project.issuer}
        created={secret}
        onClose={() => {
          setSecret(null);
          void refresh();
        }}
      />
    </Card>
  );
}

function ClientRow({ client, readOnly, onEdit, onConfirm }: { client: MachineClient; readOnly: boolean; onEdit(): void; onConfirm(kind: Confirming['kind']): void }) {
  const revoked = client.revoked_at !== null;
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={client.name}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {client.name}
            </Text>
            {revoked && (
              <Badge size="sm" color="red" variant="light">
                Revoked
              </Badge>
            )}
          </Group>
          <CopyField value={client.client_id} copyLabel={`Copy the client id of ${client.name}`} compact />
          <Group gap={6}>
            {client.scopes.length === 0 ? (
              <Text size="xs" c="dimmed">
                No scopes
              </Text>
            ) : (
              client.scopes.map((scope) => (
                <Badge key={scope} size="sm" variant="light" color="gray" tt="none" ff="monospace" fw={500}>
                  {scope}
                </Badge>
              ))
            )}
          </Group>
          <Text size="xs" c="dimmed">
            Secret …{client.secret_hint} · Added {formatDate(client.created_at)} · {client.last_used_at ? `Last used ${formatDate(client.last_used_at)}` : 'Never used'}
            {revoked ? ` · Revoked ${formatDate(client.revoked_at)}` : ''}
          </Text>
        </Stack>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${client.name}`} disabled={readOnly}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={14} />} onClick={onEdit} disabled={revoked}>
              Edit
            </Menu.Item>
            <Menu.Item leftSection={<IconRefresh size={14} />} onClick={() => onConfirm('rotate')} disabled={revoked}>
              Rotate secret
            </Menu.Item>
            <Menu.Item leftSection={<IconBan size={14} />} color="red" onClick={() => onConfirm('revoke')} disabled={revoked}>
              Revoke
            </Menu.Item>
            <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={() => onConfirm('delete')}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}

function EditClientModal({ projectId, editing, onClose, onCreated }: { projectId: string; editing: MachineClient | 'new' | null; onClose(): void; onCreated(created: MachineClientWithSecret): void }) {
  const client = editing === 'new' ? null : editing;
  return (
    <Modal opened={editing !== null} onClose={onClose} title={client ? 'Edit machine client' : 'Add machine client'} centered size="lg">
      {editing !== null && <ClientForm key={client?.updated_at ?? 'new'} projectId={projectId} client={client} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function ClientForm({ projectId, client, onClose, onCreated }: { projectId: string; client: MachineClient | null; onClose(): void; onCreated(created: MachineClientWithSecret): void }) {
  const api = useMachineClientsApi(projectId);
  const queryClient = useQueryClient();
  const [name, setName] = useState(client?.name ?? '');
  const [scopes, setScopes] = useState<string[]>(client?.scopes ?? []);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({ mutationFn: (input: MachineClientInput) => (client ? api.update(client.id, input) : api.create(input)) });

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const saved = await save.mutateAsync({ name: name.trim(), scopes });
      await queryClient.invalidateQueries({ queryKey: machineClientKeys.list(projectId) });
      onClose();
      if ('client_secret' in saved) onCreated(saved as MachineClientWithSecret);
      else notify.success('Machine client saved');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422) setError(failure.detail);
      else notifyFailure('Could not save the machine client', failure);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Name" description="What calls with it: a service, a job, a partner." value={name} onChange={(event) => setName(event.currentTarget.value)} required data-autofocus maxLength={100} />
        <TagsInput
          label="Allowed scopes"
          description="What its tokens may carry, such as invoices:read. A token request names some of them, or gets them all. Press Enter after each."
          value={scopes}
          onChange={setScopes}
          placeholder={scopes.length ? '' : 'invoices:read'}
          splitChars={[',', ' ']}
          clearable
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!name.trim()} leftSection={client ? undefined : <IconKey size={16} />}>
            {client ? 'Save' : 'Create client'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The secret, shown this once (at creation or rotation): like a new API key, only the explicit button closes it. */
function SecretModal({ issuer, created, onClose }: { issuer: string; created: MachineClientWithSecret | null; onClose(): void }) {
  const scope = created?.scopes.length ? ` \\\n  -d scope="${created.scopes.join(' ')}"` : '';
  return (
    <Modal opened={created !== null} onClose={onClose} title="Your machine client's secret" centered size="lg" closeOnClickOutside={false} closeOnEscape={false}>
      {created && (
        <Stack gap="md">
          <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} />} title="Shown only once">
            Copy the secret now and store it in the client&rsquo;s configuration (a secret manager, an environment variable). It will not be shown again: rotate it if it is lost.
          </Alert>
          <CopyField label="Client id" value={created.client_id} copyLabel="Copy client id" />
          <CopyField label="Client secret" value={created.client_secret} copyLabel="Copy client secret" wrap />
          <CopyField
            label="Get a token"
            value={`curl -s ${issuer}/oauth/token \\\n  -u "${created.client_id}:$CLIENT_SECRET" \\\n  -d grant_type=client_credentials${scope}`}
            copyLabel="Copy the curl command"
            wrap
          />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the secret</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Loader, Menu, Modal, Paper, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';
import { IconAlertTriangle, IconDots, IconList, IconPencil, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../shared/schemas/projects';
import type { Webhook } from '../../../shared/schemas/webhooks';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { ApiError } from '../../lib/api-client';
import { CopyField } from '../CopyField';
import { notifyFailure } from './states';
import { WebhookDeliveriesModal } from './WebhookDeliveries';
import { WebhookEventCatalogue } from './WebhookEventCatalogue';
import { WebhookForm, webhookFieldOfDetail, type WebhookFormValues } from './WebhookForm';
import { useWebhooksApi, webhookKeys, type WebhookInput } from './webhooksApi';

const inputOf = (values: WebhookFormValues): WebhookInput => ({
  url: values.url.trim(),
  description: values.description.trim() || null,
  event_types: values.event_types,
  enabled: values.enabled,
});

/** Where the project's events go: signed HTTP POSTs to the owner's endpoints, with their delivery log. */
export function ProjectWebhooks({ project }: { project: Project }) {
  const api = useWebhooksApi(project.id);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: webhookKeys.list(project.id), queryFn: api.list, retry: false });
  // null: closed; 'new': adding; a webhook: editing it.
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(project.id) });

  const toggle = useMutation({ mutationFn: (webhook: Webhook) => api.update(webhook.id, { enabled: !webhook.enabled }) });
  const onToggle = async (webhook: Webhook) => {
    try {
      const next = await toggle.mutateAsync(webhook);
      notify.success(next.enabled ? 'Webhook enabled' : 'Webhook disabled');
      await refresh();
    } catch (error) {
      notifyFailure('Could not save the webhook', error);
    }
  };

  const test = useMutation({ mutationFn: (webhook: Webhook) => api.sendTest(webhook.id) });
  const onTest = async (webhook: Webhook) => {
    try {
      await test.mutateAsync(webhook);
      notify.success('Test event sent');
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(project.id, webhook.id) });
    } catch (error) {
      notifyFailure('Could not send the test event', error);
    }
  };

  const webhooks = list.data?.webhooks ?? [];
  // A viewer reads the endpoints, their deliveries and the catalogue, and changes nothing.
  const readOnly = project.role === 'viewer';
  return (
    <Stack gap="lg">
      {readOnly && (
        <Alert variant="light" color="gray" title="Read-only access">
          You are a viewer on this project: you can read its webhooks and their deliveries, and an admin or owner changes them.
        </Alert>
      )}
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="webhooks-heading">
        <Group justify="space-between" align="flex-start" gap="sm" mb="md">
          <div style={{ flex: '1 1 260px' }}>
            <Title order={3} fz="md" id="webhooks-heading">
              Webhooks
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              Get an HTTP POST when something happens in this project. Each request is signed (Standard Webhooks) with the endpoint&rsquo;s secret and retried for about a day
              when it fails.
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} disabled={readOnly || list.isLoading || list.isError}>
            Add webhook
          </Button>
        </Group>
        {list.isLoading ? (
          <Loader size="sm" aria-label="Loading webhooks" />
        ) : list.isError ? (
          <Group gap="sm">
            <Text size="sm" c="red" role="alert">
              Could not load the webhooks.
            </Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </Group>
        ) : webhooks.length === 0 ? (
          <Paper withBorder radius="md" p="md" style={{ borderStyle: 'dashed' }}>
            <Text size="sm" c="dimmed" ta="center">
              No webhooks yet. Add an endpoint to receive events such as <code>user.created</code>.
            </Text>
          </Paper>
        ) : (
          <Stack gap="xs" role="list" aria-label="Webhook endpoints">
            {webhooks.map((webhook) => (
              <WebhookRow
                key={webhook.id}
                webhook={webhook}
                readOnly={readOnly}
                toggling={toggle.isPending && toggle.variables?.id === webhook.id}
                testing={test.isPending && test.variables?.id === webhook.id}
                onToggle={() => void onToggle(webhook)}
                onTest={() => void onTest(webhook)}
                onDeliveries={() => setViewing(webhook)}
                onEdit={() => setEditing(webhook)}
                onRemove={() => setRemoving(webhook)}
              />
            ))}
          </Stack>
        )}
        <EditWebhookModal projectId={project.id} editing={editing} onClose={() => setEditing(null)} onCreated={setCreated} />
        <RemoveWebhookModal projectId={project.id} webhook={removing} onClose={() => setRemoving(null)} />
        <WebhookDeliveriesModal projectId={project.id} webhook={viewing} canResend={!readOnly} onClose={() => setViewing(null)} />
        <WebhookSecretModal created={created} onClose={() => setCreated(null)} />
      </Card>
      <WebhookEventCatalogue />
    </Stack>
  );
}

interface WebhookRowProps {
  webhook: Webhook;
  readOnly: boolean;
  toggling: boolean;
  testing: boolean;
  onToggle(): void;
  onTest(): void;
  onDeliveries(): void;
  onEdit(): void;
  onRemove(): void;
}

function WebhookRow({ webhook, readOnly, toggling, testing, onToggle, onTest, onDeliveries, onEdit, onRemove }: WebhookRowProps) {
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" aria-label={webhook.url}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {webhook.url}
            </Text>
            <Text size="xs" c="dimmed">
              {webhook.description ? `${webhook.description} · ` : ''}Added {formatDate(webhook.created_at)}
            </Text>
          </div>
          <Group gap={4} wrap="nowrap">
            <Switch
              size="sm"
              checked={webhook.enabled}
              onChange={onToggle}
              disabled={readOnly || toggling}
              aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.url}`}
              label={webhook.enabled ? 'On' : 'Off'}
              labelPosition="left"
            />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${webhook.url}`} disabled={readOnly}>
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPencil size={14} />} onClick={onEdit}>
                  Edit
                </Menu.Item>
                <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={onRemove}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Group gap={6}>
          {webhook.event_types.map((type) => (
            <Badge key={type} size="sm" variant="light" color="gray" tt="none" ff="monospace" fw={500}>
              {type}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Tooltip label="Turn the webhook on to send it a test event" disabled={webhook.enabled}>
            {/* A disabled button gets no pointer events: the wrapper shows the tooltip. */}
            <span>
              <Button size="xs" variant="light" leftSection={<IconSend size={14} />} onClick={onTest} loading={testing} disabled={readOnly || !webhook.enabled}>
                Send test event
              </Button>
            </span>
          </Tooltip>
          <Button size="xs" variant="default" leftSection={<IconList size={14} />} onClick={onDeliveries}>
            Deliveries
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function EditWebhookModal({
  projectId,
  editing,
  onClose,
  onCreated,
}: {
  projectId: string;
  editing: Webhook | 'new' | null;
  onClose(): void;
  onCreated(created: { secret: string; url: string }): void;
}) {
  const api = useWebhooksApi(projectId);
  const queryClient = useQueryClient();
  const webhook = editing === 'new' ? null : editing;
  const save = useMutation({
    mutationFn: (values: WebhookFormValues): Promise<Webhook & { secret?: string }> => (webhook ? api.update(webhook.id, inputOf(values)) : api.create(inputOf(values))),
  });

  const onSave = async (values: WebhookFormValues): Promise<string | null> => {
    try {
      const saved = await save.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectId) });
      notify.success(webhook ? 'Webhook saved' : 'Webhook added');
      onClose();
      if (saved.secret) onCreated({ secret: saved.secret, url: saved.url });
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && webhookFieldOfDetail(error.detail)) return error.detail;
      notifyFailure('Could not save the webhook', error);
      return null;
    }
  };

  return (
    <Modal opened={editing !== null} onClose={onClose} title={webhook ? 'Edit webhook' : 'Add webhook'} centered size="lg">
      {editing !== null && <WebhookForm key={webhook?.updated_at ?? 'new'} webhook={webhook} saving={save.isPending} onSave={onSave} onCancel={onClose} />}
    </Modal>
  );
}

function RemoveWebhookModal({ projectId, webhook, onClose }: { projectId: string; webhook: Webhook | null; onClose(): void }) {
  const api = useWebhooksApi(projectId);
  const queryClient = useQueryClient();
  const remove = useMutation({ mutationFn: (id: string) => api.remove(id) });
  const confirm = async () => {
    if (!webhook) return;
    try {
      await remove.mutateAsync(webhook.id);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectId) });
      notify.success('Webhook deleted');
      onClose();
    } catch (error) {
      notifyFailure('Could not delete the webhook', error);
    }
  };
  return (
    <ConfirmModal opened={webhook !== null} title="Delete webhook" confirmLabel="Delete" pending={remove.isPending} onConfirm={() => void confirm()} onClose={onClose}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Events will no longer be sent to <b>{webhook?.url}</b>, and its delivery log is deleted with it.
      </Text>
    </ConfirmModal>
  );
}

/** The signing secret, shown this once: like a new API key, only the explicit button closes it. */
function WebhookSecretModal({ created, onClose }: { created: { secret: string; url: string } | null; onClose(): void }) {
  return (
    <Modal opened={created !== null} onClose={onClose} title="Your webhook signing secret" centered size="lg" closeOnClickOutside={false} closeOnEscape={false}>
      {created && (
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Events to <b>{created.url}</b> are signed with this secret. Verify the <code>webhook-signature</code> header with any Standard Webhooks library.
          </Text>
          <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} />} title="Shown only once">
            Copy this secret now and store it somewhere safe. It will not be shown again.
          </Alert>
          <CopyField label="Signing secret" value={created.secret} copyLabel="Copy signing secret" wrap />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the secret</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

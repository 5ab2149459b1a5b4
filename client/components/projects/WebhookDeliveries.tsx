import { useState } from 'react';
import { Badge, Button, Group, Loader, Modal, Pagination, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WEBHOOK_DELIVERY_ERRORS, type Webhook, type WebhookDelivery } from '../../../shared/schemas/webhooks';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { notifyFailure } from './states';
import { useWebhooksApi, webhookKeys } from './webhooksApi';

export const DELIVERIES_PER_PAGE = 10;

const STATUS: Record<WebhookDelivery['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  succeeded: { label: 'Succeeded', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

/** One endpoint's deliveries, newest first: when, what, how it went, and a resend. */
export function WebhookDeliveriesModal({ projectId, webhook, onClose }: { projectId: string; webhook: Webhook | null; onClose(): void }) {
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Deliveries" centered size="56rem">
      {webhook && <DeliveriesTable key={webhook.id} projectId={projectId} webhook={webhook} />}
    </Modal>
  );
}

function DeliveriesTable({ projectId, webhook }: { projectId: string; webhook: Webhook }) {
  const api = useWebhooksApi(projectId);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: [...webhookKeys.deliveries(projectId, webhook.id), page],
    queryFn: () => api.deliveries(webhook.id, page, DELIVERIES_PER_PAGE),
    placeholderData: keepPreviousData,
    // While a delivery is still on its way, look again now and then.
    refetchInterval: (query) => (query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 1500 : false),
  });
  const resend = useMutation({ mutationFn: (deliveryId: string) => api.resend(webhook.id, deliveryId) });

  const onResend = async (delivery: WebhookDelivery) => {
    try {
      await resend.mutateAsync(delivery.id);
      notify.success('Event queued to be sent again');
      setPage(1);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId, webhook.id) });
    } catch (error) {
      notifyFailure('Could not resend the event', error);
    }
  };

  const data = deliveries.data;
  // A phone gets one card per delivery rather than a table to scroll sideways.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const pages = data ? Math.max(1, Math.ceil(data.total / DELIVERIES_PER_PAGE)) : 1;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm" c="dimmed" truncate style={{ minWidth: 0 }}>
          {webhook.url}
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void deliveries.refetch()}
          loading={deliveries.isFetching && !deliveries.isLoading}
          style={{ flexShrink: 0 }}
        >
          Refresh
        </Button>
      </Group>
      {deliveries.isLoading ? (
        <Loader size="sm" aria-label="Loading deliveries" />
      ) : deliveries.isError ? (
        <Text size="sm" c="red" role="alert">
          Could not load the deliveries.
        </Text>
      ) : !data || data.deliveries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No deliveries yet. Send a test event to see one here.
        </Text>
      ) : (
        <>
          {narrow ? (
            <Stack gap="xs" role="list" aria-label="Deliveries">
              {data.deliveries.map((delivery) => (
                <DeliveryCard key={delivery.id} delivery={delivery} resending={resend.isPending && resend.variables === delivery.id} onResend={() => void onResend(delivery)} />
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={820}>
              <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label="Deliveries">
                <Table.Thead style={{ whiteSpace: 'nowrap' }}>
                  <Table.Tr>
                    <Table.Th>Time</Table.Th>
                    <Table.Th>Event</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Attempts</Table.Th>
                    <Table.Th>Last answer</Table.Th>
                    <Table.Th>Next attempt</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.deliveries.map((delivery) => (
                    <DeliveryRow key={delivery.id} delivery={delivery} resending={resend.isPending && resend.variables === delivery.id} onResend={() => void onResend(delivery)} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Deliveries pages" />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function DeliveryRow({ delivery, resending, onResend }: { delivery: WebhookDelivery; resending: boolean; onResend(): void }) {
  const status = STATUS[delivery.status];
  const answer = answerOf(delivery);
  const resendLabel = `Resend ${delivery.event_type} from ${formatDateTime(delivery.created_at)}`;
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(delivery.created_at)}</Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {delivery.event_type}
        </Text>
      </Table.Td>
      <Table.Td style={{ minWidth: 104 }}>
        <Badge size="sm" variant="light" color={status.color} styles={{ label: { overflow: 'visible' } }}>
          {status.label}
        </Badge>
      </Table.Td>
      <Table.Td>{delivery.attempts}</Table.Td>
      <Table.Td style={{ minWidth: 120, maxWidth: 240 }}>
        {answer ? (
          <Tooltip label={answer} multiline maw={320} disabled={answer.length < 40}>
            <Text size="sm" lineClamp={2} c={delivery.status === 'failed' ? 'red' : undefined}>
              {answer}
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{delivery.status === 'pending' ? formatDateTime(delivery.next_attempt_at, '—') : '—'}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} onClick={onResend} loading={resending} aria-label={resendLabel}>
          Resend
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** The last answer: its HTTP status, or what kept it from coming (a known category only: the server never sends more). */
function answerOf(delivery: WebhookDelivery): string {
  const status = delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : null;
  const error = delivery.last_error && delivery.last_error !== 'http_status' && Object.hasOwn(WEBHOOK_DELIVERY_ERRORS, delivery.last_error) ? WEBHOOK_DELIVERY_ERRORS[delivery.last_error] : null;
  return [status, error].filter(Boolean).join(' · ');
}

/** A delivery on a narrow screen: the same facts as a table row, stacked. */
function DeliveryCard({ delivery, resending, onResend }: { delivery: WebhookDelivery; resending: boolean; onResend(): void }) {
  const status = STATUS[delivery.status];
  const answer = answerOf(delivery);
  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-label={`${delivery.event_type} ${status.label}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" ff="monospace" truncate>
          {delivery.event_type}
        </Text>
        <Badge size="sm" variant="light" color={status.color} style={{ flexShrink: 0 }} styles={{ label: { overflow: 'visible' } }}>
          {status.label}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        {formatDateTime(delivery.created_at)} · {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        {delivery.status === 'pending' && delivery.next_attempt_at ? ` · next ${formatDateTime(delivery.next_attempt_at)}` : ''}
      </Text>
      {answer && (
        <Text size="xs" mt={2} c={delivery.status === 'failed' ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
          {answer}
        </Text>
      )}
      <Group justify="flex-end" mt={4}>
        <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} onClick={onResend} loading={resending} aria-label={`Resend ${delivery.event_type} from ${formatDateTime(delivery.created_at)}`}>
          Resend
        </Button>
      </Group>
    </Paper>
  );
}

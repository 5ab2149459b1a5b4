import { useState } from 'react';
import { Anchor, Badge, Button, Group, Loader, Modal, Pagination, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WEBHOOK_DELIVERY_ERRORS, type Webhook, type WebhookDelivery } from '../../../shared/schemas/webhooks';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { notifyFailure } from './states';
import { DELIVERY_STATUS, WebhookDeliveryDetailView } from './WebhookDeliveryDetail';
import { useWebhooksApi, webhookKeys } from './webhooksApi';

export const DELIVERIES_PER_PAGE = 10;

/**
 * One endpoint's deliveries, newest first: when, what, how it went, and a resend; a delivery opens in
 * place to show its request and answer. A viewer reads them and resends nothing.
 */
export function WebhookDeliveriesModal({ projectId, webhook, canResend, onClose }: { projectId: string; webhook: Webhook | null; canResend: boolean; onClose(): void }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const close = () => {
    setOpenId(null);
    onClose();
  };
  return (
    <Modal opened={webhook !== null} onClose={close} title={openId ? 'Delivery' : 'Deliveries'} centered size="56rem" closeButtonProps={{ 'aria-label': 'Close' }}>
      {webhook && <Deliveries key={webhook.id} projectId={projectId} webhook={webhook} canResend={canResend} openId={openId} onOpen={setOpenId} />}
    </Modal>
  );
}

function Deliveries({ projectId, webhook, canResend, openId, onOpen }: { projectId: string; webhook: Webhook; canResend: boolean; openId: string | null; onOpen(id: string | null): void }) {
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

  const onResend = async (deliveryId: string) => {
    try {
      const resent = await resend.mutateAsync(deliveryId);
      notify.success('Event queued to be sent again');
      setPage(1);
      // From a delivery's page, the new delivery opens in its place.
      if (openId) onOpen(resent.id);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId, webhook.id) });
    } catch (error) {
      notifyFailure('Could not resend the event', error);
    }
  };

  const data = deliveries.data;
  // Below a tablet's width, one card per delivery rather than a table to scroll sideways.
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const pages = data ? Math.max(1, Math.ceil(data.total / DELIVERIES_PER_PAGE)) : 1;

  if (openId) {
    return (
      <WebhookDeliveryDetailView
        key={openId}
        projectId={projectId}
        webhook={webhook}
        deliveryId={openId}
        canResend={canResend}
        resending={resend.isPending}
        onResend={() => void onResend(openId)}
        onBack={() => onOpen(null)}
      />
    );
  }
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
                <DeliveryCard
                  key={delivery.id}
                  delivery={delivery}
                  canResend={canResend}
                  resending={resend.isPending && resend.variables === delivery.id}
                  onOpen={() => onOpen(delivery.id)}
                  onResend={() => void onResend(delivery.id)}
                />
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={680}>
              <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label="Deliveries">
                <Table.Thead style={{ whiteSpace: 'nowrap' }}>
                  <Table.Tr>
                    <Table.Th>Time</Table.Th>
                    <Table.Th>Event</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Attempts</Table.Th>
                    <Table.Th>Last answer</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.deliveries.map((delivery) => (
                    <DeliveryRow
                      key={delivery.id}
                      delivery={delivery}
                      canResend={canResend}
                      resending={resend.isPending && resend.variables === delivery.id}
                      onOpen={() => onOpen(delivery.id)}
                      onResend={() => void onResend(delivery.id)}
                    />
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

interface DeliveryProps {
  delivery: WebhookDelivery;
  canResend: boolean;
  resending: boolean;
  onOpen(): void;
  onResend(): void;
}

const labelOf = (delivery: WebhookDelivery) => `${delivery.event_type} from ${formatDateTime(delivery.created_at)}`;

/** The event's name, as the link that opens the delivery. */
function OpenLink({ delivery, onOpen, truncate }: { delivery: WebhookDelivery; onOpen(): void; truncate?: boolean }) {
  return (
    <Anchor component="button" type="button" size="sm" ff="monospace" ta="left" onClick={onOpen} aria-label={`Open ${labelOf(delivery)}`} truncate={truncate} maw="100%">
      {delivery.event_type}
    </Anchor>
  );
}

function DeliveryRow({ delivery, canResend, resending, onOpen, onResend }: DeliveryProps) {
  const status = DELIVERY_STATUS[delivery.status];
  const answer = answerOf(delivery);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(delivery.created_at)}</Table.Td>
      <Table.Td>
        <OpenLink delivery={delivery} onOpen={onOpen} />
      </Table.Td>
      <Table.Td style={{ minWidth: 104 }}>
        <Badge size="sm" variant="light" color={status.color} styles={{ label: { overflow: 'visible' } }}>
          {status.label}
        </Badge>
        {delivery.status === 'pending' && delivery.next_attempt_at && (
          <Text size="xs" c="dimmed" mt={2}>
            Next: {formatDateTime(delivery.next_attempt_at)}
          </Text>
        )}
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
      <Table.Td>
        {canResend && (
          <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} onClick={onResend} loading={resending} aria-label={`Resend ${labelOf(delivery)}`}>
            Resend
          </Button>
        )}
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
function DeliveryCard({ delivery, canResend, resending, onOpen, onResend }: DeliveryProps) {
  const status = DELIVERY_STATUS[delivery.status];
  const answer = answerOf(delivery);
  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-label={`${delivery.event_type} ${status.label}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <OpenLink delivery={delivery} onOpen={onOpen} truncate />
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
        <Button size="xs" variant="subtle" onClick={onOpen} aria-label={`Details of ${labelOf(delivery)}`}>
          Details
        </Button>
        {canResend && (
          <Button size="xs" variant="subtle" leftSection={<IconSend size={14} />} onClick={onResend} loading={resending} aria-label={`Resend ${labelOf(delivery)}`}>
            Resend
          </Button>
        )}
      </Group>
    </Paper>
  );
}

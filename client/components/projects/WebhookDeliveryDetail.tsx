import { Alert, Badge, Button, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { WEBHOOK_DELIVERY_ERRORS, type Webhook, type WebhookDeliveryDetail, type WebhookHeader } from '../../../shared/schemas/webhooks';
import { formatDateTime } from '../../lib/format';
import { useWebhooksApi, webhookKeys } from './webhooksApi';

const REQUEST_NOT_RECORDED = 'Not recorded (this delivery was sent before requests were kept).';
/** Answers are not kept for deliveries from before, nor from a private address the server may not show. */
const ANSWER_NOT_RECORDED = 'Not recorded (a delivery from before answers were kept, or an answer from a private address).';

/**
 * One delivery: the request its last attempt sent (headers and the JSON body, pretty-printed) and the
 * answer (status, headers, the first 4 KB of its body). The body is the receiver's: shown as text only.
 */
export function WebhookDeliveryDetailView({
  projectId,
  webhook,
  deliveryId,
  canResend,
  resending,
  onResend,
  onBack,
}: {
  projectId: string;
  webhook: Webhook;
  deliveryId: string;
  canResend: boolean;
  resending: boolean;
  onResend(): void;
  onBack(): void;
}) {
  const api = useWebhooksApi(projectId);
  const detail = useQuery({
    queryKey: webhookKeys.delivery(projectId, webhook.id, deliveryId),
    queryFn: () => api.delivery(webhook.id, deliveryId),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1500 : false),
  });
  const delivery = detail.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Button size="xs" variant="subtle" leftSection={<IconArrowLeft size={14} />} onClick={onBack}>
          All deliveries
        </Button>
        {canResend && delivery && (
          <Button size="xs" variant="light" leftSection={<IconSend size={14} />} onClick={onResend} loading={resending}>
            Resend
          </Button>
        )}
      </Group>
      {detail.isLoading ? (
        <Loader size="sm" aria-label="Loading the delivery" />
      ) : detail.isError || !delivery ? (
        <Text size="sm" c="red" role="alert">
          Could not load the delivery.
        </Text>
      ) : (
        <>
          <Summary delivery={delivery} />
          <RequestPart delivery={delivery} />
          <ResponsePart delivery={delivery} />
        </>
      )}
    </Stack>
  );
}

export const DELIVERY_STATUS: Record<WebhookDeliveryDetail['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  succeeded: { label: 'Succeeded', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

function Summary({ delivery }: { delivery: WebhookDeliveryDetail }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" ff="monospace" fw={600}>
        {delivery.event_type}
      </Text>
      <Badge size="sm" variant="light" color={DELIVERY_STATUS[delivery.status].color} styles={{ label: { overflow: 'visible' } }}>
        {DELIVERY_STATUS[delivery.status].label}
      </Badge>
      <Text size="xs" c="dimmed">
        Created {formatDateTime(delivery.created_at)} · {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        {delivery.last_attempt_at ? ` · last ${formatDateTime(delivery.last_attempt_at)}` : ''}
        {delivery.status === 'pending' && delivery.next_attempt_at ? ` · next ${formatDateTime(delivery.next_attempt_at)}` : ''}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        webhook-id {delivery.event_id}
      </Text>
    </Group>
  );
}

function RequestPart({ delivery }: { delivery: WebhookDeliveryDetail }) {
  const headers = delivery.request.headers;
  const unsent =
    delivery.attempts === 0 ? 'Not sent yet.' : delivery.last_error === 'endpoint_disabled' ? 'Not sent: the endpoint is disabled.' : headers === null ? REQUEST_NOT_RECORDED : null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="delivery-request">
      <Title order={4} fz="sm" id="delivery-request">
        Request
      </Title>
      <Caption>Headers</Caption>
      {unsent ? <Muted>{unsent}</Muted> : <HeadersTable label="Request headers" headers={headers!} />}
      <Caption>Body</Caption>
      <TextBlock label="Request body" text={prettyJson(delivery.request.body)} />
    </Stack>
  );
}

function ResponsePart({ delivery }: { delivery: WebhookDeliveryDetail }) {
  const response = delivery.response;
  const failure = delivery.last_error && delivery.last_error !== 'http_status' ? WEBHOOK_DELIVERY_ERRORS[delivery.last_error] : null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="delivery-response">
      <Title order={4} fz="sm" id="delivery-response">
        Response
      </Title>
      {response === null ? (
        <Muted>{delivery.attempts === 0 || delivery.last_error === 'endpoint_disabled' ? 'None yet.' : `No answer${failure ? `: ${failure}` : ''}.`}</Muted>
      ) : (
        <>
          <Group gap="xs">
            <Badge variant="light" color={response.status_code >= 200 && response.status_code < 300 ? 'teal' : 'red'} styles={{ label: { overflow: 'visible' } }}>
              HTTP {response.status_code}
            </Badge>
          </Group>
          <Caption>Headers</Caption>
          {response.headers === null ? <Muted>{ANSWER_NOT_RECORDED}</Muted> : <HeadersTable label="Response headers" headers={response.headers} />}
          <Caption>Body</Caption>
          {response.body === null ? (
            <Muted>{ANSWER_NOT_RECORDED}</Muted>
          ) : response.body === '' ? (
            <Muted>The body was empty.</Muted>
          ) : (
            <>
              <TextBlock label="Response body" text={response.body} />
              {response.body_truncated && (
                <Alert variant="light" color="gray" p="xs">
                  <Text size="xs">Only the first 4 KB of the body is kept.</Text>
                </Alert>
              )}
            </>
          )}
        </>
      )}
    </Stack>
  );
}

function HeadersTable({ label, headers }: { label: string; headers: WebhookHeader[] }) {
  if (headers.length === 0) return <Muted>No headers.</Muted>;
  return (
    <Table fz="xs" verticalSpacing={4} withRowBorders={false} aria-label={label} style={{ tableLayout: 'fixed' }}>
      <Table.Tbody>
        {headers.map((header, index) => (
          <Table.Tr key={`${header.name}-${index}`}>
            <Table.Th scope="row" w="38%" ff="monospace" fw={500} style={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
              {header.name}
            </Table.Th>
            <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {header.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Text in a scrolling block; React writes it as text, so a receiver's HTML is never markup here. */
function TextBlock({ label, text }: { label: string; text: string }) {
  return (
    <Code block aria-label={label} tabIndex={0} fz="xs" style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Code>
  );
}

function Caption({ children }: { children: React.ReactNode }) {
  return (
    <Text size="xs" fw={600} c="dimmed" tt="uppercase" mt={4}>
      {children}
    </Text>
  );
}

function Muted({ children }: { children: React.ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

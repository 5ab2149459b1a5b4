import type { WebhookEventType } from '../../../shared/schemas/webhooks.js';
import type { PreparedUnit } from '../../db/prepared-transaction.js';
import type { Deps } from '../../deps.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { insertEventWithDeliveries, insertEventWithDeliveriesIn, listEnabledEndpointsIn, listEndpoints } from './webhooks.repo.js';

/**
 * Writes a project's event to the outbox, with a pending delivery for each enabled endpoint subscribed
 * to its type. Pass the unit of work's deps (`tx`): the event then commits with the change that caused
 * it, or not at all, and the dispatcher delivers it at least once, even after a crash.
 */
export async function emitWebhookEvent(deps: Pick<Deps, 'db' | 'clock'>, projectId: string, type: WebhookEventType, data: Record<string, unknown>, only?: { endpointId: string }): Promise<string | null> {
  const endpoints = (await listEndpoints(deps.db, projectId)).filter(
    (endpoint) => endpoint.enabled === 1 && (only ? endpoint.id === only.endpointId : subscribed(endpoint, type)),
  );
  if (endpoints.length === 0) return null;
  const now = isoNow(deps.clock);
  const id = newEventId();
  await insertEventWithDeliveries(
    deps.db,
    { id, project_id: projectId, type, payload: JSON.stringify({ type, timestamp: now, data }), created_at: now },
    endpoints.map((endpoint) => ({ id: newId(), event_id: id, endpoint_id: endpoint.id, status: 'pending' as const, next_attempt_at: now, created_at: now })),
  );
  return id;
}

/** emitWebhookEvent inside a prepared transaction (the refresh's, whose reuse detection revokes a session). */
export async function emitWebhookEventIn(unit: PreparedUnit, now: string, projectId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
  const endpoints = (await listEnabledEndpointsIn(unit, projectId)).filter((endpoint) => subscribed(endpoint, type));
  if (endpoints.length === 0) return;
  const payload = JSON.stringify({ type, timestamp: now, data });
  await insertEventWithDeliveriesIn(unit, { id: newEventId(), projectId, type, payload, now }, endpoints.map((endpoint) => endpoint.id), newId);
}

const subscribed = (endpoint: { event_types: string }, type: WebhookEventType) => (JSON.parse(endpoint.event_types) as string[]).includes(type);
/** The event's id, sent as `webhook-id`: the same on every attempt and resend, so receivers can drop repeats. */
const newEventId = () => `msg_${newId().replace(/-/g, '')}`;

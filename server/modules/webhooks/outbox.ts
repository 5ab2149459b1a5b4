import type { WebhookEventData } from '../../../shared/schemas/webhook-events.js';
import type { WebhookEventType } from '../../../shared/schemas/webhooks.js';
import type { Db } from '../../db/connect.js';
import { unitOf, type Statements } from '../../db/unit-of-work.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { insertEventWithDeliveries, listEnabledEndpoints } from './webhooks.repo.js';

/**
 * Where an event is written: a service's unit of work (withTransaction's `tx`, or deps outside one),
 * or a prepared transaction's unit (the refresh's) with the clock.
 */
export type EventWriter = { db: Db; clock: Clock } | { unit: Statements; clock: Clock };

/**
 * Writes a project's event to the outbox, with a pending delivery for each enabled endpoint subscribed
 * to its type (or only `only`). Pass the unit of work (`tx`): the event then commits with the change
 * that caused it, or not at all, and the dispatcher delivers it at least once, even after a crash.
 * `data` is of the type's schema in the event catalogue (shared/schemas/webhook-events.ts).
 * Answers the event's id, or null when no endpoint takes it.
 */
export async function emitWebhookEvent<T extends WebhookEventType>(tx: EventWriter, projectId: string, type: T, data: WebhookEventData<T>, only?: { endpointId: string }): Promise<string | null> {
  const on = 'db' in tx ? unitOf(tx.db) : tx.unit;
  const endpoints = (await listEnabledEndpoints(on, projectId)).filter((endpoint) => (only ? endpoint.id === only.endpointId : subscribed(endpoint, type)));
  if (endpoints.length === 0) return null;
  const now = isoNow(tx.clock);
  const id = newEventId();
  const payload = JSON.stringify({ type, timestamp: now, data });
  await insertEventWithDeliveries(on, { id, projectId, type, payload, now }, endpoints.map((endpoint) => endpoint.id), newId);
  return id;
}

const subscribed = (endpoint: { event_types: string }, type: WebhookEventType) => (JSON.parse(endpoint.event_types) as string[]).includes(type);
/** The event's id, sent as `webhook-id`: the same on every attempt and resend, so receivers can drop repeats. */
const newEventId = () => `msg_${newId().replace(/-/g, '')}`;

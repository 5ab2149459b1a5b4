import type { WebhookEventData } from '../../../shared/schemas/webhook-events.js';
import type { WebhookEventType } from '../../../shared/schemas/webhooks.js';
import type { Statements, Unit } from '../../db/unit-of-work.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { insertEventWithDeliveries, listEnabledEndpoints } from './changes.repo.js';

/**
 * Where an event is written: the unit of work of the change that caused it, a service's (withTransaction's
 * `tx`) or a prepared transaction's (the refresh's `{ unit, clock }`). Plain deps have no unit: an event
 * is never written outside one.
 */
export type EventWriter = { unit: Unit; clock: Clock };

/** An event of the catalogue (shared/schemas/webhook-events.ts): its type, and data of that type's schema. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; data: WebhookEventData<T> } }[WebhookEventType];

/**
 * Writes a project's event to the outbox, with a pending delivery for each enabled endpoint subscribed
 * to its type (or only `only`), in the unit of work of `tx`: the event commits with the change that
 * caused it, or not at all, and the dispatcher delivers it at least once, even after a crash.
 * Answers the event's id, or null when no endpoint takes it.
 */
export async function emitWebhookEvent<T extends WebhookEventType>(tx: EventWriter, projectId: string, type: T, data: WebhookEventData<T>, only?: { endpointId: string }): Promise<string | null> {
  const endpoints = (await listEnabledEndpoints(tx.unit, projectId)).filter((endpoint) => (only ? endpoint.id === only.endpointId : subscribed(endpoint, type)));
  if (endpoints.length === 0) return null;
  const now = isoNow(tx.clock);
  const id = newEventId();
  const payload = JSON.stringify({ type, timestamp: now, data });
  await insertEventWithDeliveries(tx.unit, { id, projectId, type, payload, now }, endpoints.map((endpoint) => endpoint.id), newId);
  return id;
}

/** Whether an enabled endpoint of the project takes events of `type` (a bulk write skips building events nobody takes). */
export async function anyEndpointTakes(on: Statements, projectId: string, type: WebhookEventType): Promise<boolean> {
  return (await listEnabledEndpoints(on, projectId)).some((endpoint) => subscribed(endpoint, type));
}

const subscribed = (endpoint: { event_types: string }, type: WebhookEventType) => (JSON.parse(endpoint.event_types) as string[]).includes(type);
/** The event's id, sent as `webhook-id`: the same on every attempt and resend, so receivers can drop repeats. */
const newEventId = () => `msg_${newId().replace(/-/g, '')}`;

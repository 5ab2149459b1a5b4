import type { Insertable, Updateable } from 'kysely';
import type { PageQuery } from '../../../shared/schemas/admin.js';
import type { Db } from '../../db/connect.js';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.js';

export async function listEndpoints(db: Db, projectId: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function findEndpoint(db: Db, projectId: string, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function insertEndpoint(db: Db, endpoint: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(endpoint).execute();
}

export async function updateEndpoint(db: Db, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteEndpoint(db: Db, projectId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function insertDelivery(db: Db, delivery: Insertable<WebhookDeliveriesTable>): Promise<void> {
  await db.insertInto('webhook_deliveries').values(delivery).execute();
}

export async function findDeliveryContext(db: Db, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.attempts',
      'webhook_events.id as event_id',
      'webhook_events.payload',
      'webhook_events.created_at as event_created_at',
      'webhook_endpoints.url',
      'webhook_endpoints.secret',
      'webhook_endpoints.enabled',
    ])
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
}

export async function recordAttempt(db: Db, id: string, outcome: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(outcome).where('id', '=', id).execute();
}

export async function listDeliveries(db: Db, endpointId: string, q: PageQuery) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .selectAll('webhook_deliveries')
      .select('webhook_events.type as event_type')
      .where('webhook_deliveries.endpoint_id', '=', endpointId)
      .orderBy('webhook_deliveries.created_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page)
      .execute(),
    db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** One delivery of the endpoint, with its event's type. */
function deliveryQuery(db: Db, endpointId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('webhook_events.type as event_type')
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .where('webhook_deliveries.id', '=', id);
}

export async function findDelivery(db: Db, endpointId: string, id: string) {
  return deliveryQuery(db, endpointId, id).executeTakeFirst();
}

/** A delivery with its event's body (as sent), for its detail. */
export async function findDeliveryWithPayload(db: Db, endpointId: string, id: string) {
  return deliveryQuery(db, endpointId, id).select('webhook_events.payload').executeTakeFirst();
}

/** Events older than `before` with no delivery still pending go, with their deliveries (foreign key). */
export async function deleteSettledEventsBefore(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_deliveries').select('id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id').where('status', '=', 'pending'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { prepareStatement } from '../../db/prepared-statement.js';
import type { Statements } from '../../db/unit-of-work.js';
import type { AuditLogTable } from '../../db/schema.js';

/** The writes of a change's records, in its unit of work: its audit entry, and its webhook event with the deliveries. */

export async function insertAuditEntry(db: Db, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

const enabledEndpointsOf = prepareStatement((db: Db, projectId: string) =>
  db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('project_id', '=', projectId).where('enabled', '=', 1).orderBy('created_at').orderBy('id'),
);
const insertEventStatement = prepareStatement((db: Db, id: string, projectId: string, type: string, payload: string, now: string) =>
  db.insertInto('webhook_events').values({ id, project_id: projectId, type, payload, created_at: now }),
);
const insertPendingDelivery = prepareStatement((db: Db, id: string, eventId: string, endpointId: string, now: string) =>
  db.insertInto('webhook_deliveries').values({ id, event_id: eventId, endpoint_id: endpointId, status: 'pending', next_attempt_at: now, created_at: now }),
);

/** The project's enabled endpoints, oldest first. */
export function listEnabledEndpoints(on: Statements, projectId: string) {
  return on.all(enabledEndpointsOf, projectId);
}

/** The outbox: the event and one pending delivery per endpoint, in the caller's unit of work. */
export async function insertEventWithDeliveries(on: Statements, event: { id: string; projectId: string; type: string; payload: string; now: string }, endpointIds: string[], newDeliveryId: () => string): Promise<void> {
  await on.run(insertEventStatement, event.id, event.projectId, event.type, event.payload, event.now);
  for (const endpointId of endpointIds) await on.run(insertPendingDelivery, newDeliveryId(), event.id, endpointId, event.now);
}

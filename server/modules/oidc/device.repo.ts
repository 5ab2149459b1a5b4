import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { DeviceAuthorizationsTable } from '../../db/schema.js';

export type DeviceAuthorizationRow = Selectable<DeviceAuthorizationsTable>;

export async function insertDeviceAuthorization(db: Db, row: Insertable<DeviceAuthorizationsTable>): Promise<void> {
  await db.insertInto('device_authorizations').values(row).execute();
}

export function findByDeviceCode(db: Db, deviceCodeHash: string): Promise<DeviceAuthorizationRow | undefined> {
  return db.selectFrom('device_authorizations').selectAll().where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
}

/** A request still waiting for the user, by its user code, in this project. */
export function findPendingByUserCode(db: Db, projectId: string, userCodeHash: string, now: string): Promise<DeviceAuthorizationRow | undefined> {
  return db
    .selectFrom('device_authorizations')
    .selectAll()
    .where('user_code_hash', '=', userCodeHash)
    .where('project_id', '=', projectId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The project's requests waiting for a user (from one network, when it is named): pending-rows' count. */
export async function countWaitingDeviceAuthorizations(db: Db, where: { projectId: string | null; network?: string }, now: string) {
  let query = db
    .selectFrom('device_authorizations')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('first_expires_at')])
    .where('project_id', where.projectId === null ? 'is' : '=', where.projectId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now);
  if (where.network !== undefined) query = query.where('client_network', '=', where.network);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), firstExpiresAt: row.first_expires_at ?? null };
}

/** Approves or denies a request still pending; false when it was decided, or ran out, first. */
export async function decideDeviceAuthorization(
  db: Db,
  id: string,
  decision: { status: 'approved' | 'denied'; user_id: string; hosted_session_id: string; decided_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('device_authorizations')
    .set(decision)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', decision.decided_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records a poll: slow_down when it came before `pollableFrom` (`last_polled_at` + the interval), which
 * adds 5 s to the interval. One statement, so two parallel polls cannot both pass as on time.
 */
export async function recordPoll(db: Db, id: string, now: string, earliestPrevious: string): Promise<'on_time' | 'too_fast'> {
  const onTime = await db
    .updateTable('device_authorizations')
    .set({ last_polled_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb('last_polled_at', '<=', earliestPrevious)]))
    .executeTakeFirst();
  if (Number(onTime.numUpdatedRows) === 1) return 'on_time';
  await db
    .updateTable('device_authorizations')
    .set((eb) => ({ last_polled_at: now, interval_s: eb('interval_s', '+', 5) }))
    .where('id', '=', id)
    .execute();
  return 'too_fast';
}

/** Hands the tokens over once; false when they were taken already. */
export async function spendDeviceAuthorization(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('device_authorizations').set({ used_at: now }).where('id', '=', id).where('status', '=', 'approved').where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The sweep: requests past their 10 minutes (spent ones included: their code works no more). */
export async function deleteExpiredDeviceAuthorizations(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('device_authorizations').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

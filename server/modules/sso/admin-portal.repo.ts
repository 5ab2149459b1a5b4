import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { AdminPortalLinkRow, AdminPortalLinksTable, AdminPortalSessionRow, AdminPortalSessionsTable } from '../../db/schema.js';

export async function insertLink(db: Db, row: Insertable<AdminPortalLinksTable>): Promise<void> {
  await db.insertInto('admin_portal_links').values(row).execute();
}

export async function findLinkByTokenHash(db: Db, tokenHash: string): Promise<AdminPortalLinkRow | undefined> {
  return db.selectFrom('admin_portal_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends the link: true for the one call that found it unused. */
export async function markLinkUsed(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('admin_portal_links').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSession(db: Db, row: Insertable<AdminPortalSessionsTable>): Promise<void> {
  await db.insertInto('admin_portal_sessions').values(row).execute();
}

export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<AdminPortalSessionRow | undefined> {
  return db.selectFrom('admin_portal_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findSession(db: Db, id: string): Promise<AdminPortalSessionRow | undefined> {
  return db.selectFrom('admin_portal_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setTestResult(db: Db, id: string, result: string): Promise<void> {
  await db.updateTable('admin_portal_sessions').set({ test_result: result }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('admin_portal_sessions').where('id', '=', id).execute();
}

/** The sweep: links past their expiry (their sessions end no later, and go with them). */
export async function deleteExpiredLinks(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('admin_portal_links').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The session made a connection with its reserved id: the next one gets a new id. */
export async function renewNextConnectionId(db: Db, id: string, next: string): Promise<void> {
  await db.updateTable('admin_portal_sessions').set({ next_connection_id: next }).where('id', '=', id).execute();
}

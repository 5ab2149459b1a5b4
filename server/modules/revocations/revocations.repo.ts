import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/connect.js';
import type { RevocationSubjectType } from '../../db/schema.js';
import { readRows } from '../../db/read-rows.js';

/** Where a reader of the feed is: after the row of this transaction and id (the start: 0, 0). */
export interface Position {
  txid: bigint;
  id: number;
}

export const START: Position = { txid: 0n, id: 0 };

export interface RevocationRow {
  position: Position;
  project_id: string;
  subject_type: RevocationSubjectType;
  /** The session's id, or the machine client's client_id. */
  subject_id: string;
  revoked_at: string;
}

export const isAfter = (a: Position, b: Position): boolean => a.txid > b.txid || (a.txid === b.txid && a.id > b.id);

/**
 * The feed's rows after `after`, in feed order: one project's, or every project's (an instance's one
 * poll for all its streams). On PostgreSQL only the rows of transactions older than every one still
 * running, so no row can later appear before the last one read (see the migration).
 */
export async function readRevocationsAfter(db: Db, dialect: Dialect, after: Position, options: { projectId: string | null; limit: number }): Promise<RevocationRow[]> {
  const postgres = dialect === 'postgres';
  const txid = postgres ? sql`${after.txid.toString()}::xid8` : sql`${Number(after.txid)}`;
  let query = db
    .selectFrom('session_revocations')
    .select(['id', sql<string>`cast(txid as text)`.as('txid'), 'project_id', 'subject_type', 'session_id', 'revoked_at'])
    .where(sql<boolean>`(txid > ${txid} or (txid = ${txid} and id > ${after.id}))`);
  if (postgres) query = query.where(sql<boolean>`txid < pg_snapshot_xmin(pg_current_snapshot())`);
  if (options.projectId !== null) query = query.where('project_id', '=', options.projectId);
  const rows = await readRows(db, query.orderBy('txid').orderBy('id').limit(options.limit));
  return rows.map((row) => ({
    position: { txid: BigInt(row.txid), id: Number(row.id) },
    project_id: row.project_id,
    subject_type: row.subject_type,
    subject_id: row.session_id,
    revoked_at: row.revoked_at,
  }));
}

/** The last position every reader can see now (where a new instance's poll starts). */
export async function readHeadPosition(db: Db, dialect: Dialect): Promise<Position> {
  let query = db.selectFrom('session_revocations').select(['id', sql<string>`cast(txid as text)`.as('txid')]);
  if (dialect === 'postgres') query = query.where(sql<boolean>`txid < pg_snapshot_xmin(pg_current_snapshot())`);
  const [row] = await readRows(db, query.orderBy('txid', 'desc').orderBy('id', 'desc').limit(1));
  return row ? { txid: BigInt(row.txid), id: Number(row.id) } : START;
}

/** Rows revoked before `before`: no access token of their sessions can still be valid. */
export async function deleteRevocationsBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('session_revocations').where('revoked_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

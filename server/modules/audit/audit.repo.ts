import { sql, type Insertable } from 'kysely';
import type { AuditQuery } from '../../../shared/schemas/audit.js';
import type { Db } from '../../db/connect.js';
import type { AuditLogTable } from '../../db/schema.js';

export async function insertAuditEntry(db: Db, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

/** Newest first; `projectId` undefined lists every entry (the admin area), else one project's (null: outside any project). */
export async function listAuditEntries(db: Db, projectId: string | null | undefined, q: AuditQuery) {
  let rows = db.selectFrom('audit_log').selectAll();
  let count = db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n'));
  const where = <T extends typeof rows | typeof count>(query: T): T => {
    let next = query as typeof rows;
    if (projectId !== undefined) next = next.where('project_id', projectId === null ? 'is' : '=', projectId);
    if (q.action) next = q.action.endsWith('.') ? next.where(like('action', `${escapeLike(q.action)}%`)) : next.where('action', '=', q.action);
    if (q.actor) next = next.where(like('actor_email', `%${escapeLike(q.actor.toLowerCase())}%`));
    if (q.from) next = next.where('created_at', '>=', q.from);
    if (q.to) next = next.where('created_at', '<=', q.to);
    return next as T;
  };
  rows = where(rows);
  count = where(count);
  const [items, total] = await Promise.all([
    rows.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.per_page).offset((q.page - 1) * q.per_page).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number(total.n) };
}

/** A filter matches as typed: LIKE's wildcards in it are escaped (the same ESCAPE clause on SQLite and PostgreSQL). */
function escapeLike(value: string): string {
  return value.replace(/[%_\\]/g, (c) => `\\${c}`);
}

const like = (column: 'action' | 'actor_email', pattern: string) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;

import { sql, type SelectQueryBuilder } from 'kysely';
import type { AuditQuery } from '../../../shared/schemas/audit.js';
import type { Db } from '../../db/connect.js';
import { keysetRead } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';

type AuditFilters = Omit<AuditQuery, 'page' | 'per_page'>;

function auditFilters(projectId: string | null | undefined, q: AuditFilters) {
  return <T extends SelectQueryBuilder<Database, 'audit_log', any>>(query: T): T => {
    let next = query;
    if (projectId !== undefined) next = next.where('project_id', projectId === null ? 'is' : '=', projectId) as T;
    if (q.action) next = (q.action.endsWith('.') ? next.where(like('action', `${escapeLike(q.action)}%`)) : next.where('action', '=', q.action)) as T;
    if (q.actor) next = next.where(like('actor_email', `%${escapeLike(q.actor.toLowerCase())}%`)) as T;
    if (q.from) next = next.where('created_at', '>=', q.from) as T;
    if (q.to) next = next.where('created_at', '<=', q.to) as T;
    return next;
  };
}

/** Newest first; `projectId` undefined lists every entry (the admin area), else one project's (null: outside any project). */
export async function listAuditEntries(db: Db, projectId: string | null | undefined, q: AuditQuery) {
  const where = auditFilters(projectId, q);
  const [items, total] = await Promise.all([
    where(db.selectFrom('audit_log').selectAll()).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.per_page).offset((q.page - 1) * q.per_page).execute(),
    where(db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n'))).executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number(total.n) };
}

/**
 * The newest entries about one account: its own (target the user), its sessions' (labelled with its
 * address) and its devices' ("fingerprint (address)"). `projectId` undefined: in any project (the admin area).
 */
export async function listAuditEntriesAbout(db: Db, projectId: string | undefined, about: { userId: string; email: string }, limit: number) {
  let query = db
    .selectFrom('audit_log')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('target_id', '=', about.userId),
        eb.and([eb('target_type', '=', 'session'), eb('target_label', '=', about.email)]),
        eb.and([eb('target_type', '=', 'device'), like('target_label', `% (${escapeLike(about.email)})`)]),
      ]),
    );
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The entries written by `asOf` (when the export started), for an export read in chunks, newest first. */
export function readAuditEntriesForExport(db: Db, projectId: string | null | undefined, q: AuditFilters, asOf: string) {
  const matching = auditFilters(projectId, q)(db.selectFrom('audit_log').selectAll()).where('created_at', '<=', asOf);
  return keysetRead(db, matching, { created_at: 'audit_log.created_at', id: 'audit_log.id' });
}

/** A filter matches as typed: LIKE's wildcards in it are escaped (the same ESCAPE clause on SQLite and PostgreSQL). */
function escapeLike(value: string): string {
  return value.replace(/[%_\\]/g, (c) => `\\${c}`);
}

const like = (column: 'action' | 'actor_email' | 'target_label', pattern: string) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;

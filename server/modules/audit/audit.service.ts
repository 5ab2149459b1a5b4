import type { PageQuery } from '../../../shared/schemas/admin.js';
import type { AuditAction, AuditEntry, AuditQuery } from '../../../shared/schemas/audit.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { isoNow } from '../../lib/clock.js';
import { streamCsvExport, type CsvExport } from '../../lib/csv-export.js';
import { newId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { auditJson } from './audit-values.js';
import { insertAuditEntry, listAuditEntries, listAuditEntriesAbout, readAuditEntriesForExport } from './audit.repo.js';

/** Who made a change, and from where. */
export interface AuditActor {
  /** A developer, an admin or an end user; a project's backend (its API key) has no id. */
  user: { id: string | null; email: string | null };
  info: RequestInfo;
}

export interface AuditChange {
  /** The project the change belongs to; null outside any project. */
  projectId: string | null;
  action: AuditAction;
  target: { type: string; id: string | null; label?: string | null };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Writes one entry of the audit log. Pass the unit of work's deps (`tx`) where the change is made in
 * one, so the entry commits with it or not at all. `before` and `after` keep at most 2 KB of JSON each
 * (auditJson: the largest values become truncated markers).
 */
export async function recordAudit(deps: Pick<Deps, 'db' | 'clock'>, actor: AuditActor, change: AuditChange): Promise<void> {
  await insertAuditEntry(deps.db, {
    id: newId(),
    project_id: change.projectId,
    actor_id: actor.user.id,
    actor_email: actor.user.email,
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    target_label: change.target.label ?? null,
    before: auditJson(change.before),
    after: auditJson(change.after),
    ip_address: actor.info.ip,
    user_agent: actor.info.userAgent,
    created_at: isoNow(deps.clock),
  });
}

/** The fields of `after` that differ from `before`, as two objects (what an update changed). */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return { before: was, after: now };
}

const parse = (json: string | null) => (json ? (JSON.parse(json) as Record<string, unknown>) : null);

/** One page of the log, newest first: every entry (`projectId` undefined, the admin area) or one project's. */
export async function getAuditLog(deps: Pick<Deps, 'db'>, projectId: string | undefined, q: AuditQuery) {
  const { rows, total } = await listAuditEntries(deps.db, projectId, q);
  const entries: AuditEntry[] = rows.map((row) => ({ ...row, before: parse(row.before), after: parse(row.after) }));
  return { entries, total, page: q.page, per_page: q.per_page };
}

/** The newest `limit` entries about one account (see listAuditEntriesAbout), for its page. */
export async function getAuditEntriesAbout(deps: Pick<Deps, 'db'>, projectId: string | undefined, about: { userId: string; email: string }, limit: number): Promise<AuditEntry[]> {
  const rows = await listAuditEntriesAbout(deps.db, projectId, about, limit);
  return rows.map((row) => ({ ...row, before: parse(row.before), after: parse(row.after) }));
}

const AUDIT_COLUMNS = ['created_at', 'actor_email', 'actor_id', 'action', 'target_type', 'target_id', 'target_label', 'before', 'after', 'ip_address', 'user_agent', 'project_id'] as const;

/** The filtered log as CSV, streamed for `exporter` (see streamCsvExport), newest first (at most EXPORT_MAX_ROWS): `before` and `after` as JSON text. */
export function exportAuditLog(deps: Pick<Deps, 'db' | 'clock' | 'exportSlots' | 'logger'>, exporter: Pick<UserRow, 'id'>, projectId: string | undefined, q: Omit<AuditQuery, keyof PageQuery>): Promise<CsvExport> {
  return streamCsvExport(deps, exporter.id, readAuditEntriesForExport(deps.db, projectId, q, isoNow(deps.clock)), { columns: [...AUDIT_COLUMNS], item: (row) => row });
}

import type { PageQuery } from '../../../shared/schemas/admin.js';
import type { AuditEntry, AuditQuery } from '../../../shared/schemas/audit.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { isoNow } from '../../lib/clock.js';
import { streamCsvExport, type CsvExport } from '../../lib/csv-export.js';
import { listAuditEntries, listAuditEntriesAbout, readAuditEntriesForExport } from './audit.repo.js';

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

import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { ACCESS_TOKEN_TTL_RANGE_S } from '../../../shared/schemas/project-settings.js';
import { REVOCATION_PAGE_DEFAULT, type Revocation, type RevocationPage } from '../../../shared/schemas/revocations.js';
import type { ProjectRow } from '../../db/schema.js';
import { deleteRevocationsBefore, readRevocationsAfter, START, type Position, type RevocationRow } from './revocations.repo.js';


/**
 * How long a revocation matters: the longest an access token can live (the platform's lifetime, or the
 * most a project may set). A token of the session issued before its end has expired by then, so the
 * feed keeps a row that long and a reader may forget it after (`expires_at`).
 */
export function revocationWindowS(config: Pick<Config, 'accessTokenTtlS'>): number {
  return Math.max(config.accessTokenTtlS, ACCESS_TOKEN_TTL_RANGE_S.max);
}

/** The opaque cursor: the feed position of the last row read ("<txid>_<id>"). */
export const encodeCursor = (position: Position): string => `${position.txid}_${position.id}`;
const CURSOR_PATTERN = /^\d{1,20}_\d{1,19}$/;

export function decodeCursor(cursor: string | undefined): Position {
  if (cursor === undefined || cursor === '') return START;
  if (!CURSOR_PATTERN.test(cursor)) throw new AppError('UNPROCESSABLE_CONTENT', 'since (or Last-Event-ID) must be a cursor the feed answered');
  const [txid, id] = cursor.split('_') as [string, string];
  return { txid: BigInt(txid), id: Number(id) };
}

export function toRevocation(row: RevocationRow, windowS: number): Revocation {
  const times = { revoked_at: row.revoked_at, expires_at: new Date(Date.parse(row.revoked_at) + windowS * 1000).toISOString() };
  return row.subject_type === 'machine_client' ? { client_id: row.subject_id, ...times } : { session_id: row.subject_id, ...times };
}

/** The feed is the project of the caller's key only: another project's is answered as not found. */
export function requireOwnFeed(project: ProjectRow, projectKey: string): void {
  if (project.project_key !== projectKey) throw new AppError('NOT_FOUND', 'Project not found');
}

/** One page of a project's revocations after `since` (all it keeps without one), oldest first. */
export async function readRevocationPage(deps: Pick<Deps, 'db' | 'dialect' | 'config'>, projectId: string, since: string | undefined, limit = REVOCATION_PAGE_DEFAULT): Promise<RevocationPage> {
  const after = decodeCursor(since);
  const rows = await readRevocationsAfter(deps.db, deps.dialect, after, { projectId, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const windowS = revocationWindowS(deps.config);
  const last = page.at(-1);
  return { revocations: page.map((row) => toRevocation(row, windowS)), cursor: encodeCursor(last ? last.position : after), has_more: rows.length > limit };
}

/** The retention job's part: rows older than the window. */
export async function purgeRevocations(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - revocationWindowS(deps.config) * 1000).toISOString();
  return deleteRevocationsBefore(deps.db, before);
}

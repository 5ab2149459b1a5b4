import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { ORG_ADMIN_ROLE, ORG_MEMBER_ROLE } from '../../../shared/schemas/organizations.js';
import { UserTransferLineSchema, type FirebaseScryptParams, type UserTransferLine } from '../../../shared/schemas/user-transfer.js';
import type { ImportJob } from '../../../shared/schemas/user-import.js';
import type { Deps } from '../../deps.js';
import type { NewUser } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken } from '../../lib/crypto.js';
import { recordChange, type AuditActor } from '../changes/record-change.js';
import { unitOf } from '../../db/unit-of-work.js';
import { anyEndpointTakes, emitWebhookEvent } from '../changes/webhook-outbox.js';
import { insertFirebaseParams } from '../passwords/hash-params.repo.js';
import {
  countRunningJobs,
  failStaleJobs,
  findImportJob,
  findOrganizationIdsBySlug,
  findRoleKeys,
  findTaken,
  insertImportErrors,
  insertImportJob,
  listImportErrors,
  updateRunningJob,
  type ImportJobRow,
} from './import-jobs.repo.js';
import { storedFormOf, UnsupportedHashError } from '../passwords/password-hashes/index.js';
import { UnreadableLine, type UserLineReader } from './readers/reader.js';

/** Lines per transaction: large enough that 100,000 users are a few hundred commits, small enough to keep a batch's rows in memory. */
export const IMPORT_BATCH = 500;
/** The failed lines kept with their reasons; the rest are counted. */
export const MAX_STORED_ERRORS = 1000;
/** A running job touches its heartbeat this often; one silent for STALE_AFTER_MS was interrupted (its server stopped). */
const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 60_000;
const INTERRUPTED = 'The import was interrupted (its server stopped); the lines before it were imported';
export const ALREADY_EXISTS = 'a user with this e-mail address already exists';

/** What an import needs of the server: the API's deps, or the CLI's, built without a server. */
export type ImportDeps = Pick<Deps, 'db' | 'clock' | 'passwords' | 'secretBox'> & Partial<Pick<Deps, 'invalidations'>> & { logger: { error(object: object, message: string): void } };

export interface ImportOptions {
  projectId: string;
  dryRun: boolean;
  format: string;
  source: 'api' | 'cli';
  firebaseParams: FirebaseScryptParams | null;
  /** Who imports (audited); the CLI's operator has no account. */
  actor: AuditActor;
}

/** One line ready to insert. */
interface ReadyLine {
  line: number;
  user: NewUser;
  memberships: { organization_id: string; role: string }[];
}

/** Starts a job's row (state running), and its Firebase parameters' row when given. */
export async function createImportJob(deps: ImportDeps, options: ImportOptions): Promise<{ job: ImportJobRow; firebaseParamsId: string | null }> {
  const now = isoNow(deps.clock);
  await failStaleJobs(deps.db, options.projectId, staleBefore(deps), now, INTERRUPTED);
  if ((await countRunningJobs(deps.db, options.projectId)) > 0) throw new AppError('CONFLICT', 'An import into this project is running; wait until it ends');
  const job: ImportJobRow = {
    id: newId(),
    project_id: options.projectId,
    created_by: options.actor.user.id,
    source: options.source,
    format: options.format,
    dry_run: options.dryRun ? 1 : 0,
    state: 'running',
    lines_read: 0,
    created: 0,
    failed: 0,
    failure: null,
    created_at: now,
    heartbeat_at: now,
    finished_at: null,
  };
  const firebaseParamsId = options.firebaseParams && !options.dryRun ? newId() : null;
  await withTransaction(deps, async (tx) => {
    await insertImportJob(tx.db, job);
    if (firebaseParamsId && options.firebaseParams) await insertFirebaseParams(deps, tx.db, { id: firebaseParamsId, projectId: options.projectId, params: options.firebaseParams, now });
  });
  return { job, firebaseParamsId: firebaseParamsId ?? (options.firebaseParams ? 'dry-run' : null) };
}

/** A job that never got its body (the upload broke off, or was too large). */
export async function failImportJob(deps: ImportDeps, jobId: string, failure: string): Promise<void> {
  const now = isoNow(deps.clock);
  await updateRunningJob(deps.db, jobId, { state: 'failed', failure, finished_at: now, heartbeat_at: now });
}

function staleBefore(deps: Pick<Deps, 'clock'>): string {
  return new Date(deps.clock.now().getTime() - STALE_AFTER_MS).toISOString();
}

/** The first broken rule of a line, named by its field. */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Runs a job to its end: each value the reader yields is checked against the user line, then the lines go in
 * batches of IMPORT_BATCH, each one transaction (the users, their memberships, user.created for the webhooks that
 * take it, the batch's failed lines and the job's counts). A dry run checks the same (addresses and external ids
 * already taken, organizations) and writes only the job. Never throws: a job that cannot go on is marked failed.
 */
export async function runImportJob(deps: ImportDeps, job: ImportJobRow, firebaseParamsId: string | null, options: ImportOptions, reader: UserLineReader, input: Readable): Promise<void> {
  const counts = { lines_read: 0, created: 0, failed: 0 };
  let storedErrors = 0;
  let batch: ReadyLine[] = [];
  let batchErrors: { line: number; reason: string }[] = [];
  const seenEmails = new Set<string>();
  const seenExternalIds = new Set<string>();
  const roleKeys = await findRoleKeys(deps.db, options.projectId);
  const organizations = new Map<string, string | null>();
  const webhooks = await anyEndpointTakes(unitOf(deps.db), options.projectId, 'user.created');

  // A user without a password gets a hash of a random secret nobody keeps (password_set 0), made once per job: a
  // bcrypt per line would make 100,000 users take hours.
  const unknownPasswordHash = await deps.passwords.hash(randomToken());
  const fail = (line: number, reason: string) => {
    counts.failed += 1;
    if (storedErrors < MAX_STORED_ERRORS) {
      storedErrors += 1;
      batchErrors.push({ line, reason });
    }
  };

  const heartbeat = setInterval(() => {
    void updateRunningJob(deps.db, job.id, { heartbeat_at: isoNow(deps.clock) }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const prepare = async (line: number, value: UserTransferLine): Promise<ReadyLine | string> => {
    if (seenEmails.has(value.email)) return ALREADY_EXISTS;
    if (value.external_id && seenExternalIds.has(value.external_id)) return 'a user with this external_id already exists';
    let passwordHash: string;
    try {
      passwordHash = value.password ? storedFormOf(value.password, firebaseParamsId) : unknownPasswordHash;
    } catch (error) {
      if (error instanceof UnsupportedHashError) return error.message;
      throw error;
    }
    const memberships: ReadyLine['memberships'] = [];
    const unknown = (value.organizations ?? []).map((o) => o.slug).filter((slug) => !organizations.has(slug));
    if (unknown.length) {
      const found = await findOrganizationIdsBySlug(deps.db, options.projectId, unknown);
      if (organizations.size > 10_000) organizations.clear();
      for (const slug of unknown) organizations.set(slug, found.get(slug) ?? null);
    }
    for (const membership of value.organizations ?? []) {
      const organizationId = organizations.get(membership.slug);
      if (!organizationId) return `organizations: no organization "${membership.slug}" in this project`;
      const role = membership.role ?? ORG_MEMBER_ROLE;
      if (role !== ORG_ADMIN_ROLE && role !== ORG_MEMBER_ROLE && !roleKeys.has(role)) return `organizations: no role "${role}" in this project`;
      if (!memberships.some((m) => m.organization_id === organizationId)) memberships.push({ organization_id: organizationId, role });
    }
    const now = isoNow(deps.clock);
    const totp = value.totp_secret ? value.totp_secret.replace(/=+$/, '').toUpperCase() : null;
    seenEmails.add(value.email);
    if (value.external_id) seenExternalIds.add(value.external_id);
    return {
      line,
      memberships,
      user: {
        id: newId(),
        project_id: options.projectId,
        email: value.email,
        password_hash: passwordHash,
        password_set: value.password ? 1 : 0,
        first_name: value.first_name ?? null,
        last_name: value.last_name ?? null,
        company_name: null,
        website_url: null,
        locale: null,
        role: 'user',
        is_active: 1,
        is_verified: value.email_verified ? 1 : 0,
        login_notifications: 1,
        created_at: value.created_at ? new Date(value.created_at).toISOString() : now,
        updated_at: now,
        last_login: null,
        external_id: value.external_id ?? null,
        public_metadata: JSON.stringify(value.public_metadata ?? {}),
        private_metadata: JSON.stringify(value.private_metadata ?? {}),
        totp_secret: totp ? deps.secretBox.seal(totp) : null,
        totp_enabled_at: totp ? now : null,
      },
    };
  };

  const flush = async () => {
    const lines = batch;
    const errors = batchErrors;
    batch = [];
    batchErrors = [];
    const stillRunning = await withTransaction(deps, async (tx) => {
      const taken = await findTaken(
        tx.db,
        options.projectId,
        lines.map((l) => l.user.email),
        lines.flatMap((l) => (l.user.external_id ? [l.user.external_id] : [])),
      );
      const fresh: ReadyLine[] = [];
      for (const ready of lines) {
        if (taken.emails.has(ready.user.email)) fail(ready.line, ALREADY_EXISTS);
        else if (ready.user.external_id && taken.externalIds.has(ready.user.external_id)) fail(ready.line, 'a user with this external_id already exists');
        else fresh.push(ready);
      }
      if (!options.dryRun && fresh.length) {
        const inserted = await tx.db
          .insertInto('users')
          .values(fresh.map((ready) => ready.user))
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute();
        const ids = new Set(inserted.map((row) => row.id));
        const now = isoNow(deps.clock);
        const memberships = fresh.filter((ready) => ids.has(ready.user.id)).flatMap((ready) => ready.memberships.map((m) => ({ ...m, user_id: ready.user.id, joined_at: now, updated_at: now })));
        if (memberships.length) await tx.db.insertInto('organization_members').values(memberships).execute();
        for (const ready of fresh) {
          // Taken by a sign-up between the check and the insert.
          if (!ids.has(ready.user.id)) fail(ready.line, ALREADY_EXISTS);
          else {
            counts.created += 1;
            if (webhooks) await emitWebhookEvent(tx, options.projectId, 'user.created', { user: { id: ready.user.id, email: ready.user.email, is_verified: ready.user.is_verified === 1 } });
          }
        }
      } else counts.created += fresh.length;
      await insertImportErrors(tx.db, job.id, [...errors, ...batchErrors]);
      batchErrors = [];
      return updateRunningJob(tx.db, job.id, { ...counts, heartbeat_at: isoNow(deps.clock) });
    });
    if (!stillRunning) throw new Error(INTERRUPTED);
  };

  let failure: string | null = null;
  try {
    for await (const { line, value } of reader(input)) {
      counts.lines_read += 1;
      if (value instanceof UnreadableLine) fail(line, value.reason);
      else {
        const parsed = UserTransferLineSchema.safeParse(value);
        if (!parsed.success) fail(line, reasonOf(parsed.error));
        else {
          const ready = await prepare(line, parsed.data);
          if (typeof ready === 'string') fail(line, ready);
          else batch.push(ready);
        }
      }
      if (batch.length >= IMPORT_BATCH || batchErrors.length >= IMPORT_BATCH) await flush();
    }
    await flush();
  } catch (error) {
    failure = error instanceof Error && isReadersOwn(error) ? error.message : 'The import stopped on an internal error; the lines before it were imported';
    if (!isReadersOwn(error)) deps.logger.error({ err: error, job: job.id }, 'user import failed');
  } finally {
    clearInterval(heartbeat);
  }
  const finishedAt = isoNow(deps.clock);
  const state = failure ? ('failed' as const) : ('done' as const);
  const end = { ...counts, state, failure, finished_at: finishedAt, heartbeat_at: finishedAt };
  const after = { ...counts, dry_run: options.dryRun, format: options.format, source: options.source, state };
  // The job's end and its audit entry commit together, so whoever sees the job finished finds its entry (the lines were
  // imported batch by batch, each in its own transaction). Should that fail, the job still ends, without its entry.
  await withTransaction(deps, async (tx) => {
    await updateRunningJob(tx.db, job.id, end);
    await recordChange(tx, options.actor, { projectId: options.projectId, action: 'users.imported', target: { type: 'import', id: job.id }, after });
  }).catch(async (error: unknown) => {
    deps.logger.error({ err: error, job: job.id }, 'user import: the end of the job and its audit entry did not commit');
    await updateRunningJob(deps.db, job.id, end).catch(() => undefined);
  });
}

/** A reader's refusal of the whole input (not JSON, an array that ends too soon) is the job's reason; anything else is ours. */
function isReadersOwn(error: unknown): error is Error {
  return error instanceof Error && (error.message.startsWith('The body') || error.message.startsWith('The JSON array') || error.message === INTERRUPTED);
}

/** A job as GET …/users/import/{job_id} answers it; a running job whose heartbeat stopped is marked failed first. */
export async function getImportJob(deps: ImportDeps, projectId: string, jobId: string): Promise<ImportJob> {
  await failStaleJobs(deps.db, projectId, staleBefore(deps), isoNow(deps.clock), INTERRUPTED);
  const job = await findImportJob(deps.db, projectId, jobId);
  if (!job) throw new AppError('NOT_FOUND', 'Import job not found');
  const errors = await listImportErrors(deps.db, job.id);
  return {
    id: job.id,
    state: job.state,
    dry_run: job.dry_run === 1,
    format: job.format,
    source: job.source === 'cli' ? 'cli' : 'api',
    lines_read: job.lines_read,
    created: job.created,
    failed: job.failed,
    errors,
    errors_not_listed: job.failed - errors.length,
    failure: job.failure,
    created_at: job.created_at,
    finished_at: job.finished_at,
  };
}

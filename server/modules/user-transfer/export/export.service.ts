import type { Readable } from 'node:stream';
import type { PageQuery, UserListQuery } from '../../../../shared/schemas/admin.js';
import type { ExportSecret } from '../../../../shared/schemas/user-export.js';
import type { UserTransferLine } from '../../../../shared/schemas/user-transfer.js';
import type { UserRow } from '../../../db/schema.js';
import type { Deps } from '../../../deps.js';
import { withTransaction } from '../../../db/transaction.js';
import { isoNow } from '../../../lib/clock.js';
import type { RequestInfo } from '../../../lib/request-info.js';
import { streamExport } from '../../../lib/csv-export.js';
import { recordChange } from '../../changes/record-change.js';
import { readUsersForExport } from '../../monitoring/monitoring.repo.js';
import { requireProjectRole } from '../../realms/project-access.js';
import type { Authenticated } from '../../sessions/sessions.service.js';
import { requireRecentProof } from '../../sessions/step-up.js';
import { passphraseEncryption } from './age-passphrase.js';
import { organizationsOfUsers, passkeysOfUsers } from './export.repo.js';
import { exportedPassword } from './exported-password.js';
import { ndjsonWriter } from './ndjson.js';

export interface UserExportRequest {
  /** The monitoring list's filters (the GET's query); none: every end user. */
  filters: Omit<Partial<UserListQuery>, keyof PageQuery>;
  /** Secrets to include: the owner's, after a step-up, and only into an encrypted file. */
  include: readonly ExportSecret[];
  /** Encrypts the file to this passphrase (age); null: plain NDJSON. */
  passphrase: string | null;
}

export interface UserExport {
  /** Users the file holds: every one matching when the export started. */
  rows: number;
  encrypted: boolean;
  /** NDJSON, or the age file holding it, written as it is read. */
  body: Readable;
}

/**
 * The project's end users as UserTransferLine NDJSON, the format the import reads, streamed in chunks
 * with backpressure (lib/csv-export.ts's slot, keyset reading and turns), every user matching when it
 * starts (no cap: a move takes them all). A project admin may export the accounts; password hashes
 * and TOTP secrets only the owner, after a recent proof (401 step_up_required), into a file encrypted
 * with their passphrase. Audited (users.exported) with what it held.
 */
export async function exportUsers(deps: Deps, caller: { session: Authenticated; info: RequestInfo }, projectId: string, request: UserExportRequest): Promise<UserExport> {
  const { user } = caller.session;
  const include = new Set(request.include);
  await requireProjectRole(deps, user, projectId, include.size > 0 ? 'owner' : 'admin');
  if (include.size > 0) {
    if (request.passphrase === null) throw new Error('secrets are exported only encrypted');
    await requireRecentProof(deps, caller.session);
  }
  // The slow part of the encryption (the passphrase's key) before the export takes its slot.
  const encrypt = request.passphrase === null ? null : await passphraseEncryption(request.passphrase);
  const read = readUsersForExport(deps.db, projectId, request.filters, isoNow(deps.clock));
  const exported = await streamExport(deps, user.id, read, {
    maxRows: null,
    items: (chunk) => transferLinesOf(deps, chunk, include),
    writer: ndjsonWriter,
  });
  try {
    // An export reads only: its entry is the one write, in a transaction of its own.
    const after = { users: exported.rows, include: [...include], encrypted: encrypt !== null, filters: request.filters };
    await withTransaction(deps, (tx) => recordChange(tx, { user, info: caller.info }, { projectId, action: 'users.exported', target: { type: 'project', id: projectId }, after }));
    return { rows: exported.rows, encrypted: encrypt !== null, body: encrypt ? await encrypt(exported.body) : exported.body };
  } catch (error) {
    exported.body.destroy();
    throw error;
  }
}

/** A chunk of users as transfer lines, with their organizations and passkeys (one query each per chunk). */
async function transferLinesOf(deps: Deps, users: UserRow[], include: ReadonlySet<ExportSecret>): Promise<UserTransferLine[]> {
  const ids = users.map((user) => user.id);
  const [memberships, passkeys] = await Promise.all([organizationsOfUsers(deps.db, ids), passkeysOfUsers(deps.db, ids)]);
  const organizationsOf = groupBy(memberships, (row) => ({ slug: row.slug, role: row.role }));
  const passkeysOf = groupBy(passkeys, (row) => ({
    credential_id: row.credential_id,
    public_key: row.public_key,
    counter: Number(row.counter),
    transports: row.transports ? (JSON.parse(row.transports) as string[]) : [],
    name: row.name,
    created_at: row.created_at,
  }));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    email_verified: user.is_verified === 1,
    first_name: user.first_name,
    last_name: user.last_name,
    external_id: user.external_id,
    created_at: user.created_at,
    public_metadata: JSON.parse(user.public_metadata) as Record<string, unknown>,
    private_metadata: JSON.parse(user.private_metadata) as Record<string, unknown>,
    ...(include.has('password_hashes') && { password: user.password_set === 1 ? exportedPassword(user.password_hash) : null }),
    ...(include.has('totp_secrets') && { totp_secret: user.totp_enabled_at !== null && user.totp_secret !== null ? deps.secretBox.open(user.totp_secret) : null }),
    organizations: organizationsOf.get(user.id) ?? [],
    passkeys: passkeysOf.get(user.id) ?? [],
  }));
}

function groupBy<Row extends { user_id: string }, Item>(rows: Row[], item: (row: Row) => Item): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const row of rows) {
    const group = groups.get(row.user_id);
    if (group) group.push(item(row));
    else groups.set(row.user_id, [item(row)]);
  }
  return groups;
}

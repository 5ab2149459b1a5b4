import type { Readable } from 'node:stream';
import type { ProviderReader, ProviderRecord } from './provider-reader.js';
import { compact, isoTime, isObject, jsonOrNdjsonRecords, text, truthy } from './sources.js';

/**
 * Auth0 (https://auth0.com/docs/manage-users/user-migration/bulk-user-exports): the user export job's
 * file (NDJSON, or a JSON array) and the password-hash export Auth0's support hands out, NDJSON lines
 * like `{"_id":{"$oid":"…"},"email":"…","email_verified":true,"passwordHash":"$2b$10$…",…}`.
 *
 * Either file may be the input: a user export line carries the profile (`user_id` → external_id,
 * given/family name or name, created_at, user_metadata and app_metadata → private_metadata.auth0); a
 * hash export line the e-mail, its verification and the bcrypt hash (external_id `auth0|<$oid>`, the
 * user_id Auth0 gives a database user). With the user export as input and `options.passwordHashes`
 * the hash export, each user gets their hash by id: the hashes are read first and held in memory
 * (about 100 bytes a user).
 */
export const readAuth0: ProviderReader = async function* (input, options = {}) {
  const hashes = options.passwordHashes ? await hashesById(options.passwordHashes) : null;
  for await (const { line, record, error } of jsonOrNdjsonRecords(input)) {
    if (!record) {
      yield { line, value: undefined, error };
      continue;
    }
    yield isHashExportLine(record) ? { line, value: fromHashExport(record) } : ({ line, value: fromUserExport(record, hashes) } satisfies ProviderRecord);
  }
};

const oidOf = (record: Record<string, unknown>) => (isObject(record._id) ? text(record._id.$oid) : text(record._id));
const isHashExportLine = (record: Record<string, unknown>) => record._id !== undefined && record.user_id === undefined;
/** The id Auth0 gives a database connection's user: `auth0|` and the record's ObjectId. */
const auth0UserId = (oid: string | undefined) => (oid ? `auth0|${oid}` : undefined);

function fromHashExport(record: Record<string, unknown>) {
  return compact({
    email: text(record.email),
    email_verified: truthy(record.email_verified),
    external_id: auth0UserId(oidOf(record)),
    password: text(record.passwordHash) ?? null,
  });
}

function fromUserExport(record: Record<string, unknown>, hashes: Map<string, string> | null) {
  const userId = text(record.user_id);
  const name = text(record.name);
  const [first, ...rest] = name && !name.includes('@') ? name.split(/\s+/) : [];
  const metadata = compact({ user_metadata: isObject(record.user_metadata) ? record.user_metadata : undefined, app_metadata: isObject(record.app_metadata) ? record.app_metadata : undefined });
  const hash = userId && hashes ? hashes.get(userId) : undefined;
  return compact({
    email: text(record.email),
    email_verified: truthy(record.email_verified),
    first_name: text(record.given_name) ?? first,
    last_name: text(record.family_name) ?? (rest.length ? rest.join(' ') : undefined),
    external_id: userId,
    created_at: isoTime(record.created_at),
    private_metadata: Object.keys(metadata).length ? { auth0: metadata } : undefined,
    password: hash,
  });
}

/** The hash export as user_id → bcrypt hash. */
async function hashesById(file: Readable): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const { record } of jsonOrNdjsonRecords(file)) {
    const id = record && auth0UserId(oidOf(record));
    const hash = record && text(record.passwordHash);
    if (id && hash) hashes.set(id, hash);
  }
  return hashes;
}

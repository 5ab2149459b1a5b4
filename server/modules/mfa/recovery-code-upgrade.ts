import type { Deps } from '../../deps.js';
import { findUnkeyedRecoveryCodes, rewriteRecoveryCodeHashes } from './mfa.repo.js';
import { keyedOverUnkeyed } from './recovery-code-digest.js';

const BATCH = 500;

/**
 * At start: every recovery code an earlier version stored as a plain SHA-256 is rewritten in the keyed
 * form (migrations cannot, they have no master key). Each rewrite is guarded by the old value, so
 * instances starting together do each row once. Answers how many rows this call rewrote.
 */
export async function upgradeUnkeyedRecoveryCodes(deps: Pick<Deps, 'db' | 'secretBox' | 'logger'>): Promise<number> {
  let rewritten = 0;
  for (;;) {
    const rows = await findUnkeyedRecoveryCodes(deps.db, BATCH);
    rewritten += await rewriteRecoveryCodeHashes(
      deps.db,
      rows.map((row) => ({ id: row.id, from: row.code_hash, to: keyedOverUnkeyed(deps.secretBox, row.user_id, row.code_hash) })),
    );
    if (rows.length < BATCH) break;
  }
  if (rewritten > 0) deps.logger.info({ rewritten }, 'recovery codes: stored SHA-256 digests rewritten as keyed digests');
  return rewritten;
}

import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { isoNow } from '../../lib/clock.js';
import { bcryptCost, isBcryptHash } from './password-hashes/bcrypt.js';
import { isCheaperThanBcrypt, verifyImportedHash } from './password-hashes/index.js';
import { findFirebaseParams } from './hash-params.repo.js';

/** Our own hashes: bcrypt `$2b$` at the configured cost. Anything else came with an import (or an older cost). */
function isCurrentHash(deps: Deps, stored: string): boolean {
  return stored.startsWith('$2b$') && isBcryptHash(stored) && bcryptCost(stored) >= deps.config.bcryptCost;
}

/**
 * Checks an account's password against whatever its `password_hash` holds: our bcrypt, or an imported hash of any
 * family (server/modules/passwords/password-hashes), run in the hashing queue. A right password over an imported
 * hash is rehashed to our bcrypt at once, in the same request (only if the hash is still the one checked). A wrong one
 * over a family cheaper than bcrypt also spends a bcrypt check, so every wrong answer takes at least as long as ours.
 */
export async function verifyAccountPassword(deps: Deps, user: Pick<UserRow, 'id' | 'project_id' | 'password_hash'>, password: string): Promise<boolean> {
  const stored = user.password_hash;
  if (isCurrentHash(deps, stored)) return deps.passwords.verify(password, stored);
  const lookup = (id: string) => findFirebaseParams(deps, user.project_id, id);
  const right = await deps.passwords.run(() => verifyImportedHash(password, stored, lookup));
  if (!right) {
    if (isCheaperThanBcrypt(stored)) await deps.passwords.verifyAgainstDummy(password);
    return false;
  }
  const rehashed = await deps.passwords.hash(password);
  await deps.db
    .updateTable('users')
    .set({ password_hash: rehashed, password_set: 1, updated_at: isoNow(deps.clock) })
    .where('id', '=', user.id)
    .where('password_hash', '=', stored)
    .execute();
  return true;
}

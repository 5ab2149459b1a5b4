import { sha256 } from '../../lib/crypto.js';
import type { SecretBox } from '../../lib/secret-box.js';

/**
 * How a recovery code is stored: `k1:` and the HMAC under the master key (secretBox.digest) of the
 * account's id and the code's SHA-256. A copy of the database alone cannot test guesses, and a row
 * copied to another account does not match there. Versions before stored the bare SHA-256 (hex);
 * keying that SHA-256 rather than the code is what lets those rows be rewritten without the codes.
 */
export const KEYED_RECOVERY_CODE_PREFIX = 'k1:';

/** The code's SHA-256: the whole stored form of earlier versions, and the keyed form's input. */
function unkeyedDigest(code: string): string {
  return sha256(`recovery:${code}`);
}

/** The keyed form of an earlier version's stored SHA-256. */
export function keyedOverUnkeyed(box: SecretBox, userId: string, unkeyed: string): string {
  return `${KEYED_RECOVERY_CODE_PREFIX}${box.digest('recovery-code', `${userId}:${unkeyed}`).toString('base64url')}`;
}

/** What to store for a new code. */
export function recoveryCodeDigest(box: SecretBox, userId: string, code: string): string {
  return keyedOverUnkeyed(box, userId, unkeyedDigest(code));
}

/** The two stored forms a code may have: keyed, or unkeyed when an earlier version wrote it after this one started. */
export function recoveryCodeDigests(box: SecretBox, userId: string, code: string): { keyed: string; unkeyed: string } {
  const unkeyed = unkeyedDigest(code);
  return { keyed: keyedOverUnkeyed(box, userId, unkeyed), unkeyed };
}

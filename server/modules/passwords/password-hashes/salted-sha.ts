import { createHash, timingSafeEqual } from 'node:crypto';

export type SaltedShaAlgorithm = 'sha256' | 'sha512';
export type SaltPosition = 'prefix' | 'suffix';

export interface SaltedSha {
  algorithm: SaltedShaAlgorithm;
  position: SaltPosition;
  /** The salt as the old system concatenated it: its text. */
  salt: string;
  hash: Buffer;
}

const STORED = /^\$salted-(sha256|sha512)\$pos=(prefix|suffix)\$([A-Za-z0-9+/]*)\$([A-Za-z0-9+/]+)$/;
const DIGEST_BYTES = { sha256: 32, sha512: 64 } as const;

/**
 * An old system's digest(salt ‖ password) or digest(password ‖ salt), stored as
 * `$salted-sha256$pos=prefix$<salt, base64 of its UTF-8 text, no padding>$<hash, base64 without padding>`.
 */
export function serializeSaltedSha(value: SaltedSha): string {
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return `$salted-${value.algorithm}$pos=${value.position}$${b64(Buffer.from(value.salt, 'utf8'))}$${b64(value.hash)}`;
}

export function isSaltedShaHash(stored: string): boolean {
  return stored.startsWith('$salted-sha256$') || stored.startsWith('$salted-sha512$');
}

export function parseSaltedSha(stored: string): SaltedSha | null {
  const match = STORED.exec(stored);
  if (!match) return null;
  const algorithm = match[1] as SaltedShaAlgorithm;
  const hash = Buffer.from(match[4]!, 'base64');
  if (hash.length !== DIGEST_BYTES[algorithm]) return null;
  return { algorithm, position: match[2] as SaltPosition, salt: Buffer.from(match[3]!, 'base64').toString('utf8'), hash };
}

export function verifySaltedSha(password: string, stored: string): boolean {
  const parsed = parseSaltedSha(stored);
  if (!parsed) return false;
  const input = parsed.position === 'prefix' ? parsed.salt + password : password + parsed.salt;
  return timingSafeEqual(createHash(parsed.algorithm).update(input, 'utf8').digest(), parsed.hash);
}

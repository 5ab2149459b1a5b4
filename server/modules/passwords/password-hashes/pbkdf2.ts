import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { deserialize } from '@phc/format';

/** More iterations than any real system uses would let one sign-in hold a core for seconds. */
const MAX_ITERATIONS = 10_000_000;

export type Pbkdf2Digest = 'sha256' | 'sha1';

export interface Pbkdf2Hash {
  digest: Pbkdf2Digest;
  iterations: number;
  salt: Buffer;
  hash: Buffer;
}

const DJANGO = /^pbkdf2_(sha256|sha1)\$(\d{1,8})\$([^$]{1,256})\$([A-Za-z0-9+/]+={0,2})$/;
const PASSLIB = /^\$pbkdf2(?:-(sha256|sha1))?\$(\d{1,8})\$([./A-Za-z0-9]*)\$([./A-Za-z0-9]+)$/;

export function isPbkdf2Hash(stored: string): boolean {
  return DJANGO.test(stored) || stored.startsWith('$pbkdf2-sha256$') || stored.startsWith('$pbkdf2-sha1$') || stored.startsWith('$pbkdf2$');
}

/** passlib's "adapted base64": `.` for `+`, no padding. */
function ab64(text: string): Buffer {
  return Buffer.from(text.replace(/\./g, '+'), 'base64');
}

/**
 * The three string forms: Django's `pbkdf2_sha256$iterations$salt$hash` (the salt used as its text, the hash in
 * base64), the PHC form `$pbkdf2-sha256$i=iterations$salt$hash` (B64), and passlib's `$pbkdf2-sha256$iterations$salt$hash`
 * (adapted base64; `$pbkdf2$` is its SHA-1).
 */
export function parsePbkdf2(stored: string): Pbkdf2Hash | null {
  const django = DJANGO.exec(stored);
  if (django) return bounded({ digest: django[1] as Pbkdf2Digest, iterations: Number(django[2]), salt: Buffer.from(django[3]!, 'utf8'), hash: Buffer.from(django[4]!, 'base64') });
  const passlib = PASSLIB.exec(stored);
  if (passlib) return bounded({ digest: (passlib[1] ?? 'sha1') as Pbkdf2Digest, iterations: Number(passlib[2]), salt: ab64(passlib[3]!), hash: ab64(passlib[4]!) });
  try {
    const { id, params, salt, hash } = deserialize(stored);
    const digest = id === 'pbkdf2-sha256' ? 'sha256' : id === 'pbkdf2-sha1' ? 'sha1' : null;
    const iterations = (params as Record<string, unknown> | undefined)?.i;
    if (!digest || typeof iterations !== 'number' || !salt || !hash) return null;
    return bounded({ digest, iterations, salt, hash });
  } catch {
    return null;
  }
}

function bounded(parsed: Pbkdf2Hash): Pbkdf2Hash | null {
  const ok = Number.isInteger(parsed.iterations) && parsed.iterations >= 1 && parsed.iterations <= MAX_ITERATIONS && parsed.hash.length >= 16 && parsed.hash.length <= 128;
  return ok ? parsed : null;
}

export function verifyPbkdf2Parts(password: string, parsed: Pbkdf2Hash): Promise<boolean> {
  return new Promise((resolve, reject) =>
    pbkdf2(password, parsed.salt, parsed.iterations, parsed.hash.length, parsed.digest, (error, key) => (error ? reject(error) : resolve(timingSafeEqual(key, parsed.hash)))),
  );
}

export async function verifyPbkdf2(password: string, stored: string): Promise<boolean> {
  const parsed = parsePbkdf2(stored);
  return parsed ? verifyPbkdf2Parts(password, parsed) : false;
}

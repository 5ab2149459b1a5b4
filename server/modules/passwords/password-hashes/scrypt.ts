import { scrypt, timingSafeEqual } from 'node:crypto';
import { deserialize } from '@phc/format';

/** The bounds an imported hash may ask for: up to N = 2^20 and 16 MiB·r of memory, so one sign-in cannot claim the server's memory. */
const MAX_LN = 20;
const MAX_R = 16;
const MAX_P = 16;

export function isScryptHash(stored: string): boolean {
  return stored.startsWith('$scrypt$');
}

export interface ScryptParams {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** `$scrypt$ln=…,r=…,p=…$salt$hash` (passlib's and the PHC's form), checked for sane costs. */
export function parseScrypt(stored: string): ScryptParams | null {
  try {
    const { id, params, salt, hash } = deserialize(stored);
    const { ln, r, p } = (params ?? {}) as Record<string, unknown>;
    if (id !== 'scrypt' || !salt || !hash || hash.length < 16) return null;
    if (!isInt(ln, 1, MAX_LN) || !isInt(r, 1, MAX_R) || !isInt(p, 1, MAX_P)) return null;
    return { ln, r, p, salt, hash };
  } catch {
    return null;
  }
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** scrypt on libuv's thread pool, with the memory it needs (128·N·r plus slack) allowed. */
export function scryptKey(password: Buffer | string, salt: Buffer, keyLength: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const maxmem = 128 * cost.N * cost.r * 2 + 1024 * 1024;
  return new Promise((resolve, reject) => scrypt(password, salt, keyLength, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const parsed = parseScrypt(stored);
  if (!parsed) return false;
  const key = await scryptKey(password, parsed.salt, parsed.hash.length, { N: 2 ** parsed.ln, r: parsed.r, p: parsed.p });
  return timingSafeEqual(key, parsed.hash);
}

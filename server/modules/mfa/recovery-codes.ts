import { randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford-style: no 0/1/i/l/o/u, so a code read off paper is typed right. */
const ALPHABET = 'abcdefghjkmnpqrstvwxyz23456789';
const HALF = 5;

/** Ten one-use codes like "k7m2p-q9xrt" (about 49 bits each), shown to the user once. */
export function generateRecoveryCodes(): string[] {
  const half = () => Array.from({ length: HALF }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${half()}-${half()}`);
}

/** "K7M2P Q9XRT", "k7m2pq9xrt" and "k7m2p-q9xrt" are the same code; null for anything that cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]+/g, '');
  if (compact.length !== HALF * 2 || [...compact].some((c) => !ALPHABET.includes(c))) return null;
  return `${compact.slice(0, HALF)}-${compact.slice(HALF)}`;
}

import { availableParallelism } from 'node:os';
import { dictionary } from '@zxcvbn-ts/language-common';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import { PASSWORD_MAX_BYTES } from '../../shared/constants.js';
import { randomToken } from './crypto.js';

/** bcrypt reads 72 bytes; anything past them would be ignored, so a longer password is simply wrong. */
export function fitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Burns the same time as a real verify, for callers that have no account to check against. */
  verifyAgainstDummy(password: string): Promise<false>;
  /** Runs other password work (an imported hash's check) in the same bounded queue as the hashes. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Hashes running now, and waiting for a turn. */
  load(): { running: number; waiting: number };
}

/** How many hashes may run at once: one per core, so a login flood saturates the cores it has and no more. */
export const HASHING_CONCURRENCY = Math.max(1, availableParallelism());

/**
 * bcrypt's async calls run on libuv's thread pool, off the event loop. Its four threads on a
 * two-core machine would still starve the loop of CPU, so at most one hash per core runs at once
 * and the rest wait their turn.
 */
export function createBcryptHasher(cost: number, concurrency = HASHING_CONCURRENCY): PasswordHasher {
  const limit = pLimit(concurrency);
  let dummyHash: Promise<string> | null = null;
  const compare = (password: string, hash: string) => limit(() => bcrypt.compare(password, hash));
  return {
    hash: (password) => limit(() => bcrypt.hash(password, cost)),
    verify: compare,
    async verifyAgainstDummy(password) {
      dummyHash ??= limit(() => bcrypt.hash(randomToken(), cost));
      await compare(password, await dummyHash);
      return false;
    },
    run: (task) => limit(task),
    load: () => ({ running: limit.activeCount, waiting: limit.pendingCount }),
  };
}

let commonPasswords: Set<string> | null = null;

/**
 * The ~49,000 most common passwords of zxcvbn-ts's shipped list (MIT). It is lower-case,
 * so the check is too: 'Password1' is as guessable as 'password1'.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'] as string[]);
  return commonPasswords.has(password.toLowerCase());
}

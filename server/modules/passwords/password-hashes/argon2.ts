import { verify } from '@node-rs/argon2';

const ARGON2 = /^\$argon2(id|i|d)\$/;

export function isArgon2Hash(stored: string): boolean {
  return ARGON2.test(stored);
}

/** argon2id, argon2i (and argon2d) in their PHC strings, as libsodium, passlib and the reference CLI write them. */
export async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

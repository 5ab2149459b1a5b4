import { createCipheriv, timingSafeEqual } from 'node:crypto';
import type { FirebaseScryptParams } from '../../../../shared/schemas/user-transfer.js';
import { scryptKey } from './scrypt.js';

/**
 * Firebase Authentication's modified scrypt (github.com/firebase/scrypt): the scrypt key of the password and
 * salt‖separator (N = 2^mem_cost, r = rounds, p = 1, 32 bytes) is the AES-256-CTR key (zero IV) that encrypts
 * the project's signer key; the result is the stored hash. Written here on node's crypto: the one npm package
 * for it (firebase-scrypt) is a babel-6 build pulling babel-runtime. Checked against Firebase's published sample.
 */
export async function firebaseScryptHash(password: string, salt: Buffer, params: FirebaseScryptParams): Promise<Buffer> {
  const separator = Buffer.from(params.salt_separator, 'base64');
  const key = await scryptKey(password, Buffer.concat([salt, separator]), 32, { N: 2 ** params.mem_cost, r: params.rounds, p: 1 });
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(params.signer_key, 'base64')), cipher.final()]);
}

export async function verifyFirebaseScrypt(password: string, salt: Buffer, hash: Buffer, params: FirebaseScryptParams): Promise<boolean> {
  const computed = await firebaseScryptHash(password, salt, params);
  return computed.length === hash.length && timingSafeEqual(computed, hash);
}

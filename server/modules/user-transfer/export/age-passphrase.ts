import { createCipheriv, randomBytes, scrypt } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Encrypter, Stanza, type Recipient } from 'age-encryption';

/**
 * An age file (https://age-encryption.org/v1) encrypted to a passphrase: the scrypt recipient stanza that
 * `age -p` writes, so `age -d`, rage and age-encryption's Decrypter open it with the passphrase.
 *
 * age-encryption's own passphrase mode runs scrypt (work factor 2^18, 256 MiB) synchronously in
 * JavaScript, which would hold the event loop for seconds; here node's scrypt derives the same key on
 * the thread pool, one derivation at a time per process (each needs its 256 MiB), before the export
 * starts reading. The rest (header MAC, the STREAM payload) is age-encryption's.
 */
export const AGE_SCRYPT_LOG_N = 18;
const SCRYPT_LABEL = 'age-encryption.org/v1/scrypt';
const SCRYPT_MAXMEM = 2 * 128 * 8 * 2 ** AGE_SCRYPT_LOG_N;

let derivations: Promise<unknown> = Promise.resolve();

/** The key scrypt derives from the passphrase and a fresh salt, queued behind the process's other derivations. */
function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  const derived = derivations.then(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(passphrase, Buffer.concat([Buffer.from(SCRYPT_LABEL), salt]), 32, { N: 2 ** AGE_SCRYPT_LOG_N, r: 8, p: 1, maxmem: SCRYPT_MAXMEM }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
  derivations = derived.catch(() => {});
  return derived;
}

/** The scrypt recipient with its key derived ahead: wrapping the file key is one ChaCha20-Poly1305 seal (zero nonce, as age specifies). */
async function scryptRecipient(passphrase: string): Promise<Recipient> {
  const salt = randomBytes(16);
  const key = await deriveKey(passphrase, salt);
  return {
    wrapFileKey(fileKey) {
      const cipher = createCipheriv('chacha20-poly1305', key, Buffer.alloc(12), { authTagLength: 16 });
      const body = Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
      return [new Stanza(['scrypt', salt.toString('base64').replace(/=+$/, ''), String(AGE_SCRYPT_LOG_N)], body)];
    },
  };
}

/**
 * Prepares the encryption (the slow key derivation happens here), then encrypts a stream as it is read:
 * the answer pulls from `plain` only as fast as its own reader takes, and destroying it stops `plain`.
 */
export async function passphraseEncryption(passphrase: string): Promise<(plain: Readable) => Promise<Readable>> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(await scryptRecipient(passphrase));
  return async (plain) => {
    const encrypted = await encrypter.encrypt(Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>);
    return Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>);
  };
}

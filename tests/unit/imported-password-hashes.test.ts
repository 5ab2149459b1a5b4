import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serialize } from '@phc/format';
import type { FirebaseScryptParams, ImportedPassword } from '../../shared/schemas/user-transfer.js';
import { firebaseScryptHash } from '../../server/modules/passwords/password-hashes/firebase-scrypt.js';
import {
  firebaseParamsIdOf,
  hashFamilyOf,
  isCheaperThanBcrypt,
  storedFormOf,
  toTransferPassword,
  UnsupportedHashError,
  verifyImportedHash,
} from '../../server/modules/passwords/password-hashes/index.js';

/** Firebase's published sample (github.com/firebase/scrypt README). */
const FIREBASE_SAMPLE: FirebaseScryptParams = {
  signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  salt_separator: 'Bw==',
  rounds: 8,
  mem_cost: 14,
};
const FIREBASE_SALT = '42xEC+ixf3L2lw==';
const FIREBASE_HASH = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';

const noFirebase = async () => null;
const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
/** RFC 7914 §11: PBKDF2-HMAC-SHA256("Password", "NaCl", 80000, 64). */
const RFC7914_PBKDF2 = hex(
  '4d dc d8 f6 0b 98 be 21 83 0c ee 5e f2 27 01 f9 64 1a 44 18 d0 4c 04 14 ae ff 08 87 6b 34 ab 56 a1 d4 25 a1 22 58 33 54 9a db 84 1b 51 c9 b3 17 6a 27 2b de bb a1 d0 78 47 8f 62 b3 97 f3 3c 8d',
);
/** RFC 6070: PBKDF2-HMAC-SHA1("password", "salt", 4096, 20). */
const RFC6070_PBKDF2 = hex('4b007901b765489abead49d926f721d065a429c1');
/** RFC 7914 §12: scrypt("pleaseletmein", "SodiumChloride", N=16384, r=8, p=1, 64). */
const RFC7914_SCRYPT = hex(
  '70 23 bd cb 3a fd 73 48 46 1c 06 cd 81 fd 38 eb fd a8 fb ba 90 4f 8e 3e a9 b5 43 f6 54 5d a1 f2 d5 43 29 55 61 3f 0f cf 62 d4 97 05 24 2a 9a f9 e6 1e 85 dc 0d 65 1e 40 df cf 01 7b 45 57 58 87',
);

/** Each family's known vector: the stored string (or object form), the right password and a wrong one. */
const VECTORS: Array<{ name: string; password: ImportedPassword; right: string }> = [
  { name: 'bcrypt $2a$ (OpenBSD/Openwall vector)', password: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', right: 'U*U' },
  { name: 'bcrypt $2y$ (PHP)', password: '$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', right: 'U*U' },
  { name: 'bcrypt $2b$', password: '$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', right: 'U*U' },
  { name: 'argon2i (reference CLI README)', password: '$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG', right: 'password' },
  { name: 'argon2id (reference CLI README)', password: '$argon2id$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$GpZ3sK/oH9p7VIiV56G/64Zo/8GaUw434IimaPqxwCo', right: 'password' },
  {
    name: 'scrypt PHC (RFC 7914 vector)',
    password: serialize({ id: 'scrypt', params: { ln: 14, r: 8, p: 1 }, salt: Buffer.from('SodiumChloride'), hash: RFC7914_SCRYPT }),
    right: 'pleaseletmein',
  },
  {
    name: 'PBKDF2-SHA256 PHC (RFC 7914 vector)',
    password: serialize({ id: 'pbkdf2-sha256', params: { i: 80000 }, salt: Buffer.from('NaCl'), hash: RFC7914_PBKDF2 }),
    right: 'Password',
  },
  { name: 'PBKDF2-SHA256 Django (RFC 7914 vector)', password: `pbkdf2_sha256$80000$NaCl$${RFC7914_PBKDF2.toString('base64')}`, right: 'Password' },
  { name: 'PBKDF2-SHA1 Django (RFC 6070 vector)', password: `pbkdf2_sha1$4096$salt$${RFC6070_PBKDF2.toString('base64')}`, right: 'password' },
  {
    name: 'PBKDF2-SHA1 PHC (RFC 6070 vector)',
    password: serialize({ id: 'pbkdf2-sha1', params: { i: 4096 }, salt: Buffer.from('salt'), hash: RFC6070_PBKDF2 }),
    right: 'password',
  },
  {
    name: 'PBKDF2-SHA256 passlib (adapted base64)',
    password: `$pbkdf2-sha256$80000$${Buffer.from('NaCl').toString('base64').replace(/=+$/, '').replace(/\+/g, '.')}$${RFC7914_PBKDF2.toString('base64').replace(/=+$/, '').replace(/\+/g, '.')}`,
    right: 'Password',
  },
  {
    name: 'PBKDF2-SHA256 object, hex',
    password: { algorithm: 'pbkdf2_sha256', hash: RFC7914_PBKDF2.toString('hex'), salt: Buffer.from('NaCl').toString('hex'), iterations: 80000, encoding: 'hex' },
    right: 'Password',
  },
  {
    name: 'PBKDF2-SHA1 object, base64',
    password: { algorithm: 'pbkdf2_sha1', hash: RFC6070_PBKDF2.toString('base64'), salt: Buffer.from('salt').toString('base64'), iterations: 4096, encoding: 'base64' },
    right: 'password',
  },
  /** FIPS 180-2's SHA-256("abc") and SHA-512("abc"), split into salt and password. */
  {
    name: 'salted SHA-256, salt first, hex',
    password: { algorithm: 'sha256', hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', salt: 'a', salt_position: 'prefix', encoding: 'hex' },
    right: 'bc',
  },
  {
    name: 'salted SHA-512, salt last, base64',
    password: {
      algorithm: 'sha512',
      hash: hex('ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f').toString('base64'),
      salt: 'c',
      salt_position: 'suffix',
      encoding: 'base64',
    },
    right: 'ab',
  },
  { name: 'unsalted SHA-256', password: { algorithm: 'sha256', hash: createHash('sha256').update('abc').digest('hex'), salt: '', salt_position: 'prefix', encoding: 'hex' }, right: 'abc' },
];

describe('imported password hashes', () => {
  it.each(VECTORS)('$name: the right password verifies, a wrong one does not', async ({ password, right }) => {
    const stored = storedFormOf(password, null);
    expect(hashFamilyOf(stored)).not.toBeNull();
    expect(await verifyImportedHash(right, stored, noFirebase)).toBe(true);
    expect(await verifyImportedHash(`${right}x`, stored, noFirebase)).toBe(false);
    expect(await verifyImportedHash('', stored, noFirebase)).toBe(false);
  });

  it.each(VECTORS)('$name: the export reads back a password that verifies the same', async ({ password, right }) => {
    const stored = storedFormOf(password, null);
    const again = storedFormOf(toTransferPassword(stored), null);
    expect(again).toBe(stored);
    expect(await verifyImportedHash(right, again, noFirebase)).toBe(true);
  });

  it("computes Firebase's published sample hash", async () => {
    const hash = await firebaseScryptHash('user1password', Buffer.from(FIREBASE_SALT, 'base64'), FIREBASE_SAMPLE);
    expect(hash.toString('base64')).toBe(FIREBASE_HASH);
  });

  it("verifies Firebase's sample through the stored form and the import's parameters", async () => {
    const stored = storedFormOf({ algorithm: 'firebase_scrypt', hash: FIREBASE_HASH, salt: FIREBASE_SALT }, 'params-1');
    expect(stored.startsWith('$firebase-scrypt$p=params-1$')).toBe(true);
    expect(firebaseParamsIdOf(stored)).toBe('params-1');
    const lookup = async (id: string) => (id === 'params-1' ? FIREBASE_SAMPLE : null);
    expect(await verifyImportedHash('user1password', stored, lookup)).toBe(true);
    expect(await verifyImportedHash('user2password', stored, lookup)).toBe(false);
    // Parameters that are gone (or of another import) verify nothing.
    expect(await verifyImportedHash('user1password', stored, noFirebase)).toBe(false);
    expect(toTransferPassword(stored)).toEqual({ algorithm: 'firebase_scrypt', hash: FIREBASE_HASH, salt: FIREBASE_SALT });
  });

  it('refuses what no family reads, and Firebase hashes without the import parameters', () => {
    for (const password of ['plaintext', '$md5$abc', '$2b$05$short', 'pbkdf2_sha256$x$salt$hash', '$scrypt$ln=40,r=8,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA']) {
      expect(() => storedFormOf(password, null), password).toThrow(UnsupportedHashError);
    }
    expect(() => storedFormOf({ algorithm: 'firebase_scrypt', hash: FIREBASE_HASH, salt: FIREBASE_SALT }, null)).toThrow(/Firebase hash parameters/);
    expect(() => storedFormOf({ algorithm: 'sha256', hash: 'abcd', salt: '', salt_position: 'prefix', encoding: 'hex' }, null)).toThrow(/sha256 digest/);
    expect(() => storedFormOf({ algorithm: 'sha512', hash: 'zz', salt: '', salt_position: 'prefix', encoding: 'hex' }, null)).toThrow(/not hex/);
  });

  it('counts salted digests and light PBKDF2 as cheaper than bcrypt (a wrong answer is padded to one)', () => {
    expect(isCheaperThanBcrypt(storedFormOf(VECTORS[14]!.password, null))).toBe(true);
    expect(isCheaperThanBcrypt(`pbkdf2_sha1$4096$salt$${RFC6070_PBKDF2.toString('base64')}`)).toBe(true);
    expect(isCheaperThanBcrypt('$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG')).toBe(false);
  });
});

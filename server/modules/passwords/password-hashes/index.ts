import { deserialize, serialize } from '@phc/format';
import type { FirebaseScryptParams, ImportedPassword } from '../../../../shared/schemas/user-transfer.js';
import { isArgon2Hash, verifyArgon2 } from './argon2.js';
import { isBcryptHash, verifyBcrypt } from './bcrypt.js';
import { verifyFirebaseScrypt } from './firebase-scrypt.js';
import { isPbkdf2Hash, parsePbkdf2, verifyPbkdf2 } from './pbkdf2.js';
import { isSaltedShaHash, parseSaltedSha, serializeSaltedSha, verifySaltedSha } from './salted-sha.js';
import { isScryptHash, parseScrypt, verifyScrypt } from './scrypt.js';

/**
 * Password hashes brought in by an import, as `users.password_hash` keeps them until the user's next sign-in
 * rehashes to our bcrypt. Every stored form names its algorithm:
 * - bcrypt (`$2a$`, `$2b$`, `$2y$`), argon2 (`$argon2id$…`, `$argon2i$…`), scrypt (`$scrypt$ln=…,r=…,p=…$salt$hash`),
 *   PBKDF2 (PHC `$pbkdf2-sha256$i=…$…`, passlib `$pbkdf2-sha256$29000$…`, Django `pbkdf2_sha256$…`): as they came;
 * - the PBKDF2 object form: written as the PHC string;
 * - salted SHA-256/512: `$salted-sha256$pos=prefix|suffix$<salt text, B64>$<hash, B64>`;
 * - Firebase's scrypt: `$firebase-scrypt$p=<id of the import's sealed parameters>$<salt, B64>$<hash, B64>`
 *   (user_import_hash_params holds the project's signer key, sealed; B64 is base64 without padding).
 */
export type HashFamily = 'bcrypt' | 'argon2' | 'scrypt' | 'firebase-scrypt' | 'pbkdf2' | 'salted-sha';

export class UnsupportedHashError extends Error {}

export function hashFamilyOf(stored: string): HashFamily | null {
  if (isBcryptHash(stored)) return 'bcrypt';
  if (isArgon2Hash(stored)) return 'argon2';
  if (isScryptHash(stored)) return 'scrypt';
  if (stored.startsWith('$firebase-scrypt$')) return 'firebase-scrypt';
  if (isPbkdf2Hash(stored)) return 'pbkdf2';
  if (isSaltedShaHash(stored)) return 'salted-sha';
  return null;
}

/** The families that cost less than a bcrypt check: a wrong password then also spends one, so every answer takes as long. */
export function isCheaperThanBcrypt(stored: string): boolean {
  const family = hashFamilyOf(stored);
  return family === 'salted-sha' || (family === 'pbkdf2' && (parsePbkdf2(stored)?.iterations ?? 0) < 100_000);
}

function decode(text: string, encoding: 'base64' | 'hex'): Buffer {
  const valid = encoding === 'hex' ? /^(?:[0-9a-fA-F]{2})+$/ : /^[A-Za-z0-9+/_-]+={0,2}$/;
  if (!valid.test(text)) throw new UnsupportedHashError(`password is not ${encoding}`);
  return Buffer.from(text, encoding === 'hex' ? 'hex' : 'base64');
}

/**
 * What `users.password_hash` keeps for an imported password; throws UnsupportedHashError (the line's reason) for a
 * string no family reads, or Firebase's form without the import's parameters.
 */
export function storedFormOf(password: ImportedPassword, firebaseParamsId: string | null): string {
  if (typeof password === 'string') {
    const family = hashFamilyOf(password);
    const readable =
      (family === 'bcrypt' || family === 'argon2') ? parsesAsPhcOrBcrypt(password) : family === 'scrypt' ? parseScrypt(password) !== null : family === 'pbkdf2' ? parsePbkdf2(password) !== null : false;
    if (!readable) throw new UnsupportedHashError('password is not a supported hash (bcrypt, argon2id/argon2i, scrypt or PBKDF2 in PHC or Django form)');
    return password;
  }
  switch (password.algorithm) {
    case 'firebase_scrypt': {
      if (!firebaseParamsId) throw new UnsupportedHashError('firebase_scrypt needs the import\'s Firebase hash parameters (the X-Firebase-Hash-Params header, or the CLI\'s --firebase-params)');
      return serialize({ id: 'firebase-scrypt', params: { p: firebaseParamsId }, salt: decode(password.salt, 'base64'), hash: decode(password.hash, 'base64') });
    }
    case 'sha256':
    case 'sha512': {
      const hash = decode(password.hash, password.encoding);
      if (hash.length !== (password.algorithm === 'sha256' ? 32 : 64)) throw new UnsupportedHashError(`password.hash is not a ${password.algorithm} digest`);
      return serializeSaltedSha({ algorithm: password.algorithm, position: password.salt_position, salt: password.salt, hash });
    }
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha1': {
      const hash = decode(password.hash, password.encoding);
      if (hash.length < 16 || hash.length > 128) throw new UnsupportedHashError('password.hash is not a PBKDF2 key (16 to 128 bytes)');
      const id = password.algorithm === 'pbkdf2_sha256' ? 'pbkdf2-sha256' : 'pbkdf2-sha1';
      return serialize({ id, params: { i: password.iterations }, salt: decode(password.salt, password.encoding), hash });
    }
  }
}

function parsesAsPhcOrBcrypt(stored: string): boolean {
  if (isBcryptHash(stored)) return true;
  try {
    const { hash, salt } = deserialize(stored);
    return Boolean(hash && salt);
  } catch {
    return false;
  }
}

/** Firebase's hash parameters of a stored hash's import (`$firebase-scrypt$p=<id>…`), null for other forms. */
export function firebaseParamsIdOf(stored: string): string | null {
  if (!stored.startsWith('$firebase-scrypt$')) return null;
  try {
    const { params } = deserialize(stored);
    const id = (params as Record<string, unknown> | undefined)?.p;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

export type FirebaseParamsLookup = (id: string) => Promise<FirebaseScryptParams | null>;

/** Checks a password against a stored hash of any family; false for an unreadable one (never throws for a wrong password). */
export async function verifyImportedHash(password: string, stored: string, firebaseParams: FirebaseParamsLookup): Promise<boolean> {
  switch (hashFamilyOf(stored)) {
    case 'bcrypt':
      return verifyBcrypt(password, stored);
    case 'argon2':
      return verifyArgon2(password, stored);
    case 'scrypt':
      return verifyScrypt(password, stored);
    case 'pbkdf2':
      return verifyPbkdf2(password, stored);
    case 'salted-sha':
      return verifySaltedSha(password, stored);
    case 'firebase-scrypt': {
      const id = firebaseParamsIdOf(stored);
      const params = id ? await firebaseParams(id) : null;
      if (!params) return false;
      const { salt, hash } = deserialize(stored);
      return salt && hash ? verifyFirebaseScrypt(password, salt, hash, params) : false;
    }
    case null:
      return false;
  }
}

const base64 = (bytes: Buffer) => bytes.toString('base64');

/**
 * The inverse of storedFormOf, for the export: what the line's `password` carries for a stored hash. Strings the
 * import keeps as they came (our own bcrypt included) pass through; salted SHA and Firebase's scrypt become their
 * object forms (the export adds the import's Firebase parameters, found with firebaseParamsIdOf).
 */
export function toTransferPassword(stored: string): ImportedPassword {
  if (isSaltedShaHash(stored)) {
    const parsed = parseSaltedSha(stored);
    if (!parsed) throw new UnsupportedHashError('unreadable salted SHA hash');
    return { algorithm: parsed.algorithm, hash: base64(parsed.hash), salt: parsed.salt, salt_position: parsed.position, encoding: 'base64' };
  }
  if (stored.startsWith('$firebase-scrypt$')) {
    const { salt, hash } = deserialize(stored);
    if (!salt || !hash) throw new UnsupportedHashError('unreadable Firebase scrypt hash');
    return { algorithm: 'firebase_scrypt', hash: base64(hash), salt: base64(salt) };
  }
  return stored;
}

import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A random secret for links and refresh tokens: 32 bytes (256 bits), URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Secrets are stored as SHA-256 digests: fast to check, useless if the database leaks. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function newId(): string {
  return randomUUID();
}

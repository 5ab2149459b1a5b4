import type { SecretBox } from '../../lib/secret-box.js';

/**
 * How a mailed sign-in code or link token is stored: `k1:` and its HMAC under the master key
 * (secretBox.digest), bound to the project and, for a code, the address. A 6-digit code has only a
 * million values: unkeyed, a copy of the database would give every live code by brute force.
 */
export function emailCodeDigest(box: SecretBox, projectId: string, email: string, code: string): string {
  return `k1:${box.digest('email-sign-in-code', `${projectId}:${email}:${code}`).toString('base64url')}`;
}

export function magicLinkDigest(box: SecretBox, projectId: string, token: string): string {
  return `k1:${box.digest('magic-link', `${projectId}:${token}`).toString('base64url')}`;
}

import { sign } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../lib/clock.js';
import type { SigningKey } from '../../lib/signing-keys.js';

export interface AccessClaims {
  /** user id */
  sub: string;
  /** session id */
  sid: string;
  /** expiry, seconds since the epoch */
  exp: number;
}

export interface AccessTokens {
  /** `lifetimeS` overrides the signer's lifetime (a project's access_token_ttl_s). */
  /** `claims` are added to the token's own (sub, sid, iat, exp, aud, iss), which they never replace. Without `sid` (a machine client's token) the token names no session, and `verify` never accepts it. */
  issue(claims: { sub: string; sid?: string; claims?: Record<string, unknown> }, lifetimeS?: number): { token: string; expiresIn: number };
  /** Checks type, signature, issuer, audience and expiry; null when any fails. */
  verify(token: string): AccessClaims | null;
  /** An OpenID Connect ID token for the realm's client (audience): same key, issuer and `kid`, type JWT. */
  signIdToken(claims: { sub: string } & Record<string, unknown>, ttlS: number): string;
  /** An ID token this realm signed, expired or not (an `id_token_hint`); null when it is not one. */
  verifyIdTokenHint(token: string): ({ sub: string; sid?: string } & Record<string, unknown>) | null;
  jwks(): { keys: SigningKey['publicJwk'][] };
}

/**
 * Access tokens say they are (RFC 9068 `typ: at+jwt`), so an ID token, signed by the same key for
 * the same audience, is never taken for one.
 */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

export const PLATFORM_AUDIENCE = 'authplatform';

/**
 * ES256 access tokens with a `kid`, verifiable by anyone holding the JWKS. Verified tokens are
 * remembered (bounded LRU, until expiry) so the signature check runs once per token, not per request.
 */
export function createAccessTokens(options: { key: SigningKey; issuer: string; audience?: string; ttlS: number; clock: Clock }): AccessTokens {
  const { key, issuer, ttlS, clock } = options;
  const audience = options.audience ?? PLATFORM_AUDIENCE;
  const verified = new LRUCache<string, AccessClaims>({ max: 10_000 });
  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  // Signed here rather than by jsonwebtoken, which took twice the time of the signature itself; the
  // token is what jwt.sign would make with the same header and claims.
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: ACCESS_TOKEN_TYPE, kid: key.kid })).toString('base64url');

  return {
    issue({ sub, sid, claims }, lifetimeS = ttlS) {
      const iat = nowS();
      const payload = Buffer.from(JSON.stringify({ ...claims, sid, iat, exp: iat + lifetimeS, aud: audience, iss: issuer, sub })).toString('base64url');
      const signed = `${header}.${payload}`;
      const signature = sign('sha256', Buffer.from(signed), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      return { token: `${signed}.${signature}`, expiresIn: lifetimeS };
    },
    verify(token) {
      if (token.length > 16_384) return null;
      const cached = verified.get(token);
      if (cached) return cached.exp > nowS() ? cached : null;
      try {
        const { header, payload } = jwt.verify(token, key.publicKey, {
          algorithms: ['ES256'],
          issuer,
          audience,
          clockTimestamp: nowS(),
          complete: true,
        });
        if (header.typ !== ACCESS_TOKEN_TYPE) return null;
        if (typeof payload !== 'object' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
          return null;
        }
        const claims: AccessClaims = { sub: payload.sub, sid: payload.sid, exp: payload.exp };
        verified.set(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
    signIdToken({ sub, ...claims }, idTtlS) {
      const iat = nowS();
      return jwt.sign({ ...claims, iat, exp: iat + idTtlS }, key.privateKey, {
        algorithm: 'ES256',
        header: { alg: 'ES256', kid: key.kid, typ: 'JWT' },
        subject: sub,
        issuer,
        audience,
      });
    },
    verifyIdTokenHint(token) {
      if (token.length > 8192) return null;
      try {
        const { header, payload } = jwt.verify(token, key.publicKey, { algorithms: ['ES256'], issuer, audience, ignoreExpiration: true, complete: true });
        if (header.typ === ACCESS_TOKEN_TYPE || typeof payload !== 'object' || typeof payload.sub !== 'string') return null;
        return payload as { sub: string; sid?: string };
      } catch {
        return null;
      }
    },
    jwks: () => ({ keys: [key.publicJwk] }),
  };
}

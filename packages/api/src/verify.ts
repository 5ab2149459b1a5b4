import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import { normalizeAppUrl } from './client.js';

export interface VerifyAccessTokenOptions {
  /** Where the platform is served (its APP_URL), e.g. `https://auth.example.com`. */
  appUrl: string;
  /** The project's public key (`pk_…`): its end users' tokens name it as their audience. */
  projectKey: string;
  /** Leeway for `exp` and `iat` against this machine's clock: seconds, or a span such as `'30s'`. None by default. */
  clockTolerance?: number | string;
}

/** The claims of an end user's access token. */
export interface AccessTokenClaims extends JWTPayload {
  /** The end user's id. */
  sub: string;
  /** The session the token was issued for. */
  sid: string;
  iss: string;
  iat: number;
  exp: number;
}

export interface VerifiedAccessToken {
  /** The end user's id (`sub`), the `id` of the user that /public/api/v1/profile answers. */
  userId: string;
  /** The end user's session (`sid`), as listed by /public/api/v1/auth/sessions. */
  sessionId: string;
  issuedAt: Date;
  expiresAt: Date;
  payload: AccessTokenClaims;
}

/**
 * `expired`: a genuine token past its expiry (refresh it). `invalid`: not a token of this project
 * (forged, altered, another project's or the platform's, malformed), or no project has the key it was
 * checked against (a mistyped project key). `unavailable`: the project's keys could not be fetched
 * (the platform did not answer, or answered with an error), so nothing can be said about the token.
 */
export type AccessTokenErrorCode = 'expired' | 'invalid' | 'unavailable';

export class AccessTokenError extends Error {
  override readonly name = 'AccessTokenError';

  constructor(
    readonly code: AccessTokenErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** jose's refusals of the token itself; any other failure is about reaching the keys. */
const REFUSALS = [
  errors.JWSInvalid,
  errors.JWTInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JWTClaimValidationFailed,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

/** The platform answered that no project has the key: no token can be this project's. */
class UnknownProjectError extends Error {}

/** fetch, except that a 404 for the key set says the project key is unknown (jose only says "not 200"). */
const fetchKeySet = async (url: string, init: RequestInit): Promise<Response> => {
  const response = await fetch(url, init);
  if (response.status === 404) throw new UnknownProjectError(`No project has the key in ${url}`);
  return response;
};

// One key set per URL for the life of the process: jose keeps the fetched keys and refetches only
// when a token names an unknown kid (at most every 30 s) or they are 10 minutes old.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetAt(url: string): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { [customFetch]: fetchKeySet });
    keySets.set(url, keySet);
  }
  return keySet;
}

/**
 * Checks an end user's access token offline, as the platform itself does: ES256 signature against
 * the project's published keys, issuer `APP_URL/projects/<project_key>`, audience the project key,
 * expiry, and the `sub` and `sid` claims. Offline means a session that was signed out or revoked
 * keeps verifying until its token expires; ask /public/api/v1/profile when that matters.
 */
export async function verifyAccessToken(token: string, options: VerifyAccessTokenOptions): Promise<VerifiedAccessToken> {
  const appUrl = normalizeAppUrl(options.appUrl);
  const jwksUrl = `${appUrl}/public/api/v1/projects/${encodeURIComponent(options.projectKey)}/jwks.json`;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySetAt(jwksUrl), {
      algorithms: ['ES256'],
      issuer: `${appUrl}/projects/${options.projectKey}`,
      audience: options.projectKey,
      // Access tokens are typed (RFC 9068); an ID token of the same project is refused.
      typ: 'at+jwt',
      requiredClaims: ['sub', 'sid', 'iat', 'exp'],
      clockTolerance: options.clockTolerance,
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AccessTokenError('expired', 'The access token has expired', { cause: error });
    if (REFUSALS.some((refusal) => error instanceof refusal)) throw new AccessTokenError('invalid', 'Invalid access token', { cause: error });
    if (error instanceof UnknownProjectError) throw new AccessTokenError('invalid', `Invalid access token: no project has the key ${options.projectKey}`, { cause: error });
    throw new AccessTokenError('unavailable', `Could not get the project's signing keys from ${jwksUrl}`, { cause: error });
  }
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new AccessTokenError('invalid', 'Invalid access token');
  const claims = payload as AccessTokenClaims;
  return {
    userId: claims.sub,
    sessionId: claims.sid,
    issuedAt: new Date(claims.iat * 1000),
    expiresAt: new Date(claims.exp * 1000),
    payload: claims,
  };
}

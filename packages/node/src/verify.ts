import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';

/** What a verified access token of a project's end user says. */
export interface AuthClaims extends JWTPayload {
  /** The end user's id. */
  sub: string;
  /** The session's id: what the revocation feed names. */
  sid: string;
  exp: number;
  iat: number;
  /** The active organization (set when the end user switched into one). */
  org_id?: string;
  org_slug?: string;
  org_role?: string;
  org_permissions?: string[];
  public_metadata?: Record<string, unknown>;
}

/** What a verified access token of a project's machine client (the client-credentials grant) says. */
export interface MachineClaims extends JWTPayload {
  /** The machine client's client_id (`mc_…`), also in `client_id`. */
  sub: string;
  client_id: string;
  /** The scopes granted, space-separated (absent when none). */
  scope?: string;
  exp: number;
  iat: number;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface VerifierOptions {
  /** Where AuthPlatform is reached (its APP_URL), e.g. https://auth.example.com. */
  url: string;
  /** The project's key: the tokens' audience. */
  projectKey: string;
  /** The tokens' issuer; `<url>/projects/<projectKey>` unless the platform is reached at another address than its APP_URL. */
  issuer?: string;
  /** Leeway for the clocks of the two machines, in seconds (default 5). */
  clockToleranceS?: number;
  /** How long the project's keys are kept before they are fetched again (default 10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /**
   * A token naming a key the set does not hold fetches the keys again (a rotation), at most once per
   * this many ms (default 5 s), so a flood of tokens with made-up `kid`s cannot turn into a flood of fetches.
   */
  jwksCooldownMs?: number;
  /** Verified tokens remembered, so the signature is checked once per token (default 10 000). */
  cacheSize?: number;
  fetch?: FetchLike;
  /** The clock (tests). */
  now?: () => number;
}

/** Why a token was refused: expired, or anything else (bad signature, issuer, audience, type, malformed). */
export class TokenError extends Error {
  constructor(
    readonly reason: 'expired' | 'invalid' | 'revoked',
    message: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export interface Verifier {
  /**
   * An end user's token: its claims once its type, signature, issuer, audience and expiry hold and it names a
   * session; throws TokenError otherwise (a machine client's token too).
   */
  verify(token: string): Promise<AuthClaims>;
  /** A machine client's token (no session; `client_id` is its subject); throws TokenError otherwise (an end user's token too). */
  verifyMachine(token: string): Promise<MachineClaims>;
}

const MAX_TOKEN_LENGTH = 16_384;

/**
 * Offline verification against the project's JWKS (jose's remote key set: fetched once, kept
 * `jwksCacheMaxAgeMs`, fetched again when a token names a key it does not know, so a rotation needs
 * nothing). A verified token's claims are remembered until it expires: the ES256 check runs once per
 * token, not once per request.
 */
export function createVerifier(options: VerifierOptions): Verifier {
  const base = options.url.replace(/\/+$/, '');
  const issuer = options.issuer ?? `${base}/projects/${options.projectKey}`;
  const now = options.now ?? Date.now;
  const jwks = createRemoteJWKSet(new URL(`${base}/public/api/v1/projects/${encodeURIComponent(options.projectKey)}/jwks.json`), {
    cacheMaxAge: options.jwksCacheMaxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.jwksCooldownMs ?? 5_000,
    ...(options.fetch && { [customFetch]: options.fetch }),
  });
  const tolerance = options.clockToleranceS ?? 5;
  const verified = new BoundedCache<JWTPayload & { exp: number }>(options.cacheSize ?? 10_000);

  /** Type, signature, issuer, audience and expiry: what both kinds of token share. */
  async function verifyPayload(token: string): Promise<JWTPayload & { exp: number }> {
    const nowS = Math.floor(now() / 1000);
    const cached = verified.get(token);
    if (cached) {
      if (cached.exp + tolerance <= nowS) throw new TokenError('expired', 'The access token has expired');
      return cached;
    }
    if (token.length > MAX_TOKEN_LENGTH) throw new TokenError('invalid', 'The access token is not valid');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer,
        audience: options.projectKey,
        algorithms: ['ES256'],
        typ: 'at+jwt',
        clockTolerance: tolerance,
        currentDate: new Date(nowS * 1000),
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new TokenError('expired', 'The access token has expired');
      // The key set could not be read: not the token's fault, so not answered as if it were.
      if (error instanceof errors.JWKSTimeout || (error instanceof Error && !(error instanceof errors.JOSEError))) throw error;
      throw new TokenError('invalid', 'The access token is not valid');
    }
    const claims = payload as JWTPayload & { exp: number };
    verified.set(token, claims);
    return claims;
  }

  const invalid = () => new TokenError('invalid', 'The access token is not valid');
  return {
    async verify(token) {
      const claims = await verifyPayload(token);
      if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') throw invalid();
      return claims as AuthClaims;
    },
    async verifyMachine(token) {
      const claims = await verifyPayload(token);
      if (typeof claims.sub !== 'string' || claims.sid !== undefined || claims.client_id !== claims.sub) throw invalid();
      return claims as MachineClaims;
    },
  };
}

/** A map of at most `max` entries that forgets the oldest first. */
class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: V): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }
}

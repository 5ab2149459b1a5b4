import { createRevocationFeed, type RevocationFeed, type RevocationFeedOptions } from './revocation-feed.js';
import { createVerifier, TokenError, type AuthClaims, type MachineClaims, type VerifierOptions } from './verify.js';

/** What the middleware puts on the request (`req.auth` in Express, `request.auth` in Fastify). */
export interface Auth {
  userId: string;
  sessionId: string;
  /** The organization the end user is acting in, when they switched into one. */
  organization: { id: string; slug: string | undefined; role: string; permissions: string[] } | null;
  claims: AuthClaims;
}

/** What requireMachine puts on the request (`req.machine` in Express, `request.machine` in Fastify). */
export interface MachineAuth {
  /** The machine client's client_id (`mc_…`). */
  clientId: string;
  /** The scopes its token was granted. */
  scopes: string[];
  claims: MachineClaims;
}

export interface RequireMachineOptions {
  /** A scope the machine client's token must carry. */
  scope?: string;
}

export interface RequireAuthOptions {
  /** A permission the active organization's role must give (`org_permissions`). */
  permission?: string;
  /** The role the end user must hold in the active organization (`org_role`), e.g. `org:admin`. */
  role?: string;
}

export interface AuthPlatformOptions extends VerifierOptions {
  /**
   * The project's API key: with it, tokens of revoked sessions are refused within seconds through the
   * revocation feed. Without it only expiry ends a token.
   */
  apiKey?: string;
  revocations?: Omit<RevocationFeedOptions, 'url' | 'projectKey' | 'apiKey' | 'fetch' | 'now'>;
  /**
   * With `apiKey`: once the revocation feed has been unreachable this long, refuse every token (503) until it is
   * back, rather than accept tokens whose session may have been revoked meanwhile (fail closed). Default: never,
   * tokens keep verifying offline while the feed is down (fail open); revocations made meanwhile apply once it is back.
   */
  failClosedAfterMs?: number;
}

export interface AuthPlatform {
  /** Reads the revocation feed once and starts following it; call before serving (a no-op without an API key). */
  start(): Promise<void>;
  /** Verifies a token offline (signature, issuer, audience, type, expiry) and refuses a revoked session's. */
  authenticate(token: string): Promise<Auth>;
  /** Middleware for Express (`app.get(path, auth.requireAuth(), handler)`) and Fastify (`{ preHandler: auth.requireAuth() }`). */
  requireAuth(options?: RequireAuthOptions): AuthMiddleware;
  /**
   * A machine client's token (the client-credentials grant): verified offline the same way, refused once the client
   * is revoked or deleted (through the revocation feed). An end user's token is refused here, and a machine's by requireAuth.
   */
  authenticateMachine(token: string): Promise<MachineAuth>;
  /** Middleware for calls from machine clients; sets `machine` on the request. */
  requireMachine(options?: RequireMachineOptions): AuthMiddleware;
  readonly feed: RevocationFeed | null;
  close(): Promise<void>;
}

/** Express's (req, res, next) and Fastify's preHandler (request, reply, done): one function for both. */
export type AuthMiddleware = (request: any, reply: any, next: (error?: any) => void) => void;

/** Why a request is refused, as the platform answers: `{"detail"}` with its status. */
export class AuthError extends Error {
  constructor(
    readonly status: 401 | 403 | 503,
    readonly detail: string,
    readonly bearerError?: 'invalid_token' | 'insufficient_scope',
  ) {
    super(detail);
    this.name = 'AuthError';
  }
}

export function createAuthPlatform(options: AuthPlatformOptions): AuthPlatform {
  const verifier = createVerifier(options);
  const feed = options.apiKey
    ? createRevocationFeed({ ...options.revocations, url: options.url, projectKey: options.projectKey, apiKey: options.apiKey, fetch: options.fetch, now: options.now })
    : null;
  const failClosedAfterMs = options.failClosedAfterMs;

  async function verified<C>(verify: () => Promise<C>): Promise<C> {
    try {
      return await verify();
    } catch (error) {
      if (error instanceof TokenError) throw new AuthError(401, error.reason === 'expired' ? 'The access token has expired' : 'The access token is not valid', 'invalid_token');
      throw new AuthError(503, 'The signing keys cannot be read right now');
    }
  }

  function refuseWhileFeedIsDown(): void {
    if (feed && failClosedAfterMs !== undefined && feed.unreachableForMs() > failClosedAfterMs) {
      throw new AuthError(503, 'Revoked sessions cannot be checked right now');
    }
  }

  async function authenticate(token: string): Promise<Auth> {
    const claims = await verified(() => verifier.verify(token));
    if (feed?.isRevoked(claims.sid)) throw new AuthError(401, 'The session has ended', 'invalid_token');
    refuseWhileFeedIsDown();
    const organization =
      typeof claims.org_id === 'string' && typeof claims.org_role === 'string'
        ? { id: claims.org_id, slug: claims.org_slug, role: claims.org_role, permissions: Array.isArray(claims.org_permissions) ? claims.org_permissions : [] }
        : null;
    return { userId: claims.sub, sessionId: claims.sid, organization, claims };
  }

  async function authenticateMachine(token: string): Promise<MachineAuth> {
    const claims = await verified(() => verifier.verifyMachine(token));
    if (feed?.isClientRevoked(claims.client_id)) throw new AuthError(401, 'The machine client has been revoked', 'invalid_token');
    refuseWhileFeedIsDown();
    return { clientId: claims.client_id, scopes: typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [], claims };
  }

  function authorize(auth: Auth, required: RequireAuthOptions): void {
    if (required.role !== undefined && auth.organization?.role !== required.role) throw new AuthError(403, `This needs the role ${required.role}`, 'insufficient_scope');
    if (required.permission !== undefined && !auth.organization?.permissions.includes(required.permission)) {
      throw new AuthError(403, `This needs the permission ${required.permission}`, 'insufficient_scope');
    }
  }

  /** One function for Express's (req, res, next) and Fastify's preHandler: the bearer token, checked, set on the request as `property`. */
  function guard<A>(check: (token: string) => Promise<A>, allow: (found: A) => void, property: 'auth' | 'machine'): AuthMiddleware {
    return (request, reply, next) => {
      const fastify = typeof reply.code === 'function' && 'raw' in reply;
      const header = request.headers?.authorization;
      const token = typeof header === 'string' && /^Bearer [^\s]+$/i.test(header) ? header.slice(7) : null;
      const refuse = (error: AuthError) => {
        const challenge = error.bearerError ? `Bearer error="${error.bearerError}"` : 'Bearer';
        if (fastify) {
          reply.code(error.status).header('www-authenticate', challenge).send({ detail: error.detail });
        } else {
          reply.status(error.status).set('www-authenticate', challenge).json({ detail: error.detail });
        }
      };
      if (token === null) return refuse(new AuthError(401, 'Missing bearer token'));
      check(token).then(
        (found) => {
          try {
            allow(found);
          } catch (error) {
            return refuse(error as AuthError);
          }
          request[property] = found;
          next();
        },
        (error: unknown) => (error instanceof AuthError ? refuse(error) : next(error)),
      );
    };
  }

  return {
    start: async () => feed?.start(),
    authenticate,
    requireAuth(required = {}) {
      return guard(authenticate, (auth) => authorize(auth, required), 'auth');
    },
    authenticateMachine,
    requireMachine(required = {}) {
      return guard(
        authenticateMachine,
        (machine) => {
          if (required.scope !== undefined && !machine.scopes.includes(required.scope)) throw new AuthError(403, `This needs the scope ${required.scope}`, 'insufficient_scope');
        },
        'machine',
      );
    },
    feed,
    close: async () => feed?.close(),
  };
}

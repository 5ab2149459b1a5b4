import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type { Provider } from 'oidc-provider';
import { freePort } from '../tcp-probe.js';

export interface OidcTestUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface OidcTestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** client_secret_basic unless told otherwise. */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

export interface OidcOutcome {
  error: 'access_denied' | 'server_error' | (string & {});
  error_description?: string;
}

export interface TestOidcProviderOptions {
  clients?: OidcTestClient[];
  users?: OidcTestUser[];
  /** Who signs in when nothing is queued; without it an unqueued authorization ends in access_denied. */
  defaultSub?: string;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`; discovery lives at `${issuer}/.well-known/openid-configuration`. */
  readonly issuer: string;
  /** Query parameters of every authorization request received, oldest first. */
  readonly requests: Array<Record<string, string>>;
  addClient(client: OidcTestClient): Promise<void>;
  setUser(user: OidcTestUser): void;
  /** Queues who the next authorization request signs in as (and the `amr` it asserts). */
  nextLogin(sub: string, options?: { amr?: string[] }): void;
  /** Queues an error for the next authorization request, returned to the client's redirect_uri. */
  nextOutcome(outcome: OidcOutcome): void;
  close(): Promise<void>;
}

type Queued = { login: { sub: string; amr?: string[] } } | { outcome: OidcOutcome };

type AdapterPayload = Record<string, unknown>;

/** Per-instance in-memory storage for oidc-provider's models (its built-in one is process-wide and warns). */
function memoryAdapter() {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number | null }>();
  const read = (key: string) => {
    const entry = store.get(key);
    if (entry?.expiresAt && entry.expiresAt < Date.now()) store.delete(key);
    else return entry?.payload;
    return undefined;
  };
  const findBy = (model: string, field: string, value: string) => {
    for (const key of store.keys()) {
      const payload = key.startsWith(`${model}:`) ? read(key) : undefined;
      if (payload?.[field] === value) return payload;
    }
    return undefined;
  };
  return (model: string) => ({
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      store.set(`${model}:${id}`, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
    },
    async find(id: string) {
      return read(`${model}:${id}`);
    },
    async findByUid(uid: string) {
      return findBy(model, 'uid', uid);
    },
    async findByUserCode(userCode: string) {
      return findBy(model, 'userCode', userCode);
    },
    async consume(id: string) {
      const payload = read(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id: string) {
      store.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    },
  });
}

/** oidc-provider warns on import that Node 20 is unsupported; it works, so that one line is dropped. */
async function importOidcProvider(): Promise<typeof Provider> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('oidc-provider WARNING: Unsupported runtime')) warn(...args);
  };
  try {
    return (await import('oidc-provider')).default;
  } finally {
    console.warn = warn;
  }
}

async function devJwks() {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  return {
    keys: [
      { ...(await exportJWK(rsa.privateKey)), alg: 'RS256', use: 'sig', kid: `rs-${randomUUID()}` },
      { ...(await exportJWK(ec.privateKey)), alg: 'ES256', use: 'sig', kid: `es-${randomUUID()}` },
    ],
  };
}

/**
 * A real OpenID Provider (oidc-provider) on loopback: code flow with mandatory S256 PKCE, RS256 ID tokens that
 * carry the email/profile claims and `amr`, and no UI — each authorization signs in whoever is queued.
 */
export async function startTestOidcProvider(options: TestOidcProviderOptions = {}): Promise<TestOidcProvider> {
  const Provider = await importOidcProvider();
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const users = new Map((options.users ?? []).map((user) => [user.sub, user]));
  const queue: Queued[] = [];
  const requests: Array<Record<string, string>> = [];
  const adapter = memoryAdapter();

  const provider = new Provider(issuer, {
    adapter,
    jwks: await devJwks(),
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      acr: null,
      auth_time: null,
      sid: null,
      // oidc-provider puts amr in the ID token only when some scope maps to it (or the claims parameter asks).
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    // Spelled out only because oidc-provider prints a notice for each default it uses.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: false } },
    // Sessions are never kept (see authorization.success below), so tokens must not die with them.
    expiresWithSession: async () => false,
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      if (!users.has(sub)) return undefined;
      return {
        accountId: sub,
        claims: () => {
          const user = users.get(sub) ?? { sub };
          return Object.fromEntries(Object.entries(user).filter(([, value]) => value !== undefined));
        },
      };
    },
    // Errors it can't redirect (unknown client, bad redirect_uri) as JSON rather than an HTML page: easier to read in a failure.
    renderError(ctx: { type: string; body: unknown }, out: Record<string, string>) {
      ctx.type = 'json';
      ctx.body = out;
    },
  });

  // Forget the signed-in session once the code is issued: every authorization then starts without one, so
  // the login prompt (and the queue) always applies, and a different user next time never meets oidc-provider's
  // "log out the previous account first" page.
  provider.on('authorization.success', (ctx: { oidc: { session: { destroyed: boolean } } }) => {
    ctx.oidc.session.destroyed = true;
  });

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const next = queue.shift() ?? (options.defaultSub ? { login: { sub: options.defaultSub } } : undefined);
    if (!next || 'outcome' in next) {
      const outcome = next?.outcome ?? { error: 'access_denied', error_description: 'nobody was queued to sign in' };
      await provider.interactionFinished(req, res, outcome, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: next.login.sub, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: next.login.sub, amr: next.login.amr, remember: false }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    if (url.pathname === '/auth') requests.push(Object.fromEntries(url.searchParams));
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  const addClient = async (client: OidcTestClient) => {
    const metadata = { token_endpoint_auth_method: 'client_secret_basic', ...client };
    await provider.Client.validate(metadata);
    await adapter('Client').upsert(client.client_id, metadata);
  };
  for (const client of options.clients ?? []) await addClient(client);

  return {
    issuer,
    requests,
    addClient,
    setUser: (user) => void users.set(user.sub, user),
    nextLogin(sub, { amr } = {}) {
      if (!users.has(sub)) throw new Error(`unknown test user ${sub}: setUser first`);
      queue.push({ login: { sub, amr } });
    },
    nextOutcome: (outcome) => void queue.push({ outcome }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

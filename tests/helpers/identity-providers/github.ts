import http from 'node:http';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { freePort } from '../tcp-probe.js';

export interface GitHubTestEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  /** GitHub answers 'public' or 'private' for the primary address and null for the others. */
  visibility?: 'public' | 'private' | null;
}

export interface GitHubTestUser {
  id: number;
  login: string;
  name?: string | null;
  /** `[]` for an account whose addresses the app can't see. /user shows the primary one only if it is public. */
  emails: GitHubTestEmail[];
}

export interface GitHubTestClient {
  client_id: string;
  client_secret: string;
  /** The OAuth app's callback URL; when set, redirect_uri must be it or below it (GitHub's rule). */
  callback_url?: string;
}

export interface GitHubOutcome {
  error: 'access_denied' | (string & {});
  error_description?: string;
}

export interface TestGitHubOptions {
  clients?: GitHubTestClient[];
  users?: GitHubTestUser[];
  /** Who authorizes when nothing is queued; without it an unqueued authorization ends in access_denied. */
  defaultUserId?: number;
  /** Accept any client_id with any secret (for a browser run whose client id is chosen at runtime). */
  acceptAnyClient?: boolean;
  /** Listen on this port rather than a free one (a browser run passes the URLs to a server started beside it). */
  port?: number;
}

export interface TestGitHub {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** GitHub Enterprise layout: `${origin}/api/v3`. */
  readonly apiBaseUrl: string;
  /** Query parameters of every /login/oauth/authorize request received, oldest first. */
  readonly requests: Array<Record<string, string>>;
  addClient(client: GitHubTestClient): void;
  setUser(user: GitHubTestUser): void;
  nextLogin(userId: number): void;
  nextOutcome(outcome: GitHubOutcome): void;
  close(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  userId: number;
  redirectUri: string;
  scopes: string[];
  challenge?: string;
  expiresAt: number;
}

const DOCS = 'https://docs.github.com';
const TOKEN_ERROR_DOCS = `${DOCS}/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/`;
const TOKEN_ERRORS = {
  incorrect_client_credentials: ['The client_id and/or client_secret passed are incorrect.', '#incorrect-client-credentials'],
  redirect_uri_mismatch: ['The redirect_uri MUST match the registered callback URL for this application.', '#redirect-uri-mismatch2'],
  bad_verification_code: ['The code passed is incorrect or expired.', '#bad-verification-code'],
  invalid_grant: ['The code_verifier does not match the code_challenge.', ''],
} as const;

const secretMatches = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** GitHub's rule: same scheme, host and port as the callback URL, path equal to it or below it. */
function redirectAllowed(redirectUri: string, callbackUrl: string): boolean {
  try {
    const given = new URL(redirectUri);
    const registered = new URL(callbackUrl);
    const base = registered.pathname.endsWith('/') ? registered.pathname : `${registered.pathname}/`;
    return given.origin === registered.origin && (given.pathname === registered.pathname || given.pathname.startsWith(base));
  } catch {
    return false;
  }
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed: unknown = JSON.parse(text || '{}');
      if (parsed && typeof parsed === 'object') {
        return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
      }
    } catch {
      // GitHub treats an unparsable body as missing parameters
    }
    return {};
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * A loopback stand-in for GitHub's OAuth app flow and the two REST endpoints sign-in needs, with GitHub's
 * shapes and quirks: token errors are HTTP 200, the token response is form-encoded unless JSON is asked for,
 * and /user/emails is 404 without the user:email (or user) scope.
 */
export async function startTestGitHub(options: TestGitHubOptions = {}): Promise<TestGitHub> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const apiBaseUrl = `${origin}/api/v3`;
  const clients = new Map((options.clients ?? []).map((client) => [client.client_id, client]));
  const users = new Map((options.users ?? []).map((user) => [user.id, user]));
  const queue: Array<{ userId: number } | { outcome: GitHubOutcome }> = [];
  const requests: Array<Record<string, string>> = [];
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { userId: number; scopes: string[] }>();

  const clientFor = (clientId: string | undefined): GitHubTestClient | undefined =>
    clientId && options.acceptAnyClient ? (clients.get(clientId) ?? { client_id: clientId, client_secret: '' }) : clients.get(clientId ?? '');

  function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  function authorize(url: URL, res: http.ServerResponse) {
    const params = Object.fromEntries(url.searchParams);
    requests.push(params);
    const client = clientFor(params.client_id);
    if (!client) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><title>Page not found · GitHub</title><h1>404</h1>');
      return;
    }
    const redirectUri = params.redirect_uri ?? client.callback_url;
    if (!redirectUri) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('redirect_uri is required: this test app has no callback URL registered');
      return;
    }
    const back = (query: Record<string, string | undefined>) => {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries(query)) if (value !== undefined) target.searchParams.set(key, value);
      res.writeHead(302, { location: target.href });
      res.end();
    };
    if (client.callback_url && !redirectAllowed(redirectUri, client.callback_url)) {
      // GitHub sends this one back to the registered callback, not to the rejected redirect_uri.
      const target = new URL(client.callback_url);
      target.searchParams.set('error', 'redirect_uri_mismatch');
      target.searchParams.set('error_description', 'The redirect_uri MUST match the registered callback URL for this application.');
      target.searchParams.set('error_uri', `${DOCS}/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch`);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      res.writeHead(302, { location: target.href });
      res.end();
      return;
    }
    if (params.code_challenge !== undefined && (params.code_challenge_method ?? 'plain') !== 'S256') {
      back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256.', state: params.state });
      return;
    }
    const next = queue.shift() ?? (options.defaultUserId !== undefined ? { userId: options.defaultUserId } : undefined);
    if (!next || 'outcome' in next) {
      const outcome = next?.outcome ?? { error: 'access_denied', error_description: 'The user has denied your application access.' };
      back({
        error: outcome.error,
        error_description: outcome.error_description,
        error_uri: `${DOCS}/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#${outcome.error.replaceAll('_', '-')}`,
        state: params.state,
      });
      return;
    }
    const code = randomBytes(10).toString('hex');
    codes.set(code, {
      clientId: client.client_id,
      userId: next.userId,
      redirectUri,
      scopes: (params.scope ?? '').split(/[\s,]+/).filter(Boolean),
      challenge: params.code_challenge,
      expiresAt: Date.now() + 10 * 60 * 1000,
    });
    back({ code, state: params.state });
  }

  async function accessToken(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req);
    const basic = /^basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      body.client_id ??= decodeURIComponent(decoded.slice(0, colon));
      body.client_secret ??= decodeURIComponent(decoded.slice(colon + 1));
    }
    const wantsJson = (req.headers.accept ?? '').includes('application/json');
    const answer = (fields: Record<string, string>) => {
      if (wantsJson) json(res, 200, fields);
      else {
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
        res.end(new URLSearchParams(fields).toString());
      }
    };
    const fail = (error: keyof typeof TOKEN_ERRORS) => {
      const [description, anchor] = TOKEN_ERRORS[error];
      answer({ error, error_description: description, error_uri: anchor ? `${TOKEN_ERROR_DOCS}${anchor}` : TOKEN_ERROR_DOCS });
    };

    const client = clientFor(body.client_id);
    if (!client || !body.client_secret || (!options.acceptAnyClient && !secretMatches(body.client_secret, client.client_secret))) {
      return fail('incorrect_client_credentials');
    }
    const issued = codes.get(body.code ?? '');
    if (!issued || issued.clientId !== client.client_id || issued.expiresAt < Date.now()) {
      return fail('bad_verification_code');
    }
    if (body.redirect_uri !== undefined && body.redirect_uri !== issued.redirectUri) return fail('redirect_uri_mismatch');
    if (issued.challenge !== undefined) {
      const computed = createHash('sha256').update(body.code_verifier ?? '').digest('base64url');
      if (!body.code_verifier || computed !== issued.challenge) return fail('invalid_grant');
    }
    codes.delete(body.code ?? '');
    const token = `gho_${randomBytes(18).toString('base64url')}`;
    tokens.set(token, { userId: issued.userId, scopes: issued.scopes });
    answer({ access_token: token, token_type: 'bearer', scope: issued.scopes.join(',') });
  }

  function api(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
    const documentation = path === '/user' ? `${DOCS}/rest/users/users#get-the-authenticated-user` : `${DOCS}/rest`;
    const credentials = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!req.headers.authorization) {
      return json(res, 401, { message: 'Requires authentication', documentation_url: documentation, status: '401' });
    }
    const grant = credentials ? tokens.get(credentials) : undefined;
    const user = grant && users.get(grant.userId);
    if (!grant || !user) return json(res, 401, { message: 'Bad credentials', documentation_url: `${DOCS}/rest`, status: '401' });

    const headers = { 'x-oauth-scopes': grant.scopes.join(', '), 'x-github-media-type': 'github.v3; format=json' };
    if (req.method === 'GET' && path === '/user') {
      const publicEmail = user.emails.find((e) => e.primary && e.visibility === 'public')?.email ?? null;
      return json(
        res,
        200,
        {
          login: user.login,
          id: user.id,
          node_id: Buffer.from(`04:User${user.id}`).toString('base64'),
          avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
          gravatar_id: '',
          url: `${apiBaseUrl}/users/${user.login}`,
          html_url: `${origin}/${user.login}`,
          type: 'User',
          site_admin: false,
          name: user.name ?? null,
          company: null,
          blog: '',
          location: null,
          email: publicEmail,
          hireable: null,
          bio: null,
          twitter_username: null,
          public_repos: 0,
          public_gists: 0,
          followers: 0,
          following: 0,
          created_at: '2020-01-01T00:00:00Z',
          updated_at: '2020-01-01T00:00:00Z',
        },
        headers,
      );
    }
    if (req.method === 'GET' && path === '/user/emails' && grant.scopes.some((s) => s === 'user' || s === 'user:email')) {
      return json(
        res,
        200,
        user.emails.map((e) => ({
          email: e.email,
          primary: e.primary,
          verified: e.verified,
          visibility: e.visibility !== undefined ? e.visibility : e.primary ? 'private' : null,
        })),
        headers,
      );
    }
    json(res, 404, { message: 'Not Found', documentation_url: `${DOCS}/rest`, status: '404' }, headers);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') return authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      accessToken(req, res).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
      return;
    }
    if (url.pathname.startsWith('/api/v3/')) return api(req, res, url.pathname.slice('/api/v3'.length));
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not Found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    origin,
    authorizeUrl: `${origin}/login/oauth/authorize`,
    tokenUrl: `${origin}/login/oauth/access_token`,
    apiBaseUrl,
    requests,
    addClient: (client) => void clients.set(client.client_id, client),
    setUser: (user) => void users.set(user.id, user),
    nextLogin(userId) {
      if (!users.has(userId)) throw new Error(`unknown test user ${userId}: setUser first`);
      queue.push({ userId });
    },
    nextOutcome: (outcome) => void queue.push({ outcome }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * An app that signs its users in through a project's hosted pages with a standard OpenID Connect
 * client (openid-client: authorization code + PKCE), calls its own API with the access token, and
 * has that API verify the token offline with @authplatform/api. Plain node:http, so nothing hides the flow.
 *
 *   AUTH_URL     where the platform runs (its APP_URL), default http://localhost:3000
 *   PROJECT_KEY  the project's key (pk_…): its client_id; register APP_URL/callback as a redirect URI
 *                and APP_URL/ as a post-logout redirect URI in the project's settings
 *   PORT         default 4000; APP_URL defaults to http://localhost:PORT
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import * as oidc from 'openid-client';
import { AccessTokenError, verifyAccessToken } from '../../packages/api/src/index.js';

const authUrl = (process.env.AUTH_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const projectKey = process.env.PROJECT_KEY ?? '';
const port = Number(process.env.PORT ?? 4000);
const appUrl = (process.env.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
if (!/^pk_/.test(projectKey)) {
  console.error('PROJECT_KEY must be your project key (pk_…): see examples/README.md');
  process.exit(1);
}

// Plain http is for a local platform only; openid-client insists on https otherwise.
const insecure = authUrl.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined;
const config = await oidc.discovery(new URL(`${authUrl}/projects/${projectKey}`), projectKey, undefined, oidc.None(), insecure);

interface Pending {
  verifier: string;
  state: string;
  nonce: string;
}
interface SignedIn {
  accessToken: string;
  idToken: string;
  name: string;
  email: string;
}
/** This demo keeps its sessions in memory, keyed by an HttpOnly cookie. */
const sessions = new Map<string, Pending | SignedIn>();
/**
 * Sign-ins started and not yet back, by their state, for ten minutes: a sign-in the user finished from a
 * mailed link opened in another browser (the verification or reset mail) comes back there, without this
 * browser's cookie. Finding it by its state costs the cookie's protection against a callback link
 * someone else sends (login CSRF), so the page names the account that signed in; an app that does not
 * want that keeps the cookie check only and tells the user to go back to the tab they started in.
 */
const startedByState = new Map<string, Pending>();
const STARTED_TTL_MS = 10 * 60 * 1000;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Example app</title>` +
  `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}pre{background:#f1f3f5;padding:1rem;overflow:auto}</style></head><body><h1>Example app</h1>${body}</body></html>`;

function sessionOf(request: http.IncomingMessage): { id: string; value: Pending | SignedIn | undefined } {
  const id = /(?:^|;\s*)example_sid=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];
  return id ? { id, value: sessions.get(id) } : { id: randomUUID(), value: undefined };
}

function send(response: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers });
  response.end(body);
}
const redirect = (response: http.ServerResponse, location: string, headers: Record<string, string> = {}) => send(response, 303, '', { location, ...headers });
const cookie = (id: string) => `example_sid=${id}; HttpOnly; SameSite=Lax; Path=/`;

/** The app's own API: it trusts only access tokens of its project, checked offline against the project's JWKS. */
async function hello(request: http.IncomingMessage, response: http.ServerResponse) {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  try {
    const claims = await verifyAccessToken(token, { appUrl: authUrl, projectKey });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: `Hello, ${claims.userId}`, session: claims.sessionId }));
  } catch (error) {
    if (!(error instanceof AccessTokenError)) throw error;
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ detail: error.message }));
  }
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? '/', appUrl);
  const session = sessionOf(request);

  if (url.pathname === '/api/hello') return hello(request, response);

  if (url.pathname === '/login') {
    const pending: Pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    sessions.set(session.id, pending);
    startedByState.set(pending.state, pending);
    setTimeout(() => startedByState.delete(pending.state), STARTED_TTL_MS).unref();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${appUrl}/callback`,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return redirect(response, authorize.href, { 'set-cookie': cookie(session.id) });
  }

  if (url.pathname === '/callback') {
    const state = url.searchParams.get('state') ?? '';
    const pending = session.value && 'verifier' in session.value ? session.value : startedByState.get(state);
    if (!pending) return redirect(response, '/');
    startedByState.delete(pending.state);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce });
      const claims = tokens.claims()!;
      sessions.set(session.id, { accessToken: tokens.access_token, idToken: tokens.id_token!, name: String(claims.name ?? ''), email: String(claims.email ?? '') });
      return redirect(response, '/', { 'set-cookie': cookie(session.id) });
    } catch (error) {
      sessions.delete(session.id);
      return send(response, 400, page(`<p role="alert">Sign-in failed: ${escape(error instanceof Error ? error.message : String(error))}</p><p><a href="/login">Try again</a></p>`));
    }
  }

  if (url.pathname === '/logout') {
    const signedIn = session.value && 'idToken' in session.value ? session.value : undefined;
    sessions.delete(session.id);
    if (!signedIn) return redirect(response, '/');
    return redirect(response, oidc.buildEndSessionUrl(config, { id_token_hint: signedIn.idToken, post_logout_redirect_uri: `${appUrl}/` }).href);
  }

  if (url.pathname === '/') {
    const signedIn = session.value && 'accessToken' in session.value ? session.value : undefined;
    if (!signedIn) return send(response, 200, page('<p>You are not signed in.</p><p><a href="/login">Sign in</a></p>'));
    // The app calls its own API with the user's access token, as its front end would.
    const api = await fetch(`${appUrl}/api/hello`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } });
    const answer = await api.text();
    return send(
      response,
      200,
      page(
        `<p>Signed in as <strong>${escape(signedIn.name || signedIn.email)}</strong> (${escape(signedIn.email)}).</p>` +
          `<h2>GET /api/hello</h2><pre data-testid="api-answer">${api.status} ${escape(answer)}</pre><p><a href="/logout">Sign out</a></p>`,
      ),
    );
  }
  send(response, 404, page('<p>Not found</p>'));
}

http
  .createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) send(response, 500, page('<p>Something went wrong.</p>'));
    });
  })
  .listen(port, () => console.log(`Example app on ${appUrl} (project ${projectKey} at ${authUrl})`));

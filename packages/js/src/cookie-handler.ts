import * as oauth from 'oauth4webapi';
import { COOKIE_ROUTE_HEADER } from './transport.js';

export interface CookieHandlerOptions {
  /** The project's issuer, APP_URL/projects/{project_key}. */
  issuer: string;
  /** The project key. */
  clientId: string;
  /** Default `authplatform_refresh`. */
  cookieName?: string;
  /** The path the cookie is sent to: the route's own (default `/auth/session`). */
  cookiePath?: string;
  /** Default 30 days; the server's refresh-token lifetime still applies. */
  cookieMaxAgeS?: number;
  /** Whether the cookie is Secure; default true except on http://localhost and 127.0.0.1. */
  secure?: boolean;
  /** Origins allowed to call the route besides the request's own. */
  allowedOrigins?: string[];
  fetch?: typeof fetch;
}

type Action = { action: 'exchange'; callback: string; code_verifier: string; redirect_uri: string; nonce: string } | { action: 'refresh' } | { action: 'revoke' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The backend half of cookie mode, as a Fetch API handler (`(Request) => Promise<Response>`: mount it
 * in Express, Fastify, Hono, a Next.js route…). It exchanges the code, keeps the refresh token in an
 * HttpOnly, SameSite=Strict cookie scoped to its own path, refreshes and revokes; the browser only
 * ever sees access and ID tokens. A custom header is required, so another site cannot call it.
 */
export function createCookieHandler(options: CookieHandlerOptions): (request: Request) => Promise<Response> {
  const name = options.cookieName ?? 'authplatform_refresh';
  const path = options.cookiePath ?? '/auth/session';
  const maxAge = options.cookieMaxAgeS ?? 30 * 24 * 3600;
  const issuer = new URL(options.issuer);
  const insecure = issuer.protocol === 'http:';
  const request = { [oauth.customFetch]: options.fetch ?? fetch, [oauth.allowInsecureRequests]: insecure };
  const client: oauth.Client = { client_id: options.clientId };
  const auth = oauth.None();
  let server: Promise<oauth.AuthorizationServer> | undefined;
  const discover = () =>
    (server ??= oauth
      .discoveryRequest(issuer, { algorithm: 'oidc', ...request })
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
      .catch((error: unknown) => {
        server = undefined;
        throw error;
      }));

  return async (incoming) => {
    const url = new URL(incoming.url);
    const secure = options.secure ?? !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
    const cookie = (value: string, age: number) =>
      `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${age}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
    const origin = incoming.headers.get('origin');
    if (incoming.method !== 'POST' || incoming.headers.get(COOKIE_ROUTE_HEADER) !== '1') return json(400, { error: 'invalid_request', error_description: `POST with the ${COOKIE_ROUTE_HEADER} header` });
    if (origin && origin !== url.origin && !options.allowedOrigins?.includes(origin)) return json(403, { error: 'invalid_request', error_description: 'Origin not allowed' });
    let body: Action;
    try {
      body = (await incoming.json()) as Action;
    } catch {
      return json(400, { error: 'invalid_request', error_description: 'The body must be JSON' });
    }
    const refreshToken = readCookie(incoming.headers.get('cookie'), name);
    try {
      const as = await discover();
      const answer = async (tokens: oauth.TokenEndpointResponse) =>
        json(
          200,
          { access_token: tokens.access_token, expires_in: tokens.expires_in, id_token: tokens.id_token, scope: tokens.scope },
          tokens.refresh_token ? { 'set-cookie': cookie(tokens.refresh_token, maxAge) } : { 'set-cookie': cookie('', 0) },
        );
      if (body.action === 'exchange') {
        const params = oauth.validateAuthResponse(as, client, new URLSearchParams(body.callback), oauth.skipStateCheck);
        const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, body.redirect_uri, body.code_verifier, request);
        return await answer(await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: body.nonce, requireIdToken: true }));
      }
      if (body.action === 'refresh') {
        if (!refreshToken) return json(401, { error: 'invalid_grant', error_description: 'No session cookie' });
        return await answer(await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, request)));
      }
      if (body.action === 'revoke') {
        if (refreshToken) await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshToken, request));
        return json(204, null, { 'set-cookie': cookie('', 0) });
      }
      return json(400, { error: 'invalid_request', error_description: 'action must be exchange, refresh or revoke' });
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
        return json(401, { error: 'invalid_grant', error_description: error.error_description ?? 'The session has ended' }, { 'set-cookie': cookie('', 0) });
      }
      if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
        return json(400, { error: error.error, error_description: error.error_description ?? error.error });
      }
      return json(502, { error: 'server_error', error_description: error instanceof Error ? error.message : 'The provider could not be reached' });
    }
  };
}

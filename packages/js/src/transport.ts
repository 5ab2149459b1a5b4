import * as oauth from 'oauth4webapi';
import { AuthError } from './errors.js';

/** What the token endpoint (or the app's cookie route) answered. */
export interface TokenResponse {
  accessToken: string;
  expiresIn: number;
  idToken?: string;
  /** Absent in cookie mode: the app's backend keeps it. */
  refreshToken?: string;
  scope?: string;
}

/** How the client reaches the token-side endpoints: straight to the provider, or through the app's cookie route. */
export interface Transport {
  /** Whether this page holds the refresh token (false: an HttpOnly cookie of the app's backend does). */
  readonly holdsRefreshToken: boolean;
  exchangeCode(as: oauth.AuthorizationServer, callback: URLSearchParams, redirectUri: string, verifier: string, nonce: string): Promise<TokenResponse>;
  refresh(as: oauth.AuthorizationServer, refreshToken: string | undefined): Promise<TokenResponse>;
  /** Ends the session at the server (RFC 7009 revocation, or the cookie route's). */
  revoke(as: oauth.AuthorizationServer, token: string | undefined): Promise<void>;
}

export interface TransportOptions {
  clientId: string;
  fetch: typeof fetch;
  allowInsecureRequests: boolean;
}

/** Any failure of a token-side call as an AuthError: invalid_grant is final, everything else is transient. */
export function asAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const description = error.error_description ?? error.error;
    if (error.error === 'invalid_grant') return new AuthError('invalid_grant', description, error.error);
    return new AuthError('server_error', description, error.error);
  }
  if (error instanceof oauth.AuthorizationResponseError) return new AuthError('callback_error', error.error_description ?? error.error, error.error);
  if (error instanceof oauth.OperationProcessingError) {
    // A response that is not the protocol's (a 5xx page from a proxy) is the server's trouble; a failed check is the answer's.
    const code = error.code === oauth.RESPONSE_IS_NOT_CONFORM || error.code === oauth.RESPONSE_IS_NOT_JSON ? 'server_error' : 'invalid_response';
    return new AuthError(code, error.message);
  }
  if (error instanceof TypeError) return new AuthError('network_error', error.message);
  return new AuthError('server_error', error instanceof Error ? error.message : String(error));
}

function requestOptions(options: TransportOptions) {
  return { [oauth.customFetch]: options.fetch, [oauth.allowInsecureRequests]: options.allowInsecureRequests };
}

function tokenResponse(answer: oauth.TokenEndpointResponse): TokenResponse {
  return {
    accessToken: answer.access_token,
    expiresIn: typeof answer.expires_in === 'number' ? answer.expires_in : 300,
    idToken: answer.id_token,
    refreshToken: answer.refresh_token,
    scope: answer.scope,
  };
}

/** A public client (PKCE, no secret) talking to the provider's token and revocation endpoints itself. */
export function directTransport(options: TransportOptions): Transport {
  const client: oauth.Client = { client_id: options.clientId };
  const auth = oauth.None();
  const request = requestOptions(options);
  return {
    holdsRefreshToken: true,
    async exchangeCode(as, callback, redirectUri, verifier, nonce) {
      try {
        const response = await oauth.authorizationCodeGrantRequest(as, client, auth, callback, redirectUri, verifier, request);
        return tokenResponse(await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true }));
      } catch (error) {
        throw asAuthError(error);
      }
    },
    async refresh(as, refreshToken) {
      if (!refreshToken) throw new AuthError('invalid_grant', 'No refresh token: the session cannot be renewed');
      try {
        const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, request);
        return tokenResponse(await oauth.processRefreshTokenResponse(as, client, response));
      } catch (error) {
        throw asAuthError(error);
      }
    },
    async revoke(as, token) {
      if (!token || !as.revocation_endpoint) return;
      try {
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, token, request));
      } catch (error) {
        throw asAuthError(error);
      }
    },
  };
}

/** The header that makes a cross-site call to the cookie route need a CORS preflight (which it never gets). */
export const COOKIE_ROUTE_HEADER = 'x-authplatform-request';

/**
 * The refresh token in an HttpOnly cookie of the app's own backend (see ./cookie-handler): the page
 * sends the code and verifier there, and asks it to refresh or to sign out; the refresh token never
 * reaches JavaScript.
 */
export function cookieTransport(endpoint: string, options: Pick<TransportOptions, 'fetch'>): Transport {
  const call = async (body: Record<string, string>): Promise<Response> => {
    let response: Response;
    try {
      response = await options.fetch(endpoint, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', [COOKIE_ROUTE_HEADER]: '1' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw asAuthError(error);
    }
    if (response.ok) return response;
    const answer = (await response.json().catch(() => ({}))) as { error?: string; error_description?: string };
    if (answer.error === 'invalid_grant') throw new AuthError('invalid_grant', answer.error_description ?? 'The session has ended', 'invalid_grant');
    throw new AuthError('server_error', answer.error_description ?? `The cookie route answered ${response.status}`, answer.error);
  };
  const tokens = async (response: Response): Promise<TokenResponse> => {
    const answer = (await response.json()) as { access_token?: unknown; expires_in?: unknown; id_token?: unknown; scope?: unknown };
    if (typeof answer.access_token !== 'string') throw new AuthError('invalid_response', 'The cookie route answered no access_token');
    return {
      accessToken: answer.access_token,
      expiresIn: typeof answer.expires_in === 'number' ? answer.expires_in : 300,
      idToken: typeof answer.id_token === 'string' ? answer.id_token : undefined,
      scope: typeof answer.scope === 'string' ? answer.scope : undefined,
    };
  };
  return {
    holdsRefreshToken: false,
    async exchangeCode(as, callback, redirectUri, verifier, nonce) {
      // The state was checked here (this page holds it); the route checks the rest of the answer and the ID token's nonce.
      return tokens(await call({ action: 'exchange', callback: callback.toString(), code_verifier: verifier, redirect_uri: redirectUri, nonce }));
    },
    async refresh() {
      return tokens(await call({ action: 'refresh' }));
    },
    async revoke() {
      await call({ action: 'revoke' });
    },
  };
}

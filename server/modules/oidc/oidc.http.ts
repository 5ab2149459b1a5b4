import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { HOSTED_COOKIES } from '../../plugins/auth-cookies.js';
import { readBearer } from '../../lib/bearer.js';
import { hostedInfoOf, requestInfoOf } from '../../plugins/request-info.js';
import { urlListOf } from '../projects/redirect-uris.js';
import { authenticate, liveSessionDetails, refreshSession, revokeOneSession, type SessionDetails } from '../sessions/sessions.service.js';
import { singleParam, type Params } from './authorization-request.js';
import { discoveryDocument } from './discovery.js';
import { errorPage } from './error-page.js';
import { AuthorizationPageError, OAuthError } from './oauth-error.js';
import { authorize, continueAuthorization, exchangeCode, introspect, planLogout, refreshGrant, revokeToken, userInfo, type Provider } from './oidc.service.js';
import { pollDeviceAuthorization, startDeviceAuthorization } from './device-authorization.service.js';
import { authenticateMachineClient, chargeClientCredentials, clientCredentialsGrant, MACHINE_CLIENT_ID_PREFIX } from './machine-clients.service.js';
import type { MachineClientRow } from './machine-clients.repo.js';
import { issuerOf } from '../projects/project-urls.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An OAuth endpoint called by apps' backends and browsers: form bodies, CORS by the project's settings, no cookies. */
    oauthEndpoint?: boolean;
  }
}

type KeyParams = { project_key: string };
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * Every project is an OpenID Connect provider (issuer APP_URL/projects/{project_key}, client_id the
 * project key). The browser endpoints (authorize, logout) live beside the hosted pages so they read
 * the hosted session's cookies; the token-side endpoints under the issuer.
 */
export async function registerOidcProvider(app: FastifyInstance, deps: Deps): Promise<void> {
  const providerOf = async (request: FastifyRequest): Promise<Provider> => deps.projectRealms.hostedRealm((request.params as KeyParams).project_key);

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      const params: Params = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        const seen = params[name];
        params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      }
      done(null, params);
    });

    scope.get('/projects/:project_key/.well-known/openid-configuration', async (request, reply) => {
      const { project } = await providerOf(request);
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
      return discoveryDocument(deps.config, project.project_key);
    });

    // --- Browser endpoints: errors the app cannot be trusted with are pages, the rest are redirects.
    const browserEndpoint =
      (run: (provider: Provider, request: FastifyRequest, reply: FastifyReply) => Promise<string>) => async (request: FastifyRequest, reply: FastifyReply) => {
        reply.header('cache-control', 'no-store');
        try {
          const provider = await providerOf(request);
          return reply.redirect(await run(provider, request, reply), 303);
        } catch (error) {
          const page = error instanceof AuthorizationPageError ? error : error instanceof AppError ? pageOf(error) : null;
          if (!page) throw error;
          if (error instanceof AppError && error.retryAfterS) reply.header('retry-after', String(error.retryAfterS));
          return reply.code(page.status).type('text/html; charset=utf-8').send(errorPage(page.title, page.description, page.actions));
        }
      };

    scope.get(
      '/hosted/:project_key/authorize',
      browserEndpoint(async (provider, request, reply) =>
        authorize(deps, provider, request.query as Params, await hostedSessionOf(deps, provider, request, reply), requestInfoOf(request, 'oidc')),
      ),
    );
    scope.get(
      '/hosted/:project_key/authorize/continue',
      browserEndpoint(async (provider, request, reply) => {
        const interaction = (request.query as Params).interaction;
        return continueAuthorization(deps, provider, typeof interaction === 'string' ? interaction : '', await hostedSessionOf(deps, provider, request, reply));
      }),
    );
    scope.get(
      '/hosted/:project_key/logout',
      browserEndpoint(async (provider, request, reply) => {
        const params = request.query as Params;
        const plan = planLogout(deps, provider, params);
        const hosted = await hostedSessionOf(deps, provider, request, reply);
        if (plan.endSessionId) await endAppSession(deps, provider, plan.endSessionId, plan.hintedUserId);
        if (hosted && plan.hintedUserId === null) {
          // No proof the app asked for this: the user confirms on the hosted page, which comes back here signed out.
          return `${deps.config.appUrl}/hosted/${provider.project.project_key}/sign-out?${new URLSearchParams(params as Record<string, string>)}`;
        }
        if (hosted && hosted.userId === plan.hintedUserId) {
          await revokeOneSession(deps, provider.realm, hosted.id, 'logout');
          HOSTED_COOKIES.clear(reply, request, deps.config);
        }
        return plan.redirect;
      }),
    );

    // --- Token-side endpoints: OAuth error bodies, CORS for the project's allowed origins.
    const oauthEndpoint =
      (run: (provider: Provider, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        try {
          const provider = await providerOf(request);
          allowCors(provider, request, reply);
          return await run(provider, request, reply);
        } catch (error) {
          const oauth =
            error instanceof OAuthError
              ? error
              : error instanceof AppError && error.code === 'NOT_FOUND'
                ? new OAuthError('invalid_client', 'Unknown client', 404)
                : error instanceof AppError && error.code === 'FORBIDDEN'
                  ? new OAuthError('invalid_client', error.detail, 403)
                  : error instanceof AppError && error.code === 'TOO_MANY_REQUESTS'
                    ? new OAuthError('slow_down', error.detail, 429, error.retryAfterS)
                    : null;
          if (!oauth) throw error;
          if (oauth.retryAfterS) reply.header('retry-after', String(oauth.retryAfterS));
          // RFC 6749 §5.2: a 401 for client authentication names the scheme to use.
          if (oauth.error === 'invalid_client' && oauth.status === 401) {
            reply.header('www-authenticate', `Basic realm="${issuerOf(deps.config, (request.params as KeyParams).project_key)}", charset="UTF-8"`);
          }
          return reply.code(oauth.status).send(oauth.body());
        }
      };
    const config = { oauthEndpoint: true };
    const formOf = (request: FastifyRequest): Params => {
      if (!request.body || typeof request.body !== 'object' || !/^application\/x-www-form-urlencoded/i.test(request.headers['content-type'] ?? '')) {
        throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
      }
      return request.body as Params;
    };

    scope.post(
      '/projects/:project_key/oauth/token',
      { config },
      oauthEndpoint(async (provider, request) => {
        const form = formOf(request);
        const grantType = singleParam(form, 'grant_type');
        const info = requestInfoOf(request, 'oidc');
        const client = await authenticateClient(deps, provider, request, form);
        if (grantType === CLIENT_CREDENTIALS) {
          if (!client.machine) throw new OAuthError('unauthorized_client', 'client_credentials is for the project\'s machine clients (client_id mc_…)');
          return clientCredentialsGrant(deps, provider, client.machine, singleParam(form, 'scope'));
        }
        if (client.machine) throw new OAuthError('unauthorized_client', 'A machine client may only use grant_type=client_credentials');
        if (grantType === 'authorization_code') {
          return exchangeCode(deps, provider, { code: singleParam(form, 'code'), redirectUri: singleParam(form, 'redirect_uri'), codeVerifier: singleParam(form, 'code_verifier') });
        }
        if (grantType === 'refresh_token') return refreshGrant(deps, provider, singleParam(form, 'refresh_token'), info);
        if (grantType === DEVICE_CODE) return pollDeviceAuthorization(deps, provider, singleParam(form, 'device_code'), info);
        throw new OAuthError('unsupported_grant_type', `grant_type must be one of ${GRANT_TYPES.join(', ')}`);
      }),
    );

    scope.post(
      '/projects/:project_key/oauth/device_authorization',
      { config },
      oauthEndpoint(async (provider, request) => {
        const form = formOf(request);
        const client = await authenticateClient(deps, provider, request, form);
        if (client.machine) throw new OAuthError('unauthorized_client', 'A machine client may only use grant_type=client_credentials');
        return startDeviceAuthorization(deps, provider, form, requestInfoOf(request, 'oidc'));
      }),
    );

    const userinfo = oauthEndpoint(async (provider, request, reply) => {
      const token = readBearer(request);
      try {
        return await userInfo(deps, provider, await authenticate(deps, provider.realm, token));
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'UNAUTHORIZED')) throw error;
        reply.header('www-authenticate', token ? 'Bearer error="invalid_token"' : 'Bearer');
        throw new OAuthError('invalid_token', error.detail, 401);
      }
    });
    scope.get('/projects/:project_key/oauth/userinfo', { config }, userinfo);
    scope.post('/projects/:project_key/oauth/userinfo', { config }, userinfo);

    scope.post(
      '/projects/:project_key/oauth/revoke',
      { config },
      oauthEndpoint(async (provider, request, reply) => {
        const form = formOf(request);
        const client = await authenticateClient(deps, provider, request, form);
        if (client.machine) throw new OAuthError('unauthorized_client', 'A machine client\'s tokens run out on their own; revoke the client in the project\'s settings');
        await revokeToken(deps, provider, singleParam(form, 'token'));
        return reply.code(200).send();
      }),
    );

    scope.post(
      '/projects/:project_key/oauth/introspect',
      { config },
      oauthEndpoint(async (provider, request) => {
        const form = formOf(request);
        const client = await authenticateClient(deps, provider, request, form);
        if (!client.confidential) throw new OAuthError('invalid_client', 'Introspection needs one of the project\'s API keys as the client secret', 401);
        return introspect(deps, provider, singleParam(form, 'token'));
      }),
    );

    scope.options(
      '/projects/:project_key/oauth/*',
      { config },
      oauthEndpoint(async (_provider, _request, reply) => reply.code(204).send()),
    );
  });
}

const PAGE_TITLES: Partial<Record<AppError['code'], string>> = {
  NOT_FOUND: 'Unknown application',
  FORBIDDEN: 'Application unavailable',
  TOO_MANY_REQUESTS: 'Too many sign-in requests',
};

/** The refusals a browser endpoint shows as a page (with their status); anything else is the API's error. */
function pageOf(error: AppError): AuthorizationPageError | null {
  const title = PAGE_TITLES[error.code];
  return title ? new AuthorizationPageError(title, error.detail, error.httpStatus) : null;
}

/** CORS for the token-side endpoints: exactly the project's allowed origins, no credentials. */
function allowCors(provider: Provider, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (!origin || !urlListOf(provider.project.allowed_origins).includes(origin)) return;
  reply.header('access-control-allow-origin', origin);
  if (request.method === 'OPTIONS') {
    reply
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'Authorization, Content-Type')
      .header('access-control-max-age', '600');
  }
}

const CLIENT_CREDENTIALS = 'client_credentials';
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const GRANT_TYPES = ['authorization_code', 'refresh_token', CLIENT_CREDENTIALS, DEVICE_CODE];

interface AuthenticatedClient {
  /** The project's own client proven with one of its API keys, or a machine client. */
  confidential: boolean;
  machine: MachineClientRow | null;
}

/**
 * The client of a token-side call is the project (client_id = its key) or one of its machine clients
 * (client_id mc_…, which must prove itself with its secret). The project's confidential client proves
 * itself with one of its API keys as the secret (client_secret_basic or _post); a public client
 * (browser, mobile, CLI) sends only its client_id and relies on PKCE or the device flow.
 */
async function authenticateClient(deps: Deps, provider: Provider, request: FastifyRequest, form: Params): Promise<AuthenticatedClient> {
  const { project } = provider;
  const header = request.headers.authorization;
  const basic = header && /^Basic\s+(\S+)$/i.exec(header)?.[1];
  const postSecret = singleParam(form, 'client_secret');
  const postId = singleParam(form, 'client_id');
  const invalid = (why: string) => new OAuthError('invalid_client', why, 401);
  if (basic && postSecret) throw new OAuthError('invalid_request', 'Use one client authentication method');

  let clientId: string | undefined;
  let secret: string | undefined;
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalid('Malformed Basic credentials');
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw invalid('Malformed Basic credentials');
    }
    if (postId !== undefined && postId !== clientId) throw new OAuthError('invalid_request', 'client_id does not match the credentials');
  } else {
    clientId = postId;
    secret = postSecret;
  }
  if (clientId?.startsWith(MACHINE_CLIENT_ID_PREFIX)) {
    // Spent before the secret is checked, whatever the grant: wrong secrets count too.
    await chargeClientCredentials(deps, provider, requestInfoOf(request, 'oidc').network);
    return { confidential: true, machine: await authenticateMachineClient(deps, project, clientId, secret) };
  }
  if (clientId !== project.project_key) throw invalid('Unknown client');
  if (secret === undefined) return { confidential: false, machine: null };
  try {
    const { project: keyProject } = await deps.projectRealms.authenticateApiKey(secret);
    if (keyProject.id !== project.id) throw invalid('Invalid client secret');
  } catch (error) {
    if (error instanceof AppError) throw invalid('Invalid client secret');
    throw error;
  }
  return { confidential: true, machine: null };
}

/**
 * The hosted pages' session in this browser: its access cookie, or once that has expired, its refresh
 * cookie (rotated, as the hosted pages would). Null when there is none that works.
 */
async function hostedSessionOf(deps: Deps, provider: Provider, request: FastifyRequest, reply: FastifyReply): Promise<SessionDetails | null> {
  const { realm } = provider;
  const access = HOSTED_COOKIES.readAccess(request);
  if (access) {
    try {
      const signedIn = await authenticate(deps, realm, access);
      return await liveSessionDetails(deps, realm, signedIn.sessionId);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNAUTHORIZED')) throw error;
    }
  }
  const refresh = HOSTED_COOKIES.readRefresh(request);
  if (!refresh) return null;
  try {
    const tokens = await refreshSession(deps, realm, refresh, hostedInfoOf(request));
    HOSTED_COOKIES.set(reply, request, deps.config, tokens, realm.policy);
    return await liveSessionDetails(deps, realm, realm.accessTokens.verify(tokens.access_token)!.sid);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'UNAUTHORIZED')) throw error;
    HOSTED_COOKIES.clear(reply, request, deps.config);
    return null;
  }
}

/** Ends the app's session an id_token_hint names, when it is still that user's. */
async function endAppSession(deps: Deps, provider: Provider, sessionId: string, userId: string | null): Promise<void> {
  const session = await liveSessionDetails(deps, provider.realm, sessionId);
  if (session && session.userId === userId) await revokeOneSession(deps, provider.realm, session.id, 'logout');
}

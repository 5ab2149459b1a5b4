import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.js';
import type { ProjectRow, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoIn, isoNow } from '../../lib/clock.js';
import { constantTimeEqual, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { admitPending, chargePendingStart, type PendingKind } from '../pending/pending-rows.js';
import { hostedPagesUrlOf, hostedSsoStartUrlOf, issuerOf } from '../projects/project-urls.js';
import { connectionForEmail } from '../sso-routing/sso-routing.js';
import { appHomeOf } from '../projects/projects.service.js';
import { isRegisteredRedirect } from '../projects/redirect-uris.js';
import type { Realm } from '../realms/realm.js';
import {
  liveSessionDetails,
  refreshSession,
  revokeOneSession,
  sessionOfRefreshToken,
  startSession,
  type SessionDetails,
} from '../sessions/sessions.service.js';
import { findUser } from '../users/users.service.js';
import { parseMetadata } from '../../lib/metadata.js';
import { listMembershipsOfUser, organizationOfMember } from '../organizations/organizations.repo.js';
import { checkClientAndRedirect, parseAuthorizationRequest, redirectWith, type AuthorizationRequest, type Params } from './authorization-request.js';
import { AuthorizationPageError, OAuthError } from './oauth-error.js';
import {
  countWaitingInteractions,
  deleteCodesExpiredBefore,
  deleteExpiredWaitingOAuthRows,
  deleteInteraction,
  findCode,
  findInteraction,
  insertCode,
  insertInteraction,
  recordIssuedSession,
  spendCode,
} from './oidc.repo.js';

/** Authorization codes work once, within this long (issue: 60 seconds). */
export const CODE_TTL_S = 60;
/** How long the hosted sign-in may take before the app must start over. */
export const INTERACTION_TTL_S = 30 * 60;
export const ID_TOKEN_TTL_S = 60 * 60;
export const DEFAULT_SCOPE = 'openid email profile';
const AUTHORIZATION_REQUESTS: PendingKind = { name: 'oauth-interaction', perNetwork: 'authorizePerIp', perProject: 'authorizePerProject', ttlS: INTERACTION_TTL_S };

/** The provider of one project: its realm (signer, limits), its row (client settings) and its addresses. */
export interface Provider {
  realm: Realm;
  project: ProjectRow;
}

const hostedPage = (deps: Deps, project: ProjectRow, page: string, query: Record<string, string>) =>
  `${hostedPagesUrlOf(deps.config, project.project_key)}/${page}?${new URLSearchParams(query)}`;

const epochS = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function signedInTooLongAgo(deps: Deps, request: AuthorizationRequest, session: SessionDetails): boolean {
  return request.maxAge !== null && epochS(session.authenticatedAt) + request.maxAge < Math.floor(deps.clock.now().getTime() / 1000);
}

/**
 * The authorization endpoint. An unknown client or unregistered redirect URI throws
 * AuthorizationPageError (an error page); every other answer is a redirect: back to the app with a
 * code or an error, or to the hosted sign-in (sign-up for prompt=create) holding the request. Held
 * requests are made without a session, so they are limited and capped per client network and per
 * project (pending-rows.ts).
 */
export async function authorize(deps: Deps, provider: Provider, params: Params, session: SessionDetails | null, client: RequestInfo): Promise<string> {
  const { project } = provider;
  const redirectUri = checkClientAndRedirect(deps.config, project, params);
  const issuer = issuerOf(deps.config, project.project_key);
  const state = typeof params.state === 'string' && params.state.length <= 2000 ? params.state : null;
  let request: AuthorizationRequest;
  try {
    request = parseAuthorizationRequest(params, redirectUri);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return redirectWith(redirectUri, issuer, state, { error: error.error, error_description: error.description });
  }

  const current = session && !signedInTooLongAgo(deps, request, session) ? session : null;
  if (request.prompt.includes('none')) {
    if (!current) return redirectWith(redirectUri, issuer, request.state, { error: 'login_required', error_description: 'The user is not signed in' });
    return issueCode(deps, provider, request, current);
  }
  if (current && !request.prompt.includes('login') && !request.prompt.includes('create')) return issueCode(deps, provider, request, current);

  await chargePendingStart(deps, provider.realm, client, AUTHORIZATION_REQUESTS);
  const id = randomToken(24);
  const interaction = { id, project_id: project.id, params: JSON.stringify(request), client_network: client.network, created_at: isoNow(deps.clock), expires_at: isoIn(deps.clock, INTERACTION_TTL_S) };
  await admitPending(deps, provider.realm, client, AUTHORIZATION_REQUESTS, countWaitingInteractions, (db) => insertInteraction(db, interaction));
  // login_hint with an address of a routed domain (home-realm discovery): straight on to its IdP, through the hosted start that binds the browser.
  if (request.loginHint?.includes('@') && (await connectionForEmail(deps.db, project.id, request.loginHint))) {
    const continueAt = `${new URL(hostedPagesUrlOf(deps.config, project.project_key)).pathname}/authorize/continue?${new URLSearchParams({ interaction: id })}`;
    return `${hostedSsoStartUrlOf(deps.config, project.project_key)}?${new URLSearchParams({ email: request.loginHint, return_to: continueAt })}`;
  }
  const page = request.prompt.includes('create') ? 'sign-up' : 'sign-in';
  return hostedPage(deps, project, page, {
    interaction: id,
    ...(request.loginHint ? { login_hint: request.loginHint } : {}),
    ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}),
  });
}

export const INTERACTION_EXPIRED = 'This sign-in request has expired. Go back to the app and sign in again.';

/** The page of a sign-in request that is over: back to the app to start again, or sign in to the project's account page. */
function interactionExpired(deps: Deps, project: ProjectRow): AuthorizationPageError {
  const home = appHomeOf(project);
  const actions = [
    ...(home ? [{ label: `Back to ${project.name}`, href: home }] : []),
    { label: 'Sign in', href: `${hostedPagesUrlOf(deps.config, project.project_key)}/sign-in` },
  ];
  return new AuthorizationPageError('Sign-in request expired', INTERACTION_EXPIRED, 400, actions);
}

/** Whether an app's sign-in is still waiting for the hosted pages (a mailed link that continues it checks first). */
export async function interactionIsWaiting(deps: Deps, provider: Provider, interactionId: string): Promise<boolean> {
  return interactionId.length <= 100 && (await findInteraction(deps.db, interactionId, provider.project.id, isoNow(deps.clock))) !== undefined;
}

/**
 * Back from the hosted sign-in: the request is answered with a code once the hosted session is
 * there and, for prompt=login, create or max_age, made after the request began.
 */
export async function continueAuthorization(deps: Deps, provider: Provider, interactionId: string, session: SessionDetails | null): Promise<string> {
  const { project } = provider;
  const interaction = interactionId.length <= 100 ? await findInteraction(deps.db, interactionId, project.id, isoNow(deps.clock)) : undefined;
  if (!interaction) throw interactionExpired(deps, project);
  const request = JSON.parse(interaction.params) as AuthorizationRequest;
  const mustBeNew = request.prompt.includes('login') || request.prompt.includes('create');
  const fresh = session && !(mustBeNew && session.authenticatedAt < interaction.created_at) && !signedInTooLongAgo(deps, request, session);
  if (!fresh) return hostedPage(deps, project, 'sign-in', { interaction: interaction.id, ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}) });
  await deleteInteraction(deps.db, interaction.id);
  return issueCode(deps, provider, request, session);
}

async function issueCode(deps: Deps, provider: Provider, request: AuthorizationRequest, session: SessionDetails): Promise<string> {
  const issuer = issuerOf(deps.config, provider.project.project_key);
  const organization = request.organization ? await organizationOfMember(deps.db, provider.project.id, session.userId, request.organization) : null;
  if (request.organization && !organization) {
    return redirectWith(request.redirectUri, issuer, request.state, { error: 'access_denied', error_description: 'The user is not a member of this organization' });
  }
  const code = randomToken();
  await insertCode(deps.db, {
    code_hash: sha256(code),
    project_id: provider.project.id,
    user_id: session.userId,
    hosted_session_id: session.id,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    scope: request.scope,
    nonce: request.nonce,
    created_at: isoNow(deps.clock),
    expires_at: isoIn(deps.clock, CODE_TTL_S),
    used_at: null,
    issued_session_id: null,
    organization_id: organization,
  });
  return redirectWith(request.redirectUri, issuer, request.state, { code });
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope?: string;
  id_token?: string;
  refresh_token?: string;
}

const INVALID_CODE = 'The authorization code is invalid or has expired';

function pkceMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return constantTimeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge);
}

/**
 * grant_type=authorization_code: a code works once, within 60 s, for the redirect URI and PKCE
 * verifier it was issued with. Those are checked before the code is spent, so someone who
 * intercepted it without the verifier can neither use nor burn it. Presented again with them, a
 * code revokes the session its first use made. The app gets a session of its own, an ordinary
 * session of the project (monitoring, revocation, idle timeout), on the device and with the proof
 * of the hosted sign-in.
 */
export async function exchangeCode(deps: Deps, provider: Provider, input: { code?: string; redirectUri?: string; codeVerifier?: string }): Promise<TokenAnswer> {
  const { realm, project } = provider;
  if (!input.code || input.code.length > 200) throw new OAuthError('invalid_request', 'code is required');
  const codeHash = sha256(input.code);
  const row = await findCode(deps.db, codeHash);
  if (!row || row.project_id !== project.id) throw new OAuthError('invalid_grant', INVALID_CODE);
  if (input.redirectUri !== row.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!pkceMatches(input.codeVerifier, row.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const now = isoNow(deps.clock);
  if (row.used_at === null && row.expires_at <= now) throw new OAuthError('invalid_grant', INVALID_CODE);
  if (row.used_at !== null || !(await spendCode(deps.db, codeHash, now))) {
    const spent = await findCode(deps.db, codeHash);
    if (spent?.issued_session_id) await revokeOneSession(deps, realm, spent.issued_session_id, 'authorization_code_reuse');
    deps.logger.warn({ projectId: project.id }, 'authorization code presented again; the session it gave is revoked');
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it gave are revoked');
  }

  const hosted = await liveSessionDetails(deps, realm, row.hosted_session_id);
  if (!hosted) throw new OAuthError('invalid_grant', 'The sign-in behind this code has ended');
  const user = await findUser(deps, row.user_id);
  if (!user) throw new OAuthError('invalid_grant', INVALID_CODE);
  const { sessionId, tokens } = await startSession(
    deps,
    realm,
    user.id,
    hosted.deviceId,
    { ip: hosted.ipAddress, userAgent: hosted.userAgent, client: 'oidc', clientName: project.name },
    { authMethods: hosted.authMethods, authenticatedAt: hosted.authenticatedAt, oauthScope: row.scope },
    row.organization_id,
  );
  await recordIssuedSession(deps.db, codeHash, sessionId);
  const scopes = row.scope.split(' ');
  return {
    access_token: tokens.access_token,
    token_type: 'Bearer',
    expires_in: tokens.expires_in,
    scope: row.scope,
    id_token: realm.accessTokens.signIdToken(
      await idTokenClaims(deps, user, { id: sessionId, authMethods: hosted.authMethods, authenticatedAt: hosted.authenticatedAt }, scopes, row.nonce),
      ID_TOKEN_TTL_S,
    ),
    ...(scopes.includes('offline_access') ? { refresh_token: tokens.refresh_token } : {}),
  };
}

const SESSION_REVOKED = 'The session has been revoked. Please sign in again.';

/** grant_type=refresh_token: the public API's rotation and reuse rules (a spent token revokes the session). */
export async function refreshGrant(deps: Deps, provider: Provider, refreshToken: string | undefined, request: RequestInfo): Promise<TokenAnswer> {
  const { realm } = provider;
  if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
  let tokens;
  try {
    tokens = await refreshSession(deps, realm, refreshToken, request);
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNAUTHORIZED') {
      // Whether the session was ended or ran out: a browser SDK tells its user which (signed out with reason revoked or expired).
      const revoked = (await sessionOfRefreshToken(deps, realm, refreshToken))?.revoked;
      throw new OAuthError('invalid_grant', revoked ? SESSION_REVOKED : error.detail);
    }
    if (error instanceof AppError && error.code === 'TOO_MANY_REQUESTS') throw new OAuthError('slow_down', error.detail, 429, error.retryAfterS);
    throw error;
  }
  const sessionId = realm.accessTokens.verify(tokens.access_token)!.sid;
  const session = await liveSessionDetails(deps, realm, sessionId);
  const user = session && (await findUser(deps, session.userId));
  if (!session || !user) throw new OAuthError('invalid_grant', 'The session has ended');
  const scope = session.oauthScope ?? DEFAULT_SCOPE;
  const scopes = scope.split(' ');
  return {
    access_token: tokens.access_token,
    token_type: 'Bearer',
    expires_in: tokens.expires_in,
    scope,
    refresh_token: tokens.refresh_token,
    ...(scopes.includes('openid') ? { id_token: realm.accessTokens.signIdToken(await idTokenClaims(deps, user, session, scopes, null), ID_TOKEN_TTL_S) } : {}),
  };
}

/** The standard claims a scope releases (OIDC Core §5.4). */
export function userClaims(user: UserRow, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.includes('email')) Object.assign(claims, { email: user.email, email_verified: user.is_verified === 1 });
  if (scopes.includes('profile')) {
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
    Object.assign(claims, {
      ...(user.first_name ? { given_name: user.first_name } : {}),
      ...(user.last_name ? { family_name: user.last_name } : {}),
      ...(name ? { name } : {}),
      updated_at: epochS(user.updated_at),
    });
  }
  return claims;
}

/** Scope `organizations`: the user's memberships, with their role in each. */
async function organizationClaims(deps: Deps, user: UserRow, scopes: readonly string[]): Promise<Record<string, unknown>> {
  if (!scopes.includes('organizations')) return {};
  const memberships = await listMembershipsOfUser(deps.db, user.id);
  return { organizations: memberships.map((membership) => ({ id: membership.id, slug: membership.slug, name: membership.name, role: membership.role })) };
}

async function idTokenClaims(deps: Deps, user: UserRow, session: Pick<SessionDetails, 'id' | 'authMethods' | 'authenticatedAt'>, scopes: readonly string[], nonce: string | null) {
  return {
    ...userClaims(user, scopes),
    ...(await organizationClaims(deps, user, scopes)),
    sub: user.id,
    sid: session.id,
    auth_time: epochS(session.authenticatedAt),
    amr: session.authMethods,
    ...(nonce !== null ? { nonce } : {}),
  };
}

/** An ID token for a session the provider started without an authorization request (no nonce): the device grant's. */
export async function idTokenFor(deps: Deps, realm: Realm, user: UserRow, session: Pick<SessionDetails, 'id' | 'authMethods' | 'authenticatedAt'>, scopes: readonly string[]): Promise<string> {
  return realm.accessTokens.signIdToken(await idTokenClaims(deps, user, session, scopes, null), ID_TOKEN_TTL_S);
}

/** The userinfo endpoint: the claims of the access token's session's scopes (a token of the public API counts as openid email profile). */
export async function userInfo(deps: Deps, provider: Provider, session: { user: UserRow; sessionId: string }): Promise<Record<string, unknown>> {
  const details = await liveSessionDetails(deps, provider.realm, session.sessionId);
  const scopes = (details?.oauthScope ?? DEFAULT_SCOPE).split(' ');
  return { ...userClaims(session.user, scopes), public_metadata: parseMetadata(session.user.public_metadata), ...(await organizationClaims(deps, session.user, scopes)) };
}

/**
 * RFC 7009: revoking a refresh token or an access token ends its session (an access token cannot be
 * taken back alone; its session is checked on every request). Unknown tokens are not an error.
 */
export async function revokeToken(deps: Deps, provider: Provider, token: string | undefined): Promise<void> {
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  const { realm } = provider;
  const refresh = await sessionOfRefreshToken(deps, realm, token);
  const sessionId = refresh?.sessionId ?? realm.accessTokens.verify(token)?.sid;
  if (sessionId) await revokeOneSession(deps, realm, sessionId, 'oauth_revoked');
}

/** RFC 7662, for the project's backends (API key): whether a token works now, and whose it is. */
export async function introspect(deps: Deps, provider: Provider, token: string | undefined): Promise<Record<string, unknown>> {
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  const { realm, project } = provider;
  const common = { client_id: project.project_key, iss: issuerOf(deps.config, project.project_key), aud: project.project_key };
  const access = realm.accessTokens.verify(token);
  const refresh = access ? null : await sessionOfRefreshToken(deps, realm, token);
  const sessionId = access?.sid ?? (refresh && !refresh.spent ? refresh.sessionId : null);
  const session = sessionId ? await liveSessionDetails(deps, realm, sessionId) : null;
  const user = session && (await findUser(deps, session.userId));
  if (!session || !user || (access && access.sub !== user.id)) return { active: false };
  return {
    active: true,
    ...common,
    sub: user.id,
    sid: session.id,
    username: user.email,
    scope: session.oauthScope ?? DEFAULT_SCOPE,
    token_type: access ? 'Bearer' : 'refresh_token',
    exp: access ? access.exp : epochS(session.expiresAt),
  };
}

/** What RP-initiated logout does: where to go after, and which sessions end. */
export interface LogoutPlan {
  /** The registered post-logout URI with `state`, or the hosted "signed out" page. */
  redirect: string;
  /** The app's session named by a valid id_token_hint. */
  endSessionId: string | null;
  /** The user the hint names; the hosted session ends only if it is theirs. */
  hintedUserId: string | null;
}

/**
 * RP-initiated logout 1.0: a post_logout_redirect_uri must be registered (an error page otherwise);
 * an id_token_hint must be one this project signed (expired is fine).
 */
export function planLogout(deps: Deps, provider: Provider, params: Params): LogoutPlan {
  const { realm, project } = provider;
  const one = (name: string) => (typeof params[name] === 'string' && params[name] !== '' ? (params[name] as string) : undefined);
  const hint = one('id_token_hint');
  const claims = hint ? realm.accessTokens.verifyIdTokenHint(hint) : null;
  if (hint && !claims) throw new AuthorizationPageError('Invalid sign-out request', 'The id_token_hint was not issued by this project.');
  const clientId = one('client_id');
  if (clientId !== undefined && clientId !== project.project_key) throw new AuthorizationPageError('Unknown application', 'The client_id of this sign-out request is not this project.');
  const postLogout = one('post_logout_redirect_uri');
  let redirect = `${hostedPagesUrlOf(deps.config, project.project_key)}/signed-out`;
  if (postLogout) {
    if (!isRegisteredRedirect(project, project.post_logout_redirect_uris, postLogout)) {
      throw new AuthorizationPageError('Sign-out address not registered', `${project.name} has not registered ${postLogout} as a post-logout redirect URI.`);
    }
    const url = new URL(postLogout);
    const state = one('state');
    if (state !== undefined) url.searchParams.set('state', state);
    redirect = url.toString();
  }
  return { redirect, endSessionId: typeof claims?.sid === 'string' ? claims.sid : null, hintedUserId: claims?.sub ?? null };
}

/** The sweep: authorization requests and unspent codes whose short lives have ended. */
export function sweepExpiredOAuthRequests(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredWaitingOAuthRows(deps.db, isoNow(deps.clock));
}

/** Retention: spent codes are kept until `before` (a day on), so a late replay still revokes what they gave. */
export function deleteSpentCodesBefore(deps: Pick<Deps, 'db'>, before: string): Promise<number> {
  return deleteCodesExpiredBefore(deps.db, before);
}

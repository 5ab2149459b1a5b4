import type { z } from 'zod';
import { enterpriseMethodKey } from '../../../shared/schemas/project-settings.js';
import { SSO_MESSAGES, type ApiSsoSignInQuerySchema, type AttributeMapping, type SsoDiscovery } from '../../../shared/schemas/sso.js';
import type { SocialErrorCode } from '../../../shared/schemas/social.js';
import type { ConnectionSettings } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { ProjectRow, SocialSignInRow, SsoConnectionRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import { normalizeEmail } from '../../lib/email.js';
import type { RequestInfo } from '../../lib/request-info.js';
import type { LogInResult } from '../auth/auth.service.js';
import type { MfaChallenge } from '../../../shared/schemas/mfa.js';
import { signUpWithProvider } from '../auth/auth.service.js';
import { provisionMembership } from '../organizations/organizations.service.js';
import { projectRealmById } from '../projects/project-realm.service.js';
import { hostedSsoFinishUrlOf } from '../projects/project-urls.js';
import { isRegisteredRedirect, urlListOf } from '../projects/redirect-uris.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { connectionEnabled, requireConnectionEnabled } from '../realms/sign-in-methods.js';
import {
  admitEnterpriseSignIn,
  chargeProviderSignInStart,
  enterpriseFailureRedirect,
  issueEnterpriseCode,
  takeEnterpriseSignIn,
  takeHostedEnterpriseSignIn,
  type EnterpriseSignIn,
} from '../social/social.service.js';
import { ProviderFailure } from '../social/provider-client.js';
import { findUserByEmail, updateUser } from '../users/users.repo.js';
import { authnRequestUrl, claimedInResponseTo, SamlRefusal, validateSamlResponse } from './saml-sp.js';
import { spKeyPairOf, withSpKeys } from './saml-sp-keys.js';
import { attributeMappingOf, requireConnection } from './sso-connections.service.js';
import * as repo from './sso.repo.js';
import { connectionForEmail, domainOf } from '../sso-routing/sso-routing.js';
import { oidcCallbackUrlOf } from './sso-urls.js';
import { recordConnectionTest } from './admin-portal.service.js';
import type { ConnectionManager } from './sso-connections.service.js';

/** Who the IdP says signed in, after the connection's attribute mapping. */
export interface EnterpriseIdentity {
  email: string;
  firstName: string | null;
  lastName: string | null;
  groups: string[];
  mfa: boolean;
}

/** A refusal on the way back from the IdP: logged with its reason; the app (or the browser) hears only `error`. */
export class SsoRefusal extends Error {
  constructor(
    readonly error: 'access_denied' | 'server_error',
    message: string,
  ) {
    super(message);
  }
}

/** The connection a sign-in goes to: named, or found by the address's verified domain. 404 otherwise (and for a disabled one). */
export async function connectionForSignIn(deps: Pick<Deps, 'db'>, projectId: string, by: { email?: string; connection_id?: string }): Promise<SsoConnectionRow> {
  if (by.connection_id) {
    const row = await repo.findConnection(deps.db, projectId, by.connection_id);
    if (!row || row.enabled !== 1) throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
    return row;
  }
  if (by.email) {
    const row = await connectionForEmail(deps.db, projectId, by.email);
    if (!row) throw new AppError('NOT_FOUND', SSO_MESSAGES.noConnectionForDomain);
    return row;
  }
  throw new AppError('UNPROCESSABLE_CONTENT', 'email or connection_id is required');
}

export function oidcSettingsOf(deps: Pick<Deps, 'config' | 'secretBox'>, row: SsoConnectionRow): ConnectionSettings {
  return {
    provider: 'oidc',
    name: row.name,
    clientId: row.oidc_client_id!,
    clientSecret: deps.secretBox.open(row.oidc_client_secret!),
    issuer: row.oidc_issuer!,
    github: null,
    publicOnly: !deps.config.connectionsAllowPrivate,
  };
}

export interface SsoStart {
  /** test: the setup portal's test of the connection (`clientState` is the portal session's id); nothing is provisioned. */
  intent: 'api' | 'sign_in' | 'test';
  /** api: the developer's registered redirect URI; sign_in: a path of the hosted pages. */
  returnTo: string;
  clientState: string | null;
  deviceFingerprint: string | null;
}

/**
 * Sends a sign-in to the connection's IdP: a SAML AuthnRequest (HTTP-Redirect) whose ID is stored
 * hashed as the waiting row's state, or an OpenID Connect authorization with PKCE, state and nonce.
 * The waiting rows are social sign-in's, with its caps per network and project.
 */
export async function startSsoSignIn(deps: Deps, realm: Realm, connection: SsoConnectionRow, start: SsoStart, request: RequestInfo): Promise<{ url: string; state: string }> {
  // A test runs before the project offers the connection as a sign-in method.
  if (start.intent !== 'test') requireConnectionEnabled(realm, enterpriseMethodKey(connection.id));
  await chargeProviderSignInStart(deps, realm, request);
  let url: string;
  let state: string;
  let codeVerifier = '';
  let nonce: string | null = null;
  if (connection.type === 'saml') {
    state = `_${randomToken()}`.replace(/-/g, '_');
    const keyed = await withSpKeys(deps, connection);
    url = await authnRequestUrl(deps.config, keyed, spKeyPairOf(deps, keyed), state, '');
  } else {
    const started = await deps.socialProviders.authorizationUrl(oidcSettingsOf(deps, connection), oidcCallbackUrlOf(deps.config, connection.id)).catch((error: unknown) => {
      deps.logger.warn({ err: error, connection: connection.id }, 'sso: the OpenID Connect IdP is unreachable');
      throw new AppError('BAD_REQUEST', 'The identity provider could not be reached');
    });
    url = started.url;
    state = started.pending.state;
    codeVerifier = started.pending.codeVerifier;
    nonce = started.pending.nonce;
  }
  await admitEnterpriseSignIn(deps, realm, request, {
    projectId: connection.project_id,
    connectionId: connection.id,
    state,
    intent: start.intent,
    user_id: null,
    return_to: start.returnTo,
    client_state: start.clientState,
    code_verifier: codeVerifier,
    nonce,
    device_fingerprint: start.deviceFingerprint,
    client_network: request.network,
  });
  return { url, state };
}

/** The public API: the IdP's URL for the end user's browser; the code comes back to the developer's redirect URI. */
export async function startApiSsoSignIn(
  deps: Deps,
  target: { realm: Realm; project: ProjectRow },
  query: z.output<typeof ApiSsoSignInQuerySchema>,
  request: RequestInfo,
): Promise<{ authorization_url: string }> {
  if (!isRegisteredRedirect(target.project, target.project.redirect_uris, query.redirect_uri)) {
    throw new AppError('BAD_REQUEST', "redirect_uri is not one of the project's registered redirect URIs");
  }
  const connection = await connectionForSignIn(deps, target.project.id, query);
  const { url } = await startSsoSignIn(deps, target.realm, connection, { intent: 'api', returnTo: query.redirect_uri, clientState: query.state, deviceFingerprint: null }, request);
  return { authorization_url: url };
}

/**
 * Home-realm discovery for the hosted sign-in: whether the address's domain is verified for an enabled
 * connection, and which (id and name). It reads the domain only, so it tells nothing of accounts; it
 * is limited per client network like the sign-in it comes before.
 */
export async function discoverSsoConnection(deps: Deps, realm: Realm & { projectId: string }, email: string, request: RequestInfo): Promise<SsoDiscovery> {
  await deps.limiters.ssoDiscoveryPerIp.consume(realmKey(realm, request.network));
  const found = await connectionForEmail(deps.db, realm.projectId, email);
  // A connection the project turned off as a sign-in method is not offered.
  const row = found && connectionEnabled(realm.policy.signInMethods, enterpriseMethodKey(found.id)) ? found : undefined;
  return row ? { sso: true, connection_id: row.id, name: row.name, enforced: row.enforce === 1 } : { sso: false, connection_id: null, name: null, enforced: false };
}

/**
 * The hosted pages send the browser to the IdP. `binding` is the SHA-256 of the state cookie the
 * transport gives this browser; the waiting row keeps it (in `client_state`, which only the public
 * API's sign-ins use otherwise), so the sign-in ends only in the browser that started it.
 */
export async function startHostedSsoSignIn(
  deps: Deps,
  target: { realm: Realm; project: ProjectRow },
  by: { email?: string; connection_id?: string },
  start: { returnTo: string | null; binding: string; deviceFingerprint: string | null },
  request: RequestInfo,
): Promise<string> {
  const connection = await connectionForSignIn(deps, target.project.id, by);
  const { url } = await startSsoSignIn(
    deps,
    target.realm,
    connection,
    { intent: 'sign_in', returnTo: start.returnTo ?? '', clientState: start.binding, deviceFingerprint: start.deviceFingerprint },
    request,
  );
  return url;
}

/**
 * The setup portal's "Sign in with your IdP": a real round trip through the connection's IdP that
 * ends back on the portal with what the IdP sent (recordConnectionTest), creating no account,
 * membership or session. `sessionId` ties the result to the portal session that asked.
 */
export async function startConnectionTest(deps: Deps, manager: ConnectionManager, connectionId: string, sessionId: string, request: RequestInfo): Promise<{ authorization_url: string }> {
  const connection = await requireConnection(deps, manager, connectionId);
  if (connection.enabled !== 1) throw new AppError('UNPROCESSABLE_CONTENT', 'Turn the connection on to test it');
  const { realm } = await realmOfConnection(deps, connection);
  const { url } = await startSsoSignIn(deps, realm, connection, { intent: 'test', returnTo: '', clientState: sessionId, deviceFingerprint: null }, request);
  return { authorization_url: url };
}

/** The end of a test: what the IdP sent, kept for the portal session; nothing is provisioned. */
async function finishTest(deps: Deps, connection: SsoConnectionRow, waiting: SocialSignInRow, outcome: { identity: EnterpriseIdentity } | { error: string }, request: RequestInfo): Promise<string> {
  const verified = (await repo.listDomains(deps.db, [connection.id])).filter((domain) => domain.verified_at !== null).map((domain) => domain.domain);
  const identity = 'identity' in outcome ? outcome.identity : null;
  return recordConnectionTest(
    deps,
    waiting.client_state ?? '',
    {
      connection_id: connection.id,
      ok: identity !== null,
      error: 'error' in outcome ? outcome.error : null,
      email: identity?.email ?? null,
      first_name: identity?.firstName ?? null,
      last_name: identity?.lastName ?? null,
      groups: identity?.groups ?? [],
      domain_verified: identity !== null && verified.includes(domainOf(identity.email)),
      tested_at: isoNow(deps.clock),
    },
    request,
  );
}

export type HostedSsoOutcome =
  | { kind: 'signed_in'; result: LogInResult; returnTo: string | null }
  | { kind: 'mfa'; challenge: MfaChallenge; returnTo: string | null }
  | { kind: 'failed'; reason: SocialErrorCode; returnTo: string | null };

/** The hosted finish: the IdP's refusal (`error`), or the one-time code spent in the browser that started the sign-in. */
export async function completeHostedSsoSignIn(
  deps: Deps,
  target: { realm: Realm; project: ProjectRow },
  query: { code?: string; error?: string },
  binding: string | null,
  request: RequestInfo,
): Promise<HostedSsoOutcome> {
  if (!query.code) return { kind: 'failed', reason: 'provider_error', returnTo: null };
  const taken = await takeHostedEnterpriseSignIn(deps, target.realm, target.project.id, query.code, binding, request);
  const returnTo = taken.returnTo || null;
  if ('failed' in taken) return { kind: 'failed', reason: taken.failed, returnTo };
  return 'mfa_token' in taken.answer ? { kind: 'mfa', challenge: taken.answer, returnTo } : { kind: 'signed_in', result: taken.answer, returnTo };
}

/** Where a refused enterprise sign-in goes: the app's redirect URI with `error` (public API), or the hosted finish (hosted pages). */
async function failureRedirect(deps: Deps, connection: SsoConnectionRow, waiting: SocialSignInRow, error: 'access_denied' | 'server_error', reason: string, request: RequestInfo): Promise<string> {
  if (waiting.intent === 'test') return finishTest(deps, connection, waiting, { error: reason }, request);
  if (waiting.intent === 'sign_in') {
    const { project } = await realmOfConnection(deps, connection);
    return `${hostedSsoFinishUrlOf(deps.config, project.project_key)}?${new URLSearchParams({ error })}`;
  }
  return enterpriseFailureRedirect(waiting, error, 'The identity provider could not sign you in.');
}

function mappedIdentity(mapping: AttributeMapping, read: (name: string) => string[], fallbackEmail: string | null, mfa: boolean): EnterpriseIdentity {
  const first = (name: string | undefined) => (name ? (read(name)[0] ?? null) : null);
  const email = first(mapping.email) ?? fallbackEmail;
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new SsoRefusal('access_denied', 'the IdP sent no e-mail address');
  return {
    email: normalizeEmail(email),
    firstName: first(mapping.first_name)?.slice(0, 100) ?? null,
    lastName: first(mapping.last_name)?.slice(0, 100) ?? null,
    groups: mapping.groups ? read(mapping.groups) : [],
    mfa,
  };
}

/** The usual names of SAML attributes when the connection maps none (Okta, Entra ID, Google, the plain ones). */
const SAML_DEFAULTS: Required<Pick<AttributeMapping, 'email' | 'first_name' | 'last_name'>> = {
  email: 'email',
  first_name: 'firstName',
  last_name: 'lastName',
};
const SAML_ALIASES: Record<string, string[]> = {
  email: ['email', 'mail', 'emailaddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  firstName: ['firstName', 'givenName', 'given_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  lastName: ['lastName', 'surname', 'sn', 'family_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
};

function readerOf(values: Record<string, string[]>) {
  return (name: string): string[] => {
    for (const candidate of SAML_ALIASES[name] ?? [name]) if (values[candidate]?.length) return values[candidate];
    return [];
  };
}

/** The organization role an identity gets: its first IdP group the mapping names, else the connection's default. */
function roleOf(connection: SsoConnectionRow, mapping: AttributeMapping, groups: string[]): { role: string; fromGroups: boolean } {
  const byGroup = mapping.group_roles ?? {};
  for (const group of groups) if (byGroup[group]) return { role: byGroup[group], fromGroups: true };
  return { role: connection.default_role, fromGroups: mapping.groups !== undefined && Object.keys(byGroup).length > 0 };
}

/**
 * Just-in-time provisioning. The address must be in one of the connection's verified domains (an IdP
 * speaks only for the domains it proved), so the account it names is the IdP's to sign in: found, or
 * made verified with the mapped names; then its membership in the connection's organization with the
 * mapped role. An account that was never verified was set up by whoever typed the address: it is
 * refused here, its owner verifies it first.
 */
export async function provisionEnterpriseUser(deps: Deps, realm: Realm & { projectId: string }, connection: SsoConnectionRow, identity: EnterpriseIdentity, request: RequestInfo): Promise<UserRow> {
  const verified = (await repo.listDomains(deps.db, [connection.id])).filter((domain) => domain.verified_at !== null).map((domain) => domain.domain);
  if (!verified.includes(domainOf(identity.email))) throw new SsoRefusal('access_denied', `the IdP asserted ${identity.email}, outside the connection's verified domains`);
  let user = await findUserByEmail(deps.db, realm.projectId, identity.email);
  if (!user) {
    const account = { email: identity.email, emailVerified: true, firstName: identity.firstName, lastName: identity.lastName };
    user = (await signUpWithProvider(deps, realm, account, request, async () => {})) ?? (await findUserByEmail(deps.db, realm.projectId, identity.email));
    if (!user) throw new SsoRefusal('server_error', 'the account could not be made');
  }
  if (user.is_verified !== 1) throw new SsoRefusal('access_denied', 'an unverified account already holds this address');
  // Deactivated (by the developer, or by the IdP through SCIM): refused before anything is provisioned again.
  if (user.is_active !== 1) throw new SsoRefusal('access_denied', 'the account is deactivated');
  const mapping = attributeMappingOf(connection);
  const { role, fromGroups } = roleOf(connection, mapping, identity.groups);
  const userId = user.id;
  const names = { ...(identity.firstName && { first_name: identity.firstName }), ...(identity.lastName && { last_name: identity.lastName }) };
  await withTransaction(deps, async (tx) => {
    if (Object.keys(names).length > 0 && (names.first_name !== user!.first_name || names.last_name !== user!.last_name)) {
      await updateUser(tx.db, userId, { ...names, updated_at: isoNow(deps.clock) });
    }
    await provisionMembership(tx, realm, { user: { id: userId, email: identity.email }, info: request }, connection.organization_id, userId, role, fromGroups);
  });
  return user;
}

function realmOfConnection(deps: Deps, connection: SsoConnectionRow): Promise<{ realm: Realm & { projectId: string }; project: ProjectRow }> {
  return projectRealmById(deps, connection.project_id);
}

/** Where the IdP's answer goes once the account is ready: the app's code (public API), or the hosted finish with its code. */
async function finish(deps: Deps, connection: SsoConnectionRow, waiting: SocialSignInRow | { projectId: string; connectionId: string; redirectUri: string }, identity: EnterpriseIdentity, request: RequestInfo): Promise<string> {
  if ('id' in waiting && waiting.intent === 'test') return finishTest(deps, connection, waiting, { identity }, request);
  const { realm, project } = await realmOfConnection(deps, connection);
  // Also for IdP-initiated sign-ins, which never passed a start.
  requireConnectionEnabled(realm, enterpriseMethodKey(connection.id));
  const user = await provisionEnterpriseUser(deps, realm, connection, identity, request);
  await repo.recordSsoIdentity(deps.db, connection.id, user.id, isoNow(deps.clock));
  const result: EnterpriseSignIn = { enterprise: true, method: connection.type, userId: user.id, email: identity.email, organizationId: connection.organization_id, mfa: identity.mfa };
  const hosted = 'id' in waiting && waiting.intent === 'sign_in';
  return issueEnterpriseCode(deps, waiting, result, hosted ? hostedSsoFinishUrlOf(deps.config, project.project_key) : undefined);
}

/** A SAML connection by id, with its key pair (made now for a connection that predates them). */
export async function samlConnection(deps: Pick<Deps, 'db' | 'secretBox' | 'clock'>, connectionId: string): Promise<SsoConnectionRow> {
  const row = await repo.findConnectionById(deps.db, connectionId);
  if (!row || row.type !== 'saml') throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
  return withSpKeys(deps, row);
}

/**
 * The IdP POSTed a SAMLResponse to the connection's ACS. Valid (saml-sp.ts), then: an answer to our
 * AuthnRequest spends its waiting row (once); one to no request of ours is IdP-initiated, refused
 * unless the connection allows it (it then goes to the project's first redirect URI, or RelayState
 * when that is one of them); the assertion's id is remembered until it expires (no replay).
 * Answers where the browser goes; throws SsoRefusal when there is nowhere safe to send it.
 */
export async function completeSamlSignIn(deps: Deps, connectionId: string, form: { SAMLResponse?: unknown; RelayState?: unknown }, request: RequestInfo): Promise<string> {
  const connection = await samlConnection(deps, connectionId);
  if (connection.enabled !== 1) throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
  if (typeof form.SAMLResponse !== 'string' || form.SAMLResponse.length === 0) throw new AppError('BAD_REQUEST', 'SAMLResponse is required');
  const samlResponse = form.SAMLResponse;
  const assertion = await validateSamlResponse(deps.config, connection, spKeyPairOf(deps, connection), samlResponse, deps.clock.now()).catch(async (error: unknown) => {
    if (!(error instanceof SamlRefusal)) throw error;
    deps.logger.warn({ connection: connection.id, reason: error.message }, 'sso: SAML response refused');
    // The app that asked hears of the refusal at its own (stored, registered) redirect URI; the claim
    // to answer its request is not trusted for anything else, and the waiting request is spent.
    const claimed = claimedInResponseTo(samlResponse);
    const waiting = claimed ? await takeEnterpriseSignIn(deps, connection.id, claimed) : undefined;
    if (waiting) return failureRedirect(deps, connection, waiting, 'access_denied', error.message, request);
    throw new SsoRefusal('access_denied', error.message);
  });
  if (typeof assertion === 'string') return assertion;
  let waiting: SocialSignInRow | { projectId: string; connectionId: string; redirectUri: string };
  if (assertion.inResponseTo) {
    const row = await takeEnterpriseSignIn(deps, connection.id, assertion.inResponseTo);
    if (!row) throw new SsoRefusal('access_denied', 'InResponseTo names no waiting request of this connection (unknown, expired or used)');
    waiting = row;
  } else {
    if (connection.allow_idp_initiated !== 1) throw new SsoRefusal('access_denied', 'IdP-initiated sign-in is not allowed for this connection');
    const { project } = await realmOfConnection(deps, connection);
    const registered = urlListOf(project.redirect_uris);
    const relayState = typeof form.RelayState === 'string' ? form.RelayState : '';
    const redirectUri = relayState && isRegisteredRedirect(project, project.redirect_uris, relayState) ? relayState : registered.find((entry) => !entry.includes('*'));
    if (!redirectUri) throw new SsoRefusal('server_error', 'IdP-initiated sign-in needs a registered redirect URI');
    waiting = { projectId: project.id, connectionId: connection.id, redirectUri };
  }
  const refuse = (error: SsoRefusal): Promise<string> => {
    if (!('id' in waiting)) throw error;
    deps.logger.warn({ connection: connection.id, reason: error.message }, 'sso: SAML sign-in refused');
    return failureRedirect(deps, connection, waiting, error.error, error.message, request);
  };
  try {
    if (!(await repo.rememberAssertion(deps.db, { connection_id: connection.id, assertion_id: assertion.id, expires_at: assertion.expiresAt.toISOString() }))) {
      throw new SsoRefusal('access_denied', 'the assertion was already used (replay)');
    }
    const identity = mappedIdentity({ ...SAML_DEFAULTS, ...attributeMappingOf(connection) }, readerOf(assertion.attributes), assertion.nameId.includes('@') ? assertion.nameId : null, false);
    return await finish(deps, connection, waiting, identity, request);
  } catch (error) {
    if (error instanceof SsoRefusal) return refuse(error);
    if (error instanceof AppError && 'id' in waiting) return refuse(new SsoRefusal('access_denied', error.detail));
    throw error;
  }
}

/** The enterprise OpenID Connect IdP sent the browser back: state spent once, code exchanged with PKCE, id_token verified. */
export async function completeOidcSignIn(deps: Deps, connectionId: string, callbackUrl: URL, request: RequestInfo): Promise<string> {
  const connection = await repo.findConnectionById(deps.db, connectionId);
  if (!connection || connection.type !== 'oidc' || connection.enabled !== 1) throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
  const state = callbackUrl.searchParams.get('state') ?? '';
  const waiting = state ? await takeEnterpriseSignIn(deps, connection.id, state) : undefined;
  if (!waiting) throw new SsoRefusal('access_denied', 'state names no waiting sign-in of this connection (unknown, expired or used)');
  try {
    const profile = await deps.socialProviders.profile(oidcSettingsOf(deps, connection), callbackUrl, { state, codeVerifier: waiting.code_verifier, nonce: waiting.nonce });
    const claims = profile.claims ?? {};
    const read = (name: string): string[] => {
      const value = claims[name];
      if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string');
      return typeof value === 'string' ? [value] : [];
    };
    const mapping = attributeMappingOf(connection);
    const identity = mappedIdentity({ email: 'email', first_name: 'given_name', last_name: 'family_name', ...mapping }, read, profile.email, profile.mfa);
    return await finish(deps, connection, waiting, identity, request);
  } catch (error) {
    const refusal =
      error instanceof SsoRefusal
        ? error
        : error instanceof ProviderFailure
          ? new SsoRefusal(error.reason === 'cancelled' ? 'access_denied' : 'server_error', error.message)
          : error instanceof AppError
            ? new SsoRefusal('access_denied', error.detail)
            : null;
    if (!refusal) throw error;
    deps.logger.warn({ connection: connection.id, reason: refusal.message }, 'sso: OpenID Connect sign-in refused');
    return failureRedirect(deps, connection, waiting, refusal.error, refusal.message, request);
  }
}

/** The sweep: assertion ids past their expiry need no remembering. */
export function sweepExpiredAssertions(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return repo.deleteExpiredAssertions(deps.db, isoNow(deps.clock));
}

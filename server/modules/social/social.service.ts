import type { z } from 'zod';
import type { MfaChallenge } from '../../../shared/schemas/mfa.js';
import {
  SOCIAL_ERRORS,
  SOCIAL_MESSAGES,
  SOCIAL_PROVIDER_DEFAULTS,
  SOCIAL_PROVIDER_NAMES,
  type ApiSocialSignInQuerySchema,
  type Identity,
  type SaveConnectionInputSchema,
  type SignInProvider,
  type SocialErrorCode,
  type SocialExchangeInputSchema,
  type SocialProvider,
  type Connection,
} from '../../../shared/schemas/social.js';
import type { ErrorCode } from '../../../shared/errors.js';
import type { ConnectionSettings } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { Insertable } from 'kysely';
import type { ProjectConnectionRow, ProjectRow, SocialIntent, SocialSignInRow, SocialSignInsTable, UserIdentityRow, UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { constantTimeEqual, newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { accountSecuredMail, identityLinkedMail, identityLinkMail } from '../../mail/templates.js';
import { aboutAccount, appLink, queueAccountMail, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { changedFields, recordChange } from '../changes/record-change.js';
import { requireCaptcha } from '../auth/captcha-check.js';
import { handOverToProvenOwner, logInWithProvider, signUpWithProvider, type LogInResult } from '../auth/auth.service.js';
import { isPlainlyPrivate } from '../ip-intel/public-fetch.js';
import { admitPending, chargePendingStart, type PendingKind } from '../pending/pending-rows.js';
import { isRegisteredRedirect } from '../projects/redirect-uris.js';
import { connectionEnabled, requireConnectionEnabled } from '../realms/sign-in-methods.js';
import { requireProjectRole } from '../realms/project-access.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { findUserByEmail, findUserById, updateUser } from '../users/users.repo.js';
import { ProviderFailure, type PendingAuthorization, type ProviderProfile } from './provider-client.js';
import {
  countPasskeys,
  countWaitingSocialSignIns,
  deleteConnection,
  deleteExpiredLinkRequestsBefore,
  deleteExpiredSocialSignIns,
  deleteIdentity,
  findConnection,
  findIdentityWithUser,
  findLinkRequest,
  insertIdentity,
  insertIdentityIfNew,
  insertLinkRequest,
  insertSocialSignIn,
  listConnections,
  listIdentities as listIdentityRows,
  spendLinkRequest,
  storeSignInResult,
  takeSignInResult,
  takeSocialSignIn,
  touchIdentity,
  upsertConnection,
} from './social.repo.js';
import { brandFor } from '../../mail/mail-brand.js';
import { mailTranslator } from '../../mail/mail-i18n.js';

/** A sign-in waits this long for the provider's callback. */
export const SOCIAL_SIGN_IN_TTL_S = 10 * 60;
/** The public API's one-time code works once within this. */
export const SOCIAL_CODE_TTL_S = 60;
/** A mailed link to connect a provider to an existing account. */
export const IDENTITY_LINK_TTL_S = 60 * 60;
const SIGN_INS_SENT: PendingKind = { name: 'social-sign-in', perNetwork: 'socialStartPerIp', perProject: 'socialStartPerProject', ttlS: SOCIAL_SIGN_IN_TTL_S };

const STATUS_OF: Record<SocialErrorCode, ErrorCode> = {
  cancelled: 'BAD_REQUEST',
  provider_error: 'BAD_REQUEST',
  expired: 'BAD_REQUEST',
  state_mismatch: 'BAD_REQUEST',
  no_email: 'UNPROCESSABLE_CONTENT',
  link_sent: 'CONFLICT',
  link_required: 'CONFLICT',
  already_linked: 'CONFLICT',
  link_not_signed_in: 'UNAUTHORIZED',
  verify_email_first: 'FORBIDDEN',
  step_up_required: 'UNAUTHORIZED',
  account_inactive: 'FORBIDDEN',
  device_blocked: 'FORBIDDEN',
  vpn_blocked: 'FORBIDDEN',
  email_unverified: 'FORBIDDEN',
  captcha_failed: 'BAD_REQUEST',
  rate_limited: 'TOO_MANY_REQUESTS',
  unavailable: 'NOT_FOUND',
};

/** A sign-in with a provider that ended without a session, with the code the sign-in page shows the message of. */
export class SocialSignInError extends AppError {
  constructor(readonly reason: SocialErrorCode) {
    super(STATUS_OF[reason], SOCIAL_ERRORS[reason]);
  }
}

/** The code of any refusal on the way (a limit, a blocked device…), for the sign-in page. */
export function socialErrorCodeOf(error: AppError): SocialErrorCode {
  if (error instanceof SocialSignInError) return error.reason;
  if (error.code === 'TOO_MANY_REQUESTS') return 'rate_limited';
  const known = (Object.keys(SOCIAL_ERRORS) as SocialErrorCode[]).find((code) => SOCIAL_ERRORS[code] === error.detail);
  return known ?? 'provider_error';
}

/** Whose sign-in: the platform's (project null), or a project's end users'. */
export interface SocialTarget {
  realm: Realm;
  project: ProjectRow | null;
}

/** The address to register at the provider: one per realm and provider, for every way a sign-in starts. */
export function callbackUrlOf(deps: Pick<Deps, 'config'>, project: Pick<ProjectRow, 'project_key'> | null, provider: SocialProvider): string {
  const base = project ? `${deps.config.appUrl}/hosted/${project.project_key}/api/v1` : `${deps.config.appUrl}/api/v1`;
  return `${base}/auth/oauth/${provider}/callback`;
}

function settingsOf(deps: Pick<Deps, 'secretBox' | 'config'>, row: ProjectConnectionRow): ConnectionSettings {
  return {
    publicOnly: !deps.config.connectionsAllowPrivate,
    provider: row.provider,
    name: row.provider === 'oidc' ? (row.display_name ?? SOCIAL_PROVIDER_NAMES.oidc) : SOCIAL_PROVIDER_NAMES[row.provider],
    clientId: row.client_id,
    clientSecret: deps.secretBox.open(row.client_secret),
    issuer: row.provider === 'github' ? null : (row.issuer ?? (row.provider === 'oidc' ? null : SOCIAL_PROVIDER_DEFAULTS[row.provider].issuer)),
    github:
      row.provider === 'github'
        ? {
            authorizeUrl: row.authorize_url ?? SOCIAL_PROVIDER_DEFAULTS.github.authorize_url,
            tokenUrl: row.token_url ?? SOCIAL_PROVIDER_DEFAULTS.github.token_url,
            apiUrl: row.api_url ?? SOCIAL_PROVIDER_DEFAULTS.github.api_url,
          }
        : null,
  };
}

/** The providers a realm offers: the platform's from its environment, a project's enabled connections. */
/** The connections the realm's accounts may sign in with: switched on, and not turned off in the project's sign-in methods. */
async function connectionsOf(deps: Deps, target: SocialTarget): Promise<ConnectionSettings[]> {
  if (!target.project) return [...deps.config.socialConnections];
  const methods = target.realm.policy.signInMethods;
  return (await listConnections(deps.db, target.project.id)).filter((row) => row.enabled === 1 && connectionEnabled(methods, row.provider)).map((row) => settingsOf(deps, row));
}

async function connectionFor(deps: Deps, target: SocialTarget, provider: SocialProvider): Promise<ConnectionSettings> {
  const connection = (await connectionsOf(deps, target)).find((candidate) => candidate.provider === provider);
  if (!connection) throw new SocialSignInError('unavailable');
  return connection;
}

export async function listSignInProviders(deps: Deps, target: SocialTarget): Promise<SignInProvider[]> {
  return (await connectionsOf(deps, target)).map(({ provider, name }) => ({ id: provider, name }));
}

export interface StartOptions {
  intent: SocialIntent;
  /** sign_in and link: a path of our pages; api: the developer's registered redirect URI. */
  returnTo: string | null;
  clientState?: string | null;
  /** link: the signed-in account. */
  userId?: string | null;
  deviceFingerprint?: string | null;
}

/**
 * Sends a sign-in to the provider: a waiting row (state hashed, PKCE verifier, nonce) and the
 * provider's authorization URL. The browser flows bind the state to the browser with a cookie (the
 * transport's job); the public API's is bound by the developer's own state. Anyone may start one, so
 * the waiting rows are limited and capped per client network and per project (pending-rows.ts).
 */
export async function startSocialSignIn(
  deps: Deps,
  target: SocialTarget,
  provider: SocialProvider,
  options: StartOptions,
  request: RequestInfo,
): Promise<{ url: string; state: string }> {
  requireConnectionEnabled(target.realm, provider);
  await chargePendingStart(deps, target.realm, request, SIGN_INS_SENT);
  const connection = await connectionFor(deps, target, provider);
  const { url, pending } = await deps.socialProviders.authorizationUrl(connection, callbackUrlOf(deps, target.project, provider)).catch((error: unknown) => {
    deps.logger.warn({ err: error, provider }, 'social sign-in: provider unreachable');
    throw new SocialSignInError('provider_error');
  });
  const now = deps.clock.now();
  const signIn = {
    id: newId(),
    state_hash: sha256(pending.state),
    project_id: target.project?.id ?? null,
    provider,
    intent: options.intent,
    user_id: options.userId ?? null,
    return_to: options.returnTo,
    client_state: options.clientState ?? null,
    code_verifier: pending.codeVerifier,
    nonce: pending.nonce,
    device_fingerprint: options.deviceFingerprint ?? null,
    client_network: request.network,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SOCIAL_SIGN_IN_TTL_S * 1000).toISOString(),
  };
  await admitPending(deps, target.realm, request, SIGN_INS_SENT, countWaitingSocialSignIns, (db) => insertSocialSignIn(db, signIn));
  return { url, state: pending.state };
}

/** The public API: starts an end user's sign-in that comes back to the developer's registered redirect URI. */
export async function startApiSocialSignIn(
  deps: Deps,
  target: SocialTarget & { project: ProjectRow },
  provider: SocialProvider,
  query: z.output<typeof ApiSocialSignInQuerySchema>,
  request: RequestInfo,
): Promise<{ authorization_url: string }> {
  if (!isRegisteredRedirect(target.project, target.project.redirect_uris, query.redirect_uri)) {
    throw new AppError('BAD_REQUEST', "redirect_uri is not one of the project's registered redirect URIs");
  }
  const { url } = await startSocialSignIn(deps, target, provider, { intent: 'api', returnTo: query.redirect_uri, clientState: query.state }, request);
  return { authorization_url: url };
}

export type CallbackOutcome =
  | { kind: 'signed_in'; result: LogInResult; returnTo: string | null }
  | { kind: 'mfa'; challenge: MfaChallenge; returnTo: string | null }
  | { kind: 'linked'; provider: SocialProvider; returnTo: string | null }
  | { kind: 'api'; redirectTo: string }
  | { kind: 'failed'; reason: SocialErrorCode; intent: SocialIntent | null; returnTo: string | null };

/**
 * The provider sent the browser back. The waiting sign-in is spent first (once, in time, same realm
 * and provider); a browser flow must come back to the browser that started it (`binding`: the
 * cookie set at the start). Then, by what the sign-in was for: a session (or the second step), a
 * connection to the signed-in account, or (public API) a one-time code for the developer's backend.
 */
export async function completeSocialCallback(
  deps: Deps,
  target: SocialTarget,
  provider: SocialProvider,
  callbackUrl: URL,
  browser: { binding: string | undefined; signedInUserId: string | null },
  request: RequestInfo,
): Promise<CallbackOutcome> {
  const state = callbackUrl.searchParams.get('state') ?? '';
  const now = isoNow(deps.clock);
  const row = state ? await takeSocialSignIn(deps.db, sha256(state), now) : undefined;
  if (!row || row.provider !== provider || row.project_id !== (target.project?.id ?? null)) {
    return { kind: 'failed', reason: 'expired', intent: null, returnTo: null };
  }
  const failed = (reason: SocialErrorCode): CallbackOutcome => {
    if (row.intent === 'api') return { kind: 'api', redirectTo: developerRedirect(row.return_to!, { error: reason === 'cancelled' ? 'access_denied' : 'server_error', error_description: SOCIAL_ERRORS[reason], state: row.client_state }) };
    return { kind: 'failed', reason, intent: row.intent, returnTo: row.return_to };
  };
  if (row.intent !== 'api' && !(browser.binding && constantTimeEqual(browser.binding, state))) return failed('state_mismatch');

  let profile: ProviderProfile;
  try {
    const connection = await connectionFor(deps, target, provider);
    const pending: PendingAuthorization = { state, codeVerifier: row.code_verifier, nonce: row.nonce };
    profile = await deps.socialProviders.profile(connection, callbackUrl, pending);
  } catch (error) {
    if (error instanceof ProviderFailure) {
      if (error.reason === 'provider_error') deps.logger.warn({ provider, reason: error.message }, 'social sign-in: the provider answer was refused');
      return failed(error.reason);
    }
    if (error instanceof SocialSignInError) return failed(error.reason);
    throw error;
  }

  try {
    if (row.intent === 'api') {
      const code = randomToken();
      await storeSignInResult(deps.db, row.id, {
        result_code_hash: sha256(code),
        result: JSON.stringify({ ...profile, claims: undefined }),
        result_expires_at: new Date(deps.clock.now().getTime() + SOCIAL_CODE_TTL_S * 1000).toISOString(),
      });
      return { kind: 'api', redirectTo: developerRedirect(row.return_to!, { code, state: row.client_state }) };
    }
    if (row.intent === 'link') {
      if (!row.user_id || row.user_id !== browser.signedInUserId) return failed('link_not_signed_in');
      await linkToAccount(deps, target.realm, row.user_id, profile);
      return { kind: 'linked', provider, returnTo: row.return_to };
    }
    const answer = await signInWithProfile(deps, target.realm, profile, row.device_fingerprint, request, row.return_to);
    return 'mfa_token' in answer ? { kind: 'mfa', challenge: answer, returnTo: row.return_to } : { kind: 'signed_in', result: answer, returnTo: row.return_to };
  } catch (error) {
    if (error instanceof AppError) return failed(socialErrorCodeOf(error));
    throw error;
  }
}

function developerRedirect(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

/** The public API: the developer's backend turns the one-time code into the ordinary sign-in answer. */
export async function exchangeSocialSignInCode(
  deps: Deps,
  target: SocialTarget & { project: ProjectRow },
  input: z.output<typeof SocialExchangeInputSchema>,
  request: RequestInfo,
): Promise<LogInResult | MfaChallenge> {
  // The sign-in's limits are charged by logInWithProvider, once.
  await requireCaptcha(deps, target.realm, input.captcha_token, request);
  const row = await takeSignInResult(deps.db, target.project.id, sha256(input.code), isoNow(deps.clock));
  if (!row?.result) throw new AppError('BAD_REQUEST', 'Invalid or expired code');
  const result = JSON.parse(row.result) as ProviderProfile | EnterpriseSignIn;
  const fingerprint = input.device_fingerprint ?? row.device_fingerprint;
  if ('enterprise' in result) return signInEnterprise(deps, target.realm, result, fingerprint, request);
  return signInWithProfile(deps, target.realm, result, fingerprint, request);
}

// --- Enterprise connections (sso) wait and come back through the same rows and one-time code

/**
 * A sign-in an enterprise connection vouched for: its account already found or made (just in time)
 * and a member of the connection's organization, where the session starts.
 */
export interface EnterpriseSignIn {
  enterprise: true;
  method: 'saml' | 'oidc';
  userId: string;
  email: string;
  organizationId: string;
  mfa: boolean;
}

export type EnterpriseWaitingSignIn = Omit<Insertable<SocialSignInsTable>, 'id' | 'state_hash' | 'provider' | 'created_at' | 'expires_at' | 'project_id'> & {
  projectId: string;
  state: string;
  connectionId: string;
};

/** The limits of a sign-in sent to a provider, charged before the IdP's address is made. */
export function chargeProviderSignInStart(deps: Deps, realm: Realm, request: RequestInfo): Promise<void> {
  return chargePendingStart(deps, realm, request, SIGN_INS_SENT);
}

/** An enterprise sign-in waits for its IdP like a social one (capped per network and project); its state is stored hashed. */
export async function admitEnterpriseSignIn(deps: Deps, realm: Realm, request: RequestInfo, waiting: EnterpriseWaitingSignIn): Promise<void> {
  const { projectId, state, connectionId, ...rest } = waiting;
  const now = deps.clock.now();
  const row = {
    ...rest,
    id: newId(),
    state_hash: sha256(state),
    project_id: projectId,
    provider: 'sso' as const,
    sso_connection_id: connectionId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SOCIAL_SIGN_IN_TTL_S * 1000).toISOString(),
  };
  await admitPending(deps, realm, request, SIGN_INS_SENT, countWaitingSocialSignIns, (db) => insertSocialSignIn(db, row));
}

/** Spends an enterprise sign-in's waiting row by its state (a SAML request's ID, an OIDC state), once and in time. */
export async function takeEnterpriseSignIn(deps: Deps, connectionId: string, state: string): Promise<SocialSignInRow | undefined> {
  const row = await takeSocialSignIn(deps.db, sha256(state), isoNow(deps.clock));
  return row && row.provider === 'sso' && row.sso_connection_id === connectionId ? row : undefined;
}

/**
 * The end of an enterprise sign-in: the one-time code, on the developer's redirect URI for
 * /auth/oauth/exchange (public API), or on `hostedFinishUrl` for a sign-in started on the hosted pages
 * (whose waiting row holds the browser's binding, checked there). An IdP-initiated sign-in has no
 * waiting row: one is made, already spent.
 */
export async function issueEnterpriseCode(
  deps: Deps,
  waiting: SocialSignInRow | { projectId: string; connectionId: string; redirectUri: string },
  result: EnterpriseSignIn,
  hostedFinishUrl?: string,
): Promise<string> {
  const now = deps.clock.now();
  let row: Pick<SocialSignInRow, 'id' | 'return_to' | 'client_state'>;
  if ('id' in waiting) {
    row = waiting;
  } else {
    row = { id: newId(), return_to: waiting.redirectUri, client_state: null };
    await insertSocialSignIn(deps.db, {
      id: row.id,
      state_hash: sha256(randomToken()),
      project_id: waiting.projectId,
      provider: 'sso',
      sso_connection_id: waiting.connectionId,
      intent: 'api',
      user_id: null,
      return_to: waiting.redirectUri,
      client_state: null,
      code_verifier: '',
      nonce: null,
      device_fingerprint: null,
      client_network: null,
      created_at: now.toISOString(),
      expires_at: now.toISOString(),
      used_at: now.toISOString(),
    });
  }
  const code = randomToken();
  await storeSignInResult(deps.db, row.id, {
    result_code_hash: sha256(code),
    result: JSON.stringify(result),
    result_expires_at: new Date(now.getTime() + SOCIAL_CODE_TTL_S * 1000).toISOString(),
  });
  if (hostedFinishUrl) return developerRedirect(hostedFinishUrl, { code });
  return developerRedirect(row.return_to!, { code, state: row.client_state });
}

/**
 * The hosted pages' end of an enterprise sign-in: the one-time code (spent once, in time, in this
 * project) of a sign-in this browser started (`binding`, the SHA-256 of its state cookie, as the
 * waiting row holds it); then the session as for any provider. A refusal names its code.
 */
export async function takeHostedEnterpriseSignIn(
  deps: Deps,
  realm: Realm,
  projectId: string,
  code: string,
  binding: string | null,
  request: RequestInfo,
): Promise<{ answer: LogInResult | MfaChallenge; returnTo: string | null } | { failed: SocialErrorCode; returnTo: string | null }> {
  const row = await takeSignInResult(deps.db, projectId, sha256(code), isoNow(deps.clock));
  if (!row?.result || row.provider !== 'sso' || row.intent !== 'sign_in') return { failed: 'expired', returnTo: null };
  if (!(binding && row.client_state && constantTimeEqual(binding, row.client_state))) return { failed: 'state_mismatch', returnTo: row.return_to };
  try {
    const answer = await signInEnterprise(deps, realm, JSON.parse(row.result) as EnterpriseSignIn, row.device_fingerprint, request);
    return { answer, returnTo: row.return_to };
  } catch (error) {
    if (error instanceof AppError) return { failed: socialErrorCodeOf(error), returnTo: row.return_to };
    throw error;
  }
}

/** Where the public API's enterprise sign-in that failed goes: the developer's redirect URI with `error`. */
export function enterpriseFailureRedirect(row: Pick<SocialSignInRow, 'return_to' | 'client_state'>, error: 'access_denied' | 'server_error', description: string): string {
  return developerRedirect(row.return_to!, { error, error_description: description, state: row.client_state });
}

/** Signs in an enterprise sign-in's account, in the connection's organization (the same limits and refusals as any provider). */
export async function signInEnterprise(deps: Deps, realm: Realm, result: EnterpriseSignIn, deviceFingerprint: string | null, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  return logInWithProvider(
    deps,
    realm,
    {
      provider: result.method,
      email: result.email,
      providerMfa: result.mfa,
      deviceFingerprint,
      enterprise: { organizationId: result.organizationId },
      findOrCreateUser: async () => {
        const user = await findUserById(deps.db, result.userId);
        if (!user || user.project_id !== realm.projectId) throw new SocialSignInError('expired');
        return user;
      },
    },
    request,
  );
}

/**
 * Signs in the account of a provider's identity, found by provider + subject and never by e-mail
 * alone. A first sign-in makes the account, unless the address already has one: then the owner must
 * prove it (a mailed link when the provider verified the address; otherwise signing in and connecting
 * the provider from the security settings).
 */
async function signInWithProfile(
  deps: Deps,
  realm: Realm,
  profile: ProviderProfile,
  deviceFingerprint: string | null,
  request: RequestInfo,
  returnTo: string | null = null,
): Promise<LogInResult | MfaChallenge> {
  // A connection turned off since the sign-in was sent to the provider signs nobody in.
  requireConnectionEnabled(realm, profile.provider);
  return logInWithProvider(
    deps,
    realm,
    {
      provider: profile.provider,
      email: profile.email ?? `${profile.provider}:${profile.subject}`,
      providerMfa: profile.mfa,
      deviceFingerprint,
      findOrCreateUser: () => accountOf(deps, realm, profile, request, returnTo),
    },
    request,
  );
}

/** `returnTo`: where the sign-in was going (one of our pages), kept with a mailed link so its page can go on there. */
async function accountOf(deps: Deps, realm: Realm, profile: ProviderProfile, request: RequestInfo, returnTo: string | null): Promise<UserRow> {
  const now = isoNow(deps.clock);
  const known = await findIdentityWithUser(deps.db, realm.projectId, profile.provider, profile.subject);
  if (known) {
    await touchIdentity(deps.db, known.identity.id, { email: profile.email, email_verified: profile.emailVerified ? 1 : 0, last_used_at: now });
    return known.user;
  }
  if (!profile.email) throw new SocialSignInError('no_email');
  let owner = await findUserByEmail(deps.db, realm.projectId, profile.email);
  if (!owner) {
    const account = { email: profile.email, emailVerified: profile.emailVerified, firstName: profile.firstName, lastName: profile.lastName };
    const created = await signUpWithProvider(deps, realm, account, request, (tx, userId) => insertIdentity(tx.db, identityRow(realm, profile, userId, now)));
    if (created) return created;
    owner = await findUserByEmail(deps.db, realm.projectId, profile.email);
    if (!owner) throw new SocialSignInError('provider_error');
  }
  if (!profile.emailVerified) throw new SocialSignInError('link_required');
  await mailLinkRequest(deps, realm, owner, profile, returnTo);
  throw new SocialSignInError('link_sent');
}

function identityRow(realm: Realm, profile: ProviderProfile, userId: string, now: string) {
  return {
    id: newId(),
    user_id: userId,
    project_id: realm.projectId,
    provider: profile.provider,
    subject: profile.subject,
    email: profile.email,
    email_verified: profile.emailVerified ? (1 as const) : (0 as const),
    created_at: now,
    last_used_at: now,
  };
}

async function mailLinkRequest(deps: Deps, realm: Realm, owner: UserRow, profile: ProviderProfile, returnTo: string | null): Promise<void> {
  const token = randomToken();
  const now = deps.clock.now();
  const mayMail = await withinMailCap(deps, 'identity_link', owner.email);
  const name = SOCIAL_PROVIDER_NAMES[profile.provider];
  await withTransaction(deps, async (tx) => {
    await insertLinkRequest(tx.db, {
      id: newId(),
      token_hash: sha256(token),
      user_id: owner.id,
      provider: profile.provider,
      subject: profile.subject,
      email: profile.email!,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + IDENTITY_LINK_TTL_S * 1000).toISOString(),
      return_to: returnTo,
    });
    if (mayMail) await queueCappedMail(tx, 'identity_link', identityLinkMail(owner.email, name, appLink(realm, '/link-account', token), brandFor(realm.projectId, realm.policy.mail, owner)), aboutAccount(owner));
  });
}

/** Connects a provider's identity to the signed-in account that started the sign-in (its owner proved it by signing in). */
async function linkToAccount(deps: Deps, realm: Realm, userId: string, profile: ProviderProfile): Promise<void> {
  const known = await findIdentityWithUser(deps.db, realm.projectId, profile.provider, profile.subject);
  if (known) {
    if (known.user.id === userId) return;
    throw new SocialSignInError('already_linked');
  }
  const user = await findUserById(deps.db, userId);
  if (!user || user.project_id !== realm.projectId || user.is_active !== 1) throw new SocialSignInError('link_not_signed_in');
  if (user.is_verified !== 1) throw new SocialSignInError('verify_email_first');
  await withTransaction(deps, async (tx) => {
    if (!(await insertIdentityIfNew(tx.db, identityRow(realm, profile, userId, isoNow(deps.clock))))) throw new SocialSignInError('already_linked');
    await queueAccountMail(tx, user, 'identityLinkedMail', identityLinkedMail(user.email, SOCIAL_PROVIDER_NAMES[profile.provider], brandFor(realm.projectId, realm.policy.mail, user)));
  });
}

/**
 * The mailed link: the owner of the address proves the account, and the provider's identity is
 * connected to it (the address counts as verified: the link reached it). Once, within an hour. An
 * account whose address was unverified until now was set up by whoever typed it, not by this proof:
 * its password, its other ways in, its pending changes and its sessions go first, and the owner is told.
 */
export async function confirmIdentityLink(deps: Deps, realm: Realm, token: string, request: RequestInfo): Promise<{ message: string; return_to: string | null }> {
  await deps.limiters.verifyPerIp.consume(realmKey(realm, request.network));
  const link = await findLinkRequest(deps.db, sha256(token));
  const now = isoNow(deps.clock);
  if (!link || link.project_id !== realm.projectId || link.expires_at <= now) throw new AppError('BAD_REQUEST', SOCIAL_MESSAGES.linkInvalid);
  if (link.used_at) throw new AppError('BAD_REQUEST', SOCIAL_MESSAGES.linkUsed);
  // Hashed before the transaction, which must not wait on bcrypt.
  const unknownPassword = await deps.passwords.hash(randomToken());
  await withTransaction(deps, async (tx) => {
    if (!(await spendLinkRequest(tx.db, link.id, now))) throw new AppError('BAD_REQUEST', SOCIAL_MESSAGES.linkUsed);
    const account = await findUserById(tx.db, link.user_id);
    const removed = account?.is_verified === 0 ? await handOverToProvenOwner(tx, account, unknownPassword, now, mailTranslator(brandFor(realm.projectId, realm.policy.mail, account, request))) : [];
    const inserted = await insertIdentityIfNew(tx.db, {
      id: newId(),
      user_id: link.user_id,
      project_id: realm.projectId,
      provider: link.provider,
      subject: link.subject,
      email: link.email,
      email_verified: 1,
      created_at: now,
      last_used_at: null,
    });
    if (!inserted) throw new SocialSignInError('already_linked');
    const user = await updateUser(tx.db, link.user_id, { is_verified: 1, updated_at: now });
    const brand = user ? brandFor(realm.projectId, realm.policy.mail, user, request) : realm.policy.mail;
    if (user) await queueAccountMail(tx, user, 'identityLinkedMail', identityLinkedMail(user.email, SOCIAL_PROVIDER_NAMES[link.provider], brand));
    if (user && removed.length > 0) await queueAccountMail(tx, user, 'accountSecuredMail', accountSecuredMail(user.email, removed, brand));
  });
  return { message: SOCIAL_MESSAGES.linked, return_to: link.return_to };
}

function toIdentity(row: UserIdentityRow, names: Map<SocialProvider, string>): Identity {
  return {
    id: row.id,
    provider: row.provider,
    provider_name: names.get(row.provider) ?? SOCIAL_PROVIDER_NAMES[row.provider],
    email: row.email,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

/** The signed-in account's ways of signing in, and the providers it can still connect. */
export async function listIdentities(deps: Deps, target: SocialTarget, user: UserRow) {
  const offered = await listSignInProviders(deps, target);
  const names = new Map(offered.map((provider) => [provider.id, provider.name]));
  const rows = await listIdentityRows(deps.db, user.id);
  const linked = new Set(rows.map((row) => row.provider));
  return {
    identities: rows.map((row) => toIdentity(row, names)),
    has_password: user.password_set === 1,
    passkeys: await countPasskeys(deps.db, user.id),
    available: offered.filter((provider) => !linked.has(provider.id)),
  };
}

/** Removes a connected provider, unless it is the account's last way to sign in (no password, no passkey, no other provider). */
export async function removeIdentity(deps: Deps, user: UserRow, id: string): Promise<{ message: string }> {
  const rows = await listIdentityRows(deps.db, user.id);
  if (!rows.some((row) => row.id === id)) throw new AppError('NOT_FOUND', 'Sign-in method not found');
  const othersLeft = rows.length - 1 + (user.password_set === 1 ? 1 : 0) + (await countPasskeys(deps.db, user.id));
  if (othersLeft === 0) throw new AppError('CONFLICT', SOCIAL_MESSAGES.lastSignInMethod);
  if (!(await deleteIdentity(deps.db, user.id, id))) throw new AppError('NOT_FOUND', 'Sign-in method not found');
  return { message: SOCIAL_MESSAGES.identityRemoved };
}

// --- A project's connections, managed by its owner

function toConnection(deps: Pick<Deps, 'config'>, project: ProjectRow, row: ProjectConnectionRow): Connection {
  return {
    provider: row.provider,
    name: row.provider === 'oidc' ? (row.display_name ?? SOCIAL_PROVIDER_NAMES.oidc) : SOCIAL_PROVIDER_NAMES[row.provider],
    display_name: row.display_name,
    client_id: row.client_id,
    issuer: row.issuer,
    authorize_url: row.authorize_url,
    token_url: row.token_url,
    api_url: row.api_url,
    enabled: row.enabled === 1,
    callback_url: callbackUrlOf(deps, project, row.provider),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function listProjectConnections(deps: Deps, owner: UserRow, projectId: string): Promise<{ connections: Connection[] }> {
  const project = await requireProjectRole(deps, owner, projectId, 'viewer');
  return { connections: (await listConnections(deps.db, project.id)).map((row) => toConnection(deps, project, row)) };
}

/**
 * Adds or changes one of the project's providers. The secret is sealed with the master key and never
 * shown again; a change without one keeps the stored secret. A generic OpenID Connect provider needs
 * its issuer; GitHub's endpoints and the others' issuers default to the public services.
 */
export async function saveProjectConnection(
  deps: Deps,
  owner: UserRow,
  projectId: string,
  provider: SocialProvider,
  input: z.output<typeof SaveConnectionInputSchema>,
  info: RequestInfo,
): Promise<Connection> {
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  await deps.limiters.connectionChangesPerUser.consume(owner.id);
  if (!deps.config.connectionsAllowPrivate) requirePublicEndpoints(input);
  const existing = await findConnection(deps.db, project.id, provider);
  if (!input.client_secret && !existing) throw new AppError('UNPROCESSABLE_CONTENT', 'client_secret is required');
  if (provider === 'oidc' && !input.issuer) throw new AppError('UNPROCESSABLE_CONTENT', 'issuer is required for an OpenID Connect provider');
  const github = provider === 'github';
  const now = isoNow(deps.clock);
  const before = existing && auditedConnection(toConnection(deps, project, existing));
  const saved = await withTransaction(deps, async (tx) => {
    await upsertConnection(tx.db, {
      id: existing?.id ?? newId(),
      project_id: project.id,
      provider,
      display_name: provider === 'oidc' ? input.display_name : null,
      client_id: input.client_id,
      client_secret: input.client_secret ? deps.secretBox.seal(input.client_secret) : existing!.client_secret,
      issuer: github ? null : input.issuer,
      authorize_url: github ? input.authorize_url : null,
      token_url: github ? input.token_url : null,
      api_url: github ? input.api_url : null,
      enabled: input.enabled ? 1 : 0,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    const connection = toConnection(deps, project, (await findConnection(tx.db, project.id, provider))!);
    // The secret never enters the log: only whether it was replaced.
    const after = { ...auditedConnection(connection), ...(input.client_secret && { client_secret: 'replaced' }) };
    const changes = before ? changedFields(before, after) : { before: null, after };
    await recordChange(tx, { user: owner, info }, { projectId: project.id, action: 'connection.saved', target: { type: 'connection', id: provider, label: connection.name }, ...changes });
    return connection;
  });
  return saved;
}

function auditedConnection(connection: Connection): Record<string, unknown> {
  const { client_id, display_name, issuer, authorize_url, token_url, api_url, enabled } = connection;
  return { client_id, display_name, issuer, authorize_url, token_url, api_url, enabled };
}

/**
 * A project's provider is reached from this server, so its developer must not point it at the
 * server's own network: https at a host name or public address (the connection itself also refuses a
 * name that resolves to a private address). CONNECTIONS_ALLOW_PRIVATE lifts both for self-hosted providers.
 */
function requirePublicEndpoints(input: Pick<z.output<typeof SaveConnectionInputSchema>, 'issuer' | 'authorize_url' | 'token_url' | 'api_url'>): void {
  for (const field of ['issuer', 'authorize_url', 'token_url', 'api_url'] as const) {
    const value = input[field];
    if (!value) continue;
    const url = new URL(value);
    if (isPlainlyPrivate(url)) {
      throw new AppError('UNPROCESSABLE_CONTENT', `${field} must be a public address: this server does not reach providers on private or local networks`);
    }
    if (url.protocol !== 'https:') throw new AppError('UNPROCESSABLE_CONTENT', `${field} must be an https URL`);
  }
}

export async function removeProjectConnection(deps: Deps, owner: UserRow, projectId: string, provider: SocialProvider, info: RequestInfo): Promise<{ message: string }> {
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  await deps.limiters.connectionChangesPerUser.consume(owner.id);
  const existing = await findConnection(deps.db, project.id, provider);
  if (!existing) throw new AppError('NOT_FOUND', 'Connection not found');
  const connection = toConnection(deps, project, existing);
  await withTransaction(deps, async (tx) => {
    if (!(await deleteConnection(tx.db, project.id, provider))) throw new AppError('NOT_FOUND', 'Connection not found');
    await recordChange(tx, { user: owner, info }, { projectId: project.id, action: 'connection.removed', target: { type: 'connection', id: provider, label: connection.name }, before: auditedConnection(connection) });
  });
  return { message: SOCIAL_MESSAGES.connectionRemoved };
}

/** The sweep: sign-ins sent to a provider whose wait (and the public API's wait for the exchange) has ended. */
export function sweepExpiredSocialSignIns(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredSocialSignIns(deps.db, isoNow(deps.clock));
}

/** Retention: mailed links to connect a provider, expired before `before` (a day on: a late click still says why). */
export function deleteExpiredLinkRequests(deps: Pick<Deps, 'db'>, before: string): Promise<number> {
  return deleteExpiredLinkRequestsBefore(deps.db, before);
}

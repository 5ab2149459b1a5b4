import type { z } from 'zod';
import type { LogInInputSchema } from '../../../shared/schemas/auth.js';
import type { MfaChallenge, MfaVerifyInputSchema } from '../../../shared/schemas/mfa.js';
import type { PasskeyLoginInputSchema } from '../../../shared/schemas/passkeys.js';
import type { SocialProvider } from '../../../shared/schemas/social.js';
import type { User } from '../../../shared/schemas/user.js';
import { DEFAULT_LIMITS } from '../../lib/rate-limit.js';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { fitsBcrypt } from '../../lib/passwords.js';
import { newId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { deviceLabel } from '../../lib/user-agent.js';
import { newSignInMail } from '../../mail/templates.js';
import { recordLoginFailed, recordLoginSucceeded } from '../analytics/analytics.service.js';
import { recordDeviceSeen } from '../devices/devices.repo.js';
import { emitWebhookEvent } from '../changes/webhook-outbox.js';
import { networkOf } from '../ip-intel/ip-address.js';
import { requirePasswordAllowed } from '../sso-routing/sso-routing.js';
import { hasSecondFactor, MFA_SIGN_IN_EXPIRED, openMfaChallenge, requireSecondFactor, takeMfaChallenge } from '../mfa/mfa.service.js';
import { checkPasskey, PASSKEY_NOT_VERIFIED } from '../passkeys/passkeys.service.js';
import { listFailedAttemptAddresses } from '../login-attempts/login-attempts.repo.js';
import { recordLoginAttempt, type FailureReason } from '../login-attempts/login-attempts.service.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { revokeSessionsByDeviceId } from '../sessions/sessions.repo.js';
import { startSession, type IssuedTokens } from '../sessions/sessions.service.js';
import { toUser } from '../users/user.mapper.js';
import { verifyAccountPassword } from '../passwords/password-check.js';
import { normalizeEmail } from '../../lib/email.js';
import { findUserByEmail, findUserById, updateUser } from '../users/users.repo.js';
import { queueAccountMail } from '../../mail/account-mail.js';
import { requireCaptcha } from './captcha-check.js';
import { brandFor } from '../../mail/mail-brand.js';
import { requireSignInMethod } from '../realms/sign-in-methods.js';

export const INCORRECT_CREDENTIALS = 'Incorrect email or password';
export const ACCOUNT_INACTIVE = 'This account has been deactivated';
export const DEVICE_BLOCKED = 'This device has been blocked';
export const VPN_BLOCKED = 'Sign-in from VPN, proxy or hosting networks is not allowed';
export const EMAIL_NOT_VERIFIED = 'Please verify your email address before signing in';

/** A project may keep end users out until they verify their address (the platform lets everyone in). */
function mayStartUnverified(realm: Realm, user: UserRow): boolean {
  return user.is_verified === 1 || realm.policy.allowUnverifiedSignIn;
}

export interface LogInResult extends IssuedTokens {
  user: User;
}

/**
 * An account's failed-password budgets: one per client network (a stranger spends only their own),
 * and one account-wide ceiling. Both are charged before the hash is checked, so a parallel burst is
 * counted in full, and refunded when the password is right. Past the ceiling the account needs a
 * captcha when a provider is configured (every sign-in then carries one, already checked), and is
 * refused with 429 when none is.
 */
function failureBudgets(deps: Deps, realm: Realm, email: string, network: string) {
  const pair = realmKey(realm, `${email} ${network}`);
  const account = realmKey(realm, email);
  return {
    async charge(): Promise<void> {
      await deps.limiters.loginFailuresPerAccountAndIp.consume(pair);
      try {
        await deps.limiters.loginFailuresPerAccount.consume(account);
      } catch (error) {
        const pastCeiling = error instanceof AppError && error.code === 'TOO_MANY_REQUESTS';
        if (!pastCeiling || !realm.policy.captcha.config().enabled) throw error;
      }
    },
    async refund(): Promise<void> {
      await deps.limiters.loginFailuresPerAccountAndIp.reset(pair);
      await deps.limiters.loginFailuresPerAccount.refund(account);
    },
  };
}

/**
 * An admin's (or project owner's) unlock, and a successful reset: the account's budgets start afresh,
 * the ceiling and each network's (found from the failed attempts the window still counts).
 */
export async function clearSignInFailures(deps: Deps, realm: Pick<Realm, 'projectId'>, email: string): Promise<void> {
  const normalized = normalizeEmail(email);
  const since = new Date(deps.clock.now().getTime() - DEFAULT_LIMITS.loginFailuresPerAccountAndIp.durationS * 1000 * 2).toISOString();
  const addresses = await listFailedAttemptAddresses(deps.db, realm.projectId, normalized, since);
  for (const network of new Set(addresses.map(networkOf))) {
    await deps.limiters.loginFailuresPerAccountAndIp.reset(realmKey(realm, `${normalized} ${network}`));
  }
  await deps.limiters.loginFailuresPerAccount.reset(realmKey(realm, normalized));
}

type Attempt = Omit<Parameters<typeof recordLoginAttempt>[1], 'userId' | 'success' | 'failureReason'>;

/** Records a refused sign-in (attempt and analytics) and throws its error. */
async function refuse(deps: Deps, realm: Realm, attempt: Attempt, request: RequestInfo, reason: FailureReason, userId: string | null, error: AppError): Promise<never> {
  await withTransaction(deps, async (tx) => {
    await recordLoginAttempt(tx, { ...attempt, userId, success: false, failureReason: reason }, request);
    if (realm.projectId) {
      const data = { email: attempt.email, user_id: userId, reason, method: attempt.method ?? 'password', ip_address: request.ip, country_code: attempt.verdict.country_code };
      await emitWebhookEvent(tx, realm.projectId, 'login.failed', data);
    }
  });
  await recordLoginFailed(deps, realm);
  throw error;
}

function attemptOf(deps: Deps, realm: Realm, email: string, deviceFingerprint: string | null, request: RequestInfo): Attempt {
  const verdict = deps.ipIntel.lookup(request.ip, request.headers, deps.config.trustProxy !== false);
  return { projectId: realm.projectId, email, deviceFingerprint, verdict };
}

/**
 * Signs in. Unknown e-mail and wrong password cost the same bcrypt work and give the same 401.
 * Every attempt is recorded. The captcha is checked before any per-account budget is spent, so
 * bad captchas never count against an account. With two factors on, a right password answers the
 * challenge for the second step instead of a session.
 */
export async function logIn(deps: Deps, realm: Realm, input: z.output<typeof LogInInputSchema>, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  requireSignInMethod(realm, 'password');
  const { email } = input;
  const attempt: Attempt = { ...attemptOf(deps, realm, email, input.device_fingerprint, request), method: PASSWORD_METHOD };
  const fail = (reason: FailureReason, userId: string | null, error: AppError) => refuse(deps, realm, attempt, request, reason, userId, error);
  /** Runs a check whose refusal is also recorded as a failed attempt. */
  const guard = async (reason: FailureReason, check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      if (error instanceof AppError) await fail(reason, null, error);
      throw error;
    }
  };

  // The network's budget first: one address's flood must not spend what the project's other users share.
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectLogins.consume(realm.projectId);
  if (realm.policy.blockVpn && (attempt.verdict.is_vpn || attempt.verdict.is_proxy)) {
    return fail('vpn_blocked', null, new AppError('FORBIDDEN', VPN_BLOCKED));
  }
  await guard('captcha_failed', () => requireCaptcha(deps, realm, input.captcha_token, request));
  // Whether the password is right or the account exists is not the question: the domain's IdP signs its people in.
  await guard('sso_required', () => requirePasswordAllowed(deps.db, realm.projectId, email));
  const budgets = failureBudgets(deps, realm, email, request.network);
  await guard('rate_limited', budgets.charge);

  const user = await findUserByEmail(deps.db, realm.projectId, email);
  let passwordOk = false;
  if (fitsBcrypt(input.password)) {
    passwordOk = user ? await verifyAccountPassword(deps, user, input.password) : await deps.passwords.verifyAgainstDummy(input.password);
  }
  if (!user || !passwordOk) {
    return fail(user ? 'invalid_credentials' : 'unknown_email', user?.id ?? null, new AppError('UNAUTHORIZED', INCORRECT_CREDENTIALS));
  }
  await budgets.refund();
  if (user.is_active !== 1) return fail('account_inactive', user.id, new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  if (!mayStartUnverified(realm, user)) return fail('email_unverified', user.id, new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED));
  if (hasSecondFactor(user)) return openMfaChallenge(deps, user, input.device_fingerprint);
  return startSignedInSession(deps, realm, user, attempt, request, ['pwd']);
}

/**
 * The second step of a sign-in with two factors: the mfa_token from the first step and a TOTP or
 * recovery code, or a passkey's answer. A token lives 5 minutes, allows 5 tries and works once; a
 * wrong factor is a failed attempt with reason `mfa_failed`.
 */
export async function verifyMfaSignIn(deps: Deps, realm: Realm, input: z.output<typeof MfaVerifyInputSchema>, request: RequestInfo): Promise<LogInResult> {
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  const { challenge, complete } = await takeMfaChallenge(deps, input.mfa_token);
  const user = await findUserById(deps.db, challenge.user_id);
  // A token from another realm (another project, or the platform) does not exist here.
  if (!user || user.project_id !== realm.projectId) throw new AppError('UNAUTHORIZED', MFA_SIGN_IN_EXPIRED);
  // After a provider the first factor is the provider's ('fed', and the attempt names it), after a mailed link the mailbox, else the password.
  // The attempt names both factors: the first (password, mailed link or provider) and the second (a code or a passkey).
  const attempt: Attempt = {
    ...attemptOf(deps, realm, user.email, challenge.device_fingerprint, request),
    method: `${challenge.first_factor ?? PASSWORD_METHOD}+${input.passkey_response ? PASSKEY_METHOD : 'code'}`,
  };
  if (user.is_active !== 1) return refuse(deps, realm, attempt, request, 'account_inactive', user.id, new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  try {
    if (input.passkey_response) {
      const { verified } = await checkPasskey(deps, realm, input.passkey_response, { purpose: 'mfa', userId: user.id, mfaChallengeId: challenge.id });
      if (!verified) throw new AppError('BAD_REQUEST', PASSKEY_NOT_VERIFIED);
    } else {
      await requireSecondFactor(deps, user, input.code ?? '', request);
    }
  } catch (error) {
    if (error instanceof AppError) await refuse(deps, realm, attempt, request, 'mfa_failed', user.id, error);
    throw error;
  }
  if (!(await complete())) throw new AppError('UNAUTHORIZED', MFA_SIGN_IN_EXPIRED);
  return startSignedInSession(deps, realm, user, attempt, request, [firstFactorAmr(challenge.first_factor), input.passkey_response ? 'hwk' : 'otp', 'mfa']);
}

/**
 * Signs in with a passkey alone: it counts as both factors (the authenticator verified the user).
 * The limits, VPN policy, deactivation and blocked devices apply as to a password; a known passkey
 * whose answer fails is a failed attempt with reason `passkey_failed`.
 */
export async function logInWithPasskey(deps: Deps, realm: Realm, input: z.output<typeof PasskeyLoginInputSchema>, request: RequestInfo): Promise<LogInResult> {
  requireSignInMethod(realm, 'passkey');
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectLogins.consume(realm.projectId);
  const { user, verified } = await checkPasskey(deps, realm, input.response, { purpose: 'login' });
  if (!user) throw new AppError('UNAUTHORIZED', PASSKEY_NOT_VERIFIED);
  const attempt: Attempt = { ...attemptOf(deps, realm, user.email, input.device_fingerprint, request), method: PASSKEY_METHOD };
  const fail = (reason: FailureReason, error: AppError) => refuse(deps, realm, attempt, request, reason, user.id, error);
  if (!verified) return fail('passkey_failed', new AppError('UNAUTHORIZED', PASSKEY_NOT_VERIFIED));
  if (realm.policy.blockVpn && (attempt.verdict.is_vpn || attempt.verdict.is_proxy)) return fail('vpn_blocked', new AppError('FORBIDDEN', VPN_BLOCKED));
  if (user.is_active !== 1) return fail('account_inactive', new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  if (!mayStartUnverified(realm, user)) return fail('email_unverified', new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED));
  return startSignedInSession(deps, realm, user, attempt, request, ['hwk']);
}

/**
 * How a sign-in was made, as its login attempt records it (`method`): 'password', 'passkey', a mailed
 * link ('email'), a provider ('github', 'google', 'microsoft', 'oidc'), and for the second step of two
 * factors the first and the second joined by '+' ('password+code', 'github+passkey').
 */
export const PASSWORD_METHOD = 'password';
export const PASSKEY_METHOD = 'passkey';

/** The first factor a mailed link stands for (its `amr` value, and the second step's `first_factor`). */
export const MAILED_LINK_FACTOR = 'email';

/**
 * Signs in the account whose address a mailed link just proved, in the browser that asked for the
 * link (the hosted pages check that): the limits, VPN policy, deactivation, blocked devices and
 * attempt record of a password sign-in. The link proves the mailbox only, so an account with two
 * factors answers the second step's challenge, never a session.
 */
export async function logInWithMailedLink(deps: Deps, realm: Realm, userId: string, deviceFingerprint: string | null, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectLogins.consume(realm.projectId);
  const user = await findUserById(deps.db, userId);
  if (!user || user.project_id !== realm.projectId) throw new AppError('UNAUTHORIZED', INCORRECT_CREDENTIALS);
  const attempt: Attempt = { ...attemptOf(deps, realm, user.email, deviceFingerprint, request), method: MAILED_LINK_FACTOR };
  const fail = (reason: FailureReason, error: AppError) => refuse(deps, realm, attempt, request, reason, user.id, error);
  if (realm.policy.blockVpn && (attempt.verdict.is_vpn || attempt.verdict.is_proxy)) return fail('vpn_blocked', new AppError('FORBIDDEN', VPN_BLOCKED));
  if (user.is_active !== 1) return fail('account_inactive', new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  if (!mayStartUnverified(realm, user)) return fail('email_unverified', new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED));
  if (hasSecondFactor(user)) return openMfaChallenge(deps, user, deviceFingerprint, MAILED_LINK_FACTOR);
  return startSignedInSession(deps, realm, user, attempt, request, [MAILED_LINK_FACTOR]);
}

/** The `amr` value of a waiting second step's first factor: the password, a mailed link or code, or a provider. */
function firstFactorAmr(firstFactor: string | null): string {
  if (firstFactor === null) return 'pwd';
  return firstFactor === MAILED_LINK_FACTOR || firstFactor === EMAIL_CODE_METHOD || firstFactor === MAGIC_LINK_METHOD ? MAILED_LINK_FACTOR : 'fed';
}

/** Passwordless first factors, as the login attempt (and a waiting second step) names them. */
export const EMAIL_CODE_METHOD = 'email_code';
export const MAGIC_LINK_METHOD = 'magic_link';

/** A sign-in by proof of the mailbox (modules/passwordless). */
export interface MailboxSignIn {
  method: typeof EMAIL_CODE_METHOD | typeof MAGIC_LINK_METHOD;
  email: string;
  deviceFingerprint: string | null;
  /** Checks the code or link and answers the address's account, made when it has none (refusals are AppErrors). */
  prove(): Promise<UserRow>;
}

/**
 * Signs in with a mailed code or magic link: the VPN policy, deactivation, blocked devices and attempt
 * record of a password (the attempt names the method; a wrong or spent code is a failed attempt with
 * reason `invalid_credentials`), and two factors still asked (the mailbox is one factor). The caller
 * charges the request limits first (a code's guesses must cost before they are checked).
 */
export async function logInWithMailbox(deps: Deps, realm: Realm, signIn: MailboxSignIn, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  const attempt: Attempt = { ...attemptOf(deps, realm, signIn.email, signIn.deviceFingerprint, request), method: signIn.method };
  const fail = (reason: FailureReason, userId: string | null, error: AppError) => refuse(deps, realm, attempt, request, reason, userId, error);
  if (realm.policy.blockVpn && (attempt.verdict.is_vpn || attempt.verdict.is_proxy)) return fail('vpn_blocked', null, new AppError('FORBIDDEN', VPN_BLOCKED));
  let user: UserRow;
  try {
    user = await signIn.prove();
  } catch (error) {
    if (error instanceof AppError && error.code !== 'TOO_MANY_REQUESTS') await fail('invalid_credentials', null, error);
    throw error;
  }
  if (user.is_active !== 1) return fail('account_inactive', user.id, new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  if (hasSecondFactor(user)) return openMfaChallenge(deps, user, signIn.deviceFingerprint, signIn.method);
  return startSignedInSession(deps, realm, user, attempt, request, [MAILED_LINK_FACTOR]);
}

/** What a provider vouched for, to sign in with (social sign-in). */
export interface ProviderSignIn {
  /** A social provider, or 'saml' for an enterprise SAML connection (enterprise OpenID Connect is 'oidc'). */
  provider: SocialProvider | 'saml';
  /** The provider's e-mail, for the attempt's record. */
  email: string;
  /** The provider asserted a second factor (`amr` has `mfa`): ours is not asked again. */
  providerMfa: boolean;
  deviceFingerprint: string | null;
  /** The account the provider's identity belongs to, found or made (refusals are AppErrors). */
  findOrCreateUser(): Promise<UserRow>;
  /**
   * An enterprise connection: the session starts in its organization, and the organization's IdP,
   * which owns the address's domain, decides how strongly its people sign in (ours is not asked).
   */
  enterprise?: { organizationId: string };
}

/**
 * Signs in with a provider's word for who the user is: the same limits, VPN policy, deactivation,
 * blocked devices and attempt record as a password (the attempt names the provider), and two
 * factors still asked unless the provider asserted them. A refusal to find or make the account (an
 * address that belongs to another account) is a failed attempt with reason `link_required`.
 */
export async function logInWithProvider(deps: Deps, realm: Realm, signIn: ProviderSignIn, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  const attempt: Attempt = { ...attemptOf(deps, realm, normalizeEmail(signIn.email), signIn.deviceFingerprint, request), method: signIn.provider };
  const fail = (reason: FailureReason, userId: string | null, error: AppError) => refuse(deps, realm, attempt, request, reason, userId, error);
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectLogins.consume(realm.projectId);
  if (realm.policy.blockVpn && (attempt.verdict.is_vpn || attempt.verdict.is_proxy)) {
    return fail('vpn_blocked', null, new AppError('FORBIDDEN', VPN_BLOCKED));
  }
  let user: UserRow;
  try {
    user = await signIn.findOrCreateUser();
  } catch (error) {
    if (error instanceof AppError && error.code !== 'TOO_MANY_REQUESTS') await fail('link_required', null, error);
    throw error;
  }
  if (user.is_active !== 1) return fail('account_inactive', user.id, new AppError('FORBIDDEN', ACCOUNT_INACTIVE));
  if (!mayStartUnverified(realm, user)) return fail('email_unverified', user.id, new AppError('FORBIDDEN', EMAIL_NOT_VERIFIED));
  if (hasSecondFactor(user) && !signIn.providerMfa && !signIn.enterprise) return openMfaChallenge(deps, user, signIn.deviceFingerprint, signIn.provider);
  return startSignedInSession(deps, realm, user, attempt, request, signIn.providerMfa ? ['fed', 'mfa'] : ['fed'], signIn.enterprise?.organizationId ?? null);
}

/**
 * Both factors are in (`authMethods`, as OIDC `amr` values): the device, the session, the last login,
 * the attempt and analytics commit together.
 */
async function startSignedInSession(
  deps: Deps,
  realm: Realm,
  user: UserRow,
  attempt: Attempt,
  request: RequestInfo,
  authMethods: string[],
  organizationId: string | null = null,
): Promise<LogInResult> {
  const now = isoNow(deps.clock);
  const fingerprint = attempt.deviceFingerprint;
  const signIn = await withTransaction(deps, async (tx) => {
    const seen = fingerprint
      ? await recordDeviceSeen(tx.db, { id: newId(), user_id: user.id, fingerprint, user_agent: request.userAgent, ip: request.ip, now })
      : null;
    if (seen?.device.is_blocked === 1) return { blocked: true, deviceId: seen.device.id } as const;
    const { sessionId, tokens } = await startSession(tx, realm, user.id, seen?.device.id ?? null, request, { authMethods }, organizationId);
    const signedIn = (await updateUser(tx.db, user.id, { last_login: now }))!;
    if (realm.projectId) {
      const data = { session_id: sessionId, user: { id: user.id, email: user.email }, auth_methods: authMethods, ip_address: request.ip, device_id: fingerprint };
      await emitWebhookEvent(tx, realm.projectId, 'session.created', data);
    }
    await recordLoginAttempt(tx, { ...attempt, userId: user.id, success: true, failureReason: null }, request);
    await recordLoginSucceeded(tx, realm, user.id);
    // The first sign-in of an account is not news; a later one from an unseen device is.
    if (seen?.isNew && user.last_login) {
      const where = { device: deviceLabel(request.userAgent), ip: request.ip, country: attempt.verdict.country_code ?? 'Unknown', time: now };
      await queueAccountMail(tx, user, 'newSignInMail', newSignInMail(user.email, where, brandFor(realm.projectId, realm.policy.mail, user, request)));
    }
    return { blocked: false, tokens, signedIn } as const;
  });
  if (signIn.blocked) {
    await revokeSessionsByDeviceId(deps.db, signIn.deviceId, now, 'device_blocked');
    return refuse(deps, realm, attempt, request, 'device_blocked', user.id, new AppError('FORBIDDEN', DEVICE_BLOCKED));
  }

  return { ...signIn.tokens, user: toUser(signIn.signedIn) };
}

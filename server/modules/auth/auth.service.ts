import type { z } from 'zod';
import type {
  ChangePasswordInputSchema,
  EmailOnlyInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import type { User } from '../../../shared/schemas/user.js';
import { EMAIL_VERIFICATION_TTL_S, PASSWORD_RESET_TTL_S } from '../../../shared/constants.js';
import { MESSAGES, VALIDATION } from '../../../shared/messages.js';
import { sendInBackground, type Deps } from '../../deps.js';
import type { TokenPurpose, UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import { isCommonPassword } from '../../lib/passwords.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { newSignInMail, passwordChangedMail, passwordResetMail, signupAttemptMail, verificationMail } from '../../mail/templates.js';
import { withTransaction } from '../../db/transaction.js';
import { recordLoginFailed, recordLoginSucceeded, recordSignup } from '../analytics/analytics.service.js';
import { recordDeviceSeen } from '../devices/devices.repo.js';
import { recordLoginAttempt, type FailureReason } from '../login-attempts/login-attempts.service.js';
import { revokeSessionsByDeviceId, revokeSessionsByUserId } from '../sessions/sessions.repo.js';
import { startSession, type IssuedTokens } from '../sessions/sessions.service.js';
import { toUser } from '../users/user.mapper.js';
import { findUserByEmail, findUserById, insertUserIfNew, normalizeEmail, updateUser } from '../users/users.repo.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { consumeOneTimeToken, expireOneTimeTokens, findOneTimeToken, insertOneTimeToken } from './one-time-tokens.repo.js';

type SignUpInput = z.output<typeof SignUpInputSchema>;
type LogInInput = z.output<typeof LogInInputSchema>;

export const INCORRECT_CREDENTIALS = 'Incorrect email or password';
export const ACCOUNT_INACTIVE = 'This account has been deactivated';
export const DEVICE_BLOCKED = 'This device has been blocked';
export const CAPTCHA_FAILED = 'Captcha verification failed';
export const VPN_BLOCKED = 'Sign-in from VPN, proxy or hosting networks is not allowed';

async function requireCaptcha(deps: Deps, token: string, request: RequestInfo): Promise<void> {
  if (!deps.captcha.config().enabled) return;
  if (!(await deps.captcha.verify(token, request.ip))) throw new AppError('BAD_REQUEST', CAPTCHA_FAILED);
}

function rejectCommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new AppError('UNPROCESSABLE_CONTENT', VALIDATION.passwordTooCommon);
}

/** ADMIN_EMAILS names platform accounts only; a project's end users are never admins. */
function isListedAdmin(deps: Deps, realm: Realm, email: string): boolean {
  return realm.projectId === null && deps.config.adminEmails.includes(normalizeEmail(email));
}

/** Issues a one-time link token (stored hashed) after retiring the user's older ones of that purpose. */
async function issueOneTimeToken(deps: Deps, userId: string, purpose: TokenPurpose, ttlS: number): Promise<string> {
  const token = randomToken();
  const issuedAt = deps.clock.now();
  const now = issuedAt.toISOString();
  await expireOneTimeTokens(deps.db, userId, purpose, now);
  await insertOneTimeToken(deps.db, {
    id: newId(),
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    expires_at: new Date(issuedAt.getTime() + ttlS * 1000).toISOString(),
    created_at: now,
  });
  return token;
}

/** Links are built from APP_URL (or the project's website_url) only, never from request headers. */
function appLink(realm: Realm, path: string, token?: string): string {
  const url = new URL(path.replace(/^\//, ''), `${realm.linkBase.replace(/\/+$/, '')}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

async function sendVerification(deps: Deps, realm: Realm, user: UserRow): Promise<void> {
  const token = await issueOneTimeToken(deps, user.id, 'verify_email', EMAIL_VERIFICATION_TTL_S);
  sendInBackground(deps, verificationMail(user.email, appLink(realm, '/verify-email', token)));
}

/**
 * Creates a developer account. An address that already has one gets the same answer and timing
 * (the hash is computed either way) and nothing is created; its owner is told by mail instead.
 */
export async function signUp(deps: Deps, realm: Realm, input: SignUpInput, request: RequestInfo): Promise<{ message: string }> {
  await deps.limiters.signupPerIp.consume(realmKey(realm, request.ip));
  await requireCaptcha(deps, input.captcha_token, request);
  rejectCommonPassword(input.password);

  const passwordHash = await deps.passwords.hash(input.password);
  const now = isoNow(deps.clock);
  const id = newId();
  const created = await insertUserIfNew(deps.db, {
    id,
    project_id: realm.projectId,
    email: input.email,
    password_hash: passwordHash,
    first_name: input.first_name,
    last_name: input.last_name,
    company_name: input.company_name,
    website_url: input.website_url,
    role: isListedAdmin(deps, realm, input.email) ? 'admin' : 'user',
    is_active: 1,
    is_verified: 0,
    login_notifications: 1,
    created_at: now,
    updated_at: now,
    last_login: null,
  });

  const user = created ? await findUserById(deps.db, id) : await findUserByEmail(deps.db, realm.projectId, input.email);
  if (user && (created || user.is_verified === 0)) await sendVerification(deps, realm, user);
  else if (user) sendInBackground(deps, signupAttemptMail(user.email, appLink(realm, '/login'), appLink(realm, '/forgot-password')));
  if (created) await recordSignup(deps, realm);
  return { message: MESSAGES.signupSuccess };
}

export async function verifyEmail(deps: Deps, realm: Realm, input: z.output<typeof VerifyEmailInputSchema>, request: RequestInfo): Promise<{ message: string }> {
  await deps.limiters.verifyPerIp.consume(realmKey(realm, request.ip));
  const token = await findOneTimeToken(deps.db, realm.projectId, 'verify_email', sha256(input.token));
  const now = isoNow(deps.clock);
  if (!token) throw new AppError('BAD_REQUEST', 'Invalid verification token');
  if (token.used_at) throw new AppError('BAD_REQUEST', 'This verification link has already been used');
  if (token.expires_at <= now) throw new AppError('BAD_REQUEST', 'This verification link has expired. Please request a new one.');
  if (!(await consumeOneTimeToken(deps.db, token.id, now))) {
    throw new AppError('BAD_REQUEST', 'This verification link has already been used');
  }
  await updateUser(deps.db, token.user_id, { is_verified: 1, updated_at: now });
  return { message: MESSAGES.emailVerified };
}

/** Same answer whether or not the address has an account. */
export async function resendVerification(deps: Deps, realm: Realm, input: z.output<typeof EmailOnlyInputSchema>, request: RequestInfo): Promise<{ message: string }> {
  await deps.limiters.resendPerIp.consume(realmKey(realm, request.ip));
  await deps.limiters.resendPerAccount.consume(realmKey(realm, normalizeEmail(input.email)));
  const user = await findUserByEmail(deps.db, realm.projectId, input.email);
  if (user && user.is_verified === 0 && user.is_active === 1) await sendVerification(deps, realm, user);
  return { message: MESSAGES.verificationSent };
}

export interface LogInResult extends IssuedTokens {
  user: User;
}

/**
 * Signs in. Unknown e-mail and wrong password cost the same bcrypt work and give the same 401.
 * Every attempt is recorded; failures count against the account's budget.
 */
export async function logIn(deps: Deps, realm: Realm, input: LogInInput, request: RequestInfo): Promise<LogInResult> {
  const email = normalizeEmail(input.email);
  const accountKey = realmKey(realm, email);
  const verdict = deps.ipIntel.lookup(request.ip, request.headers, deps.config.trustProxy);
  const attempt = { projectId: realm.projectId, email, deviceFingerprint: input.device_fingerprint, verdict };
  const fail = async (reason: FailureReason, userId: string | null, error: AppError): Promise<never> => {
    await recordLoginAttempt(deps, { ...attempt, userId, success: false, failureReason: reason }, request);
    await recordLoginFailed(deps, realm);
    throw error;
  };

  await deps.limiters.loginPerIp.consume(realmKey(realm, request.ip));
  if (deps.config.blockVpn && (verdict.is_vpn || verdict.is_proxy)) {
    return fail('vpn_blocked', null, new AppError('FORBIDDEN', VPN_BLOCKED));
  }
  /** Runs a check whose refusal is also recorded as a failed attempt. */
  const guard = async (reason: FailureReason, check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      if (error instanceof AppError) await fail(reason, null, error);
      throw error;
    }
  };
  await guard('rate_limited', () => deps.limiters.loginPerAccount.check(accountKey));
  await guard('captcha_failed', () => requireCaptcha(deps, input.captcha_token, request));

  const user = await findUserByEmail(deps.db, realm.projectId, email);
  const passwordOk = user ? await deps.passwords.verify(input.password, user.password_hash) : await deps.passwords.verifyAgainstDummy(input.password);
  if (!user || !passwordOk) {
    await deps.limiters.loginPerAccount.penalize(accountKey);
    return fail(user ? 'invalid_credentials' : 'unknown_email', user?.id ?? null, new AppError('UNAUTHORIZED', INCORRECT_CREDENTIALS));
  }
  if (user.is_active !== 1) return fail('account_inactive', user.id, new AppError('FORBIDDEN', ACCOUNT_INACTIVE));

  // Everything a sign-in writes commits together, or not at all.
  const now = isoNow(deps.clock);
  const signIn = await withTransaction(deps, async (tx) => {
    const seen = input.device_fingerprint
      ? await recordDeviceSeen(tx.db, { id: newId(), user_id: user.id, fingerprint: input.device_fingerprint, user_agent: request.userAgent, ip: request.ip, now })
      : null;
    if (seen?.device.is_blocked === 1) return { blocked: true, deviceId: seen.device.id } as const;
    const { tokens } = await startSession(tx, realm, user.id, seen?.device.id ?? null, request);
    const signedIn = (await updateUser(tx.db, user.id, { last_login: now }))!;
    await recordLoginAttempt(tx, { ...attempt, userId: user.id, success: true, failureReason: null }, request);
    await recordLoginSucceeded(tx, realm, user.id);
    return { blocked: false, tokens, signedIn, newDevice: seen?.isNew === true } as const;
  });
  if (signIn.blocked) {
    await revokeSessionsByDeviceId(deps.db, signIn.deviceId, now, 'device_blocked');
    return fail('device_blocked', user.id, new AppError('FORBIDDEN', DEVICE_BLOCKED));
  }

  await deps.limiters.loginPerAccount.reset(accountKey);
  // The first sign-in of an account is not news; a later one from an unseen device is.
  if (signIn.newDevice && user.last_login && user.login_notifications === 1) {
    sendInBackground(deps, newSignInMail(user.email, { device: request.userAgent ?? 'Unknown device', ip: request.ip, country: verdict.country_code ?? 'Unknown', time: now }));
  }
  return { ...signIn.tokens, user: toUser(signIn.signedIn) };
}

/** An admin's (or project owner's) unlock: the account's failed-sign-in budget starts afresh. */
export async function clearSignInFailures(deps: Deps, realm: Pick<Realm, 'projectId'>, email: string): Promise<void> {
  await deps.limiters.loginPerAccount.reset(realmKey(realm, normalizeEmail(email)));
}

/** Same answer for unknown addresses; a reset link is valid for one hour and works once. */
export async function forgotPassword(deps: Deps, realm: Realm, input: z.output<typeof ForgotPasswordInputSchema>, request: RequestInfo): Promise<{ message: string }> {
  await deps.limiters.forgotPerIp.consume(realmKey(realm, request.ip));
  await deps.limiters.forgotPerAccount.consume(realmKey(realm, normalizeEmail(input.email)));
  await requireCaptcha(deps, input.captcha_token, request);
  const user = await findUserByEmail(deps.db, realm.projectId, input.email);
  if (user && user.is_active === 1) {
    const token = await issueOneTimeToken(deps, user.id, 'reset_password', PASSWORD_RESET_TTL_S);
    sendInBackground(deps, passwordResetMail(user.email, appLink(realm, '/reset-password', token)));
  }
  return { message: 'If an account exists for that email, a password reset link is on its way.' };
}

/** Sets a new password from a mailed link; every session of the account is signed out. */
export async function resetPassword(deps: Deps, realm: Realm, input: z.output<typeof ResetPasswordInputSchema>): Promise<{ message: string }> {
  const token = await findOneTimeToken(deps.db, realm.projectId, 'reset_password', sha256(input.token));
  const now = isoNow(deps.clock);
  if (!token) throw new AppError('BAD_REQUEST', VALIDATION.resetTokenInvalid);
  if (token.used_at) throw new AppError('BAD_REQUEST', 'This reset link has already been used');
  if (token.expires_at <= now) throw new AppError('BAD_REQUEST', 'This reset link has expired. Please request a new one.');
  rejectCommonPassword(input.new_password);

  const passwordHash = await deps.passwords.hash(input.new_password);
  const user = await withTransaction(deps, async (tx) => {
    if (!(await consumeOneTimeToken(tx.db, token.id, isoNow(tx.clock)))) {
      throw new AppError('BAD_REQUEST', 'This reset link has already been used');
    }
    // The mailed link proves the address, so a reset also verifies it.
    const updated = await updateUser(tx.db, token.user_id, { password_hash: passwordHash, is_verified: 1, updated_at: now });
    await revokeSessionsByUserId(tx.db, token.user_id, now, 'password_reset');
    return updated;
  });
  if (user) {
    await clearSignInFailures(deps, realm, user.email);
    sendInBackground(deps, passwordChangedMail(user.email));
  }
  return { message: MESSAGES.passwordResetSuccess };
}

/** Changes the password of the signed-in account; other sessions are signed out, this one stays. */
export async function changePassword(
  deps: Deps,
  auth: { user: UserRow; sessionId: string },
  input: z.output<typeof ChangePasswordInputSchema>,
): Promise<{ message: string }> {
  if (!(await deps.passwords.verify(input.current_password, auth.user.password_hash))) {
    throw new AppError('BAD_REQUEST', 'Current password is incorrect');
  }
  rejectCommonPassword(input.new_password);
  const passwordHash = await deps.passwords.hash(input.new_password);
  const now = isoNow(deps.clock);
  await withTransaction(deps, async (tx) => {
    await updateUser(tx.db, auth.user.id, { password_hash: passwordHash, updated_at: now });
    await revokeSessionsByUserId(tx.db, auth.user.id, now, 'password_changed', auth.sessionId);
  });
  sendInBackground(deps, passwordChangedMail(auth.user.email));
  return { message: MESSAGES.passwordChanged };
}

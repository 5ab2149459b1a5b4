import type { z } from 'zod';
import type {
  ChangeEmailInputSchema,
  ChangePasswordInputSchema,
  ConfirmEmailChangeInputSchema,
  ForgotPasswordInputSchema,
  ResendVerificationInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { EMAIL_CHANGE_TTL_S, EMAIL_VERIFICATION_TTL_S, PASSWORD_RESET_TTL_S } from '../../../shared/constants.js';
import { MESSAGES, VALIDATION } from '../../../shared/messages.js';
import { passwordTooShortFor } from '../../../shared/schemas/project-settings.js';
import { SOCIAL_PROVIDER_NAMES } from '../../../shared/schemas/social.js';
import type { Deps } from '../../deps.js';
import type { TokenPurpose, UserRow } from '../../db/schema.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { queueMail } from '../../mail/outbox.js';
import { mayMail as mayMailTemplate } from '../../mail/preferences.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import { isCommonPassword } from '../../lib/passwords.js';
import type { RequestInfo } from '../../lib/request-info.js';
import {
  accountSecuredMail,
  emailChangeConfirmationMail,
  emailChangedMail,
  emailChangeRequestedMail,
  emailTakenMail,
  passwordChangedMail,
  passwordResetMail,
  signupAttemptMail,
  verificationMail,
} from '../../mail/templates.js';
import { recordSignup } from '../analytics/analytics.service.js';
import { emitUserUpdated } from '../webhooks/account-events.js';
import { emitWebhookEvent, type EventWriter } from '../changes/webhook-outbox.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { revokeSessionsByUserId } from '../sessions/sessions.repo.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import { requireRecentProof } from '../sessions/step-up.js';
import { normalizeEmail } from '../../lib/email.js';
import { changeEmailIfFree, findUserByEmail, findUserById, insertUserIfNew, updateUser } from '../users/users.repo.js';
import { aboutAccount, appLink, MAIL_LINK_PATHS, queueAccountMail, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { listAttachments, removeAllAttachments, removePasskeysAndIdentities, type Attachments } from './attachments.repo.js';
import { requireCaptcha } from './captcha-check.js';
import { checkCurrentPassword } from '../passwords/current-password.js';
import { continuationColumns, continuationOfRow, NO_CONTINUATION, type LinkContinuation, type ProvenLink } from './link-continuation.js';
import { consumeOneTimeToken, expireOneTimeTokens, findLatestAttemptPassword, findOneTimeToken, insertOneTimeToken } from './one-time-tokens.repo.js';
import { clearSignInFailures } from './sign-in.service.js';
import { requireSignInMethod } from '../realms/sign-in-methods.js';
import { requestLocale } from '../../mail/locale.js';
import { brandFor } from '../../mail/mail-brand.js';
import type { TFunction } from 'i18next';
import { PLATFORM_BRAND } from '../../mail/branding.js';
import { mailTranslator } from '../../mail/mail-i18n.js';
import { requirePasswordAllowed } from '../sso-routing/sso-routing.js';

export { clearSignInFailures, logIn, logInWithMailbox, logInWithMailedLink, logInWithPasskey, logInWithProvider, verifyMfaSignIn, type LogInResult } from './sign-in.service.js';

const LINK_USED = { verify: 'This verification link has already been used', reset: 'This reset link has already been used' };

/** The realm's password rules beyond the schema's: its minimum length, and the common-password list when it asks for it. */
function rejectWeakPassword(realm: Realm, password: string): void {
  const { passwordMinLength, checkCommonPasswords } = realm.policy;
  if ([...password].length < passwordMinLength) throw new AppError('UNPROCESSABLE_CONTENT', passwordTooShortFor(passwordMinLength));
  if (checkCommonPasswords && isCommonPassword(password)) throw new AppError('UNPROCESSABLE_CONTENT', VALIDATION.passwordTooCommon);
}

/**
 * "Your password was changed", in the realm's brand and template (whose link opens the sign-in page);
 * `notice` says what else the change did to the account's ways in.
 */
function passwordChangedNotice(realm: Realm, user: UserRow, request: RequestInfo | null, notice: readonly string[] = []) {
  return passwordChangedMail(user.email, appLink(realm, MAIL_LINK_PATHS.password_changed), brandFor(realm.projectId, realm.policy.mail, user, request), notice);
}

/**
 * What was removed from an account, one line each for the owner's notice (`alsoRemoved` first); empty
 * when nothing but sessions was.
 */
export function describeRemoved(removed: Attachments, sessionsEnded: number, alsoRemoved: readonly string[] = [], t: TFunction = ENGLISH_MAIL): string[] {
  const lines = [
    ...alsoRemoved,
    ...removed.passkeys.map((name) => t('removed.passkey', { name })),
    ...(removed.secondFactor ? [t('removed.secondFactor')] : []),
    ...removed.identities.map((provider) => t('removed.identity', { provider: SOCIAL_PROVIDER_NAMES[provider] })),
    ...(removed.pendingAddressChanges > 0 ? [t('removed.addressChange')] : []),
  ];
  if (lines.length === 0) return [];
  return sessionsEnded > 0 ? [...lines, t('removed.sessions', { count: sessionsEnded })] : lines;
}

/** The owner's notices are in their mail's language (mail/locale.ts); English where none is known. */
const ENGLISH_MAIL = mailTranslator(PLATFORM_BRAND);

/**
 * The address of an account was just proven by someone other than whoever made its current state (the
 * owner's own sign-up link, a reset link, a mailed link to connect a provider): every way in and pending
 * change attached before goes, in the proof's unit of work. Answers what it removed.
 */
export async function removeUnprovenAttachments(tx: Deps, userId: string, now: string): Promise<Attachments> {
  const attached = await listAttachments(tx.db, userId, now);
  await removeAllAttachments(tx.db, userId, now);
  return attached;
}

/** ADMIN_EMAILS names platform accounts only; a project's end users are never admins. */
function isListedAdmin(deps: Deps, realm: Realm, email: string): boolean {
  return realm.projectId === null && deps.config.adminEmails.includes(normalizeEmail(email));
}

/**
 * Issues a one-time link token, stored hashed. Pending links of the same purpose stay valid (a
 * stranger's request must not kill the link the owner is about to click); using one ends the others.
 */
async function issueOneTimeToken(
  deps: Deps,
  userId: string,
  purpose: TokenPurpose,
  ttlS: number,
  passwordHash: string | null = null,
  newEmail: string | null = null,
  continuation: LinkContinuation = NO_CONTINUATION,
): Promise<string> {
  const token = randomToken();
  const issuedAt = deps.clock.now();
  await insertOneTimeToken(deps.db, {
    id: newId(),
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    expires_at: new Date(issuedAt.getTime() + ttlS * 1000).toISOString(),
    created_at: issuedAt.toISOString(),
    password_hash: passwordHash,
    new_email: newEmail,
    ...continuationColumns(continuation),
  });
  return token;
}

/**
 * A verification link bound to the password of the sign-up attempt it confirms (none for an account
 * made by a provider), and to the app's sign-in it continues, if any: the link and its mail in the
 * unit of work of `tx` (the mail's cap counted before it).
 */
async function queueVerification(tx: Deps, realm: Realm, user: UserRow, attemptPasswordHash: string | null, request: RequestInfo | null, continuation = NO_CONTINUATION): Promise<void> {
  const token = await issueOneTimeToken(tx, user.id, 'verify_email', EMAIL_VERIFICATION_TTL_S, attemptPasswordHash, null, continuation);
  const brand = brandFor(realm.projectId, realm.policy.mail, user, request);
  await queueCappedMail(tx, 'verification', verificationMail(user.email, appLink(realm, MAIL_LINK_PATHS.verification, token), brand), aboutAccount(user));
}

/**
 * Creates an account. An address that already has one gets the same answer and the same hashing
 * work, and nothing is created: an unverified one gets a verification link of its own for this
 * attempt's password (whoever proves the mailbox decides which password the account keeps), a
 * verified one a notice that someone tried.
 */
export async function signUp(
  deps: Deps,
  realm: Realm,
  input: z.output<typeof SignUpInputSchema>,
  request: RequestInfo,
  continuation = NO_CONTINUATION,
): Promise<{ message: string }> {
  // A project without passwords makes its accounts by a mailed code or link, or a provider.
  requireSignInMethod(realm, 'password');
  await deps.limiters.signupPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectSignups.consume(realm.projectId);
  await requireCaptcha(deps, realm, input.captcha_token, request);
  // The domain's IdP makes its people's accounts (just in time): an enforced connection's domain gets no password.
  await requirePasswordAllowed(deps.db, realm.projectId, input.email);
  rejectWeakPassword(realm, input.password);

  const passwordHash = await deps.passwords.hash(input.password);
  const now = isoNow(deps.clock);
  const id = newId();
  // The cap of the mail this attempt sends is counted before the unit of work (it may wait on Redis).
  const known = await findUserByEmail(deps.db, realm.projectId, input.email);
  const kind = known?.is_verified === 1 ? 'signup_notice' : 'verification';
  const mayMail = await withinMailCap(deps, kind, input.email);
  const created = await withTransaction(deps, async (tx) => {
    const inserted = await insertUserIfNew(tx.db, {
      id,
      project_id: realm.projectId,
      email: input.email,
      password_hash: passwordHash,
      first_name: input.first_name,
      last_name: input.last_name,
      company_name: input.company_name,
      website_url: input.website_url,
      // An end user's language: the one asked for, else the request's (a developer's dashboard is English).
      locale: realm.projectId ? (input.locale ?? requestLocale(request)) : null,
      role: isListedAdmin(deps, realm, input.email) ? 'admin' : 'user',
      is_active: 1,
      is_verified: 0,
      login_notifications: 1,
      created_at: now,
      updated_at: now,
      last_login: null,
    });
    if (inserted && realm.projectId) await emitUserEvent(tx, realm.projectId, 'user.created', { id, email: input.email, is_verified: false });
    // The link (or the notice) commits with the account, or not at all. An account verified meanwhile gets no mail of the other kind.
    const user = inserted ? await findUserById(tx.db, id) : await findUserByEmail(tx.db, realm.projectId, input.email);
    if (mayMail && user?.is_verified === 0 && kind === 'verification') await queueVerification(tx, realm, user, passwordHash, request, continuation);
    else if (mayMail && user?.is_verified === 1 && kind === 'signup_notice') {
      const brand = brandFor(realm.projectId, realm.policy.mail, user, request);
      await queueCappedMail(tx, 'signup_notice', signupAttemptMail(user.email, appLink(realm, '/login'), appLink(realm, '/forgot-password'), brand), aboutAccount(user));
    }
    return inserted;
  });

  if (created) await recordSignup(deps, realm);
  return { message: realm.projectId === null ? MESSAGES.signupSuccess : MESSAGES.endUserSignupSuccess };
}

/** user.created and user.verified for a project's webhooks, in the unit of work of the change. */
function emitUserEvent(tx: EventWriter, projectId: string, type: 'user.created' | 'user.verified', user: { id: string; email: string; is_verified: boolean }) {
  return emitWebhookEvent(tx, projectId, type, { user });
}

/** What a provider tells us about a new account's owner. */
export interface ProviderAccount {
  email: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

/**
 * Makes the account of a provider's first sign-in, with the sign-up limits. It has no password (its
 * hash is of a random secret nobody knows; "forgot password" sets one). It is verified when the
 * provider says the address is, and otherwise sent our verification link, which sets no password.
 * `linkIdentity` records the provider's identity in the same transaction. Undefined when the address
 * has an account (made meanwhile): the caller treats it as taken.
 */
export async function signUpWithProvider(
  deps: Deps,
  realm: Realm,
  account: ProviderAccount,
  request: RequestInfo,
  linkIdentity: (tx: Deps, userId: string) => Promise<void>,
): Promise<UserRow | undefined> {
  await deps.limiters.signupPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectSignups.consume(realm.projectId);
  const passwordHash = await deps.passwords.hash(randomToken());
  const now = isoNow(deps.clock);
  const id = newId();
  const mayMail = !account.emailVerified && (await withinMailCap(deps, 'verification', account.email));
  const created = await withTransaction(deps, async (tx) => {
    const inserted = await insertUserIfNew(tx.db, {
      id,
      project_id: realm.projectId,
      email: account.email,
      password_hash: passwordHash,
      password_set: 0,
      first_name: account.firstName?.slice(0, 100) || null,
      last_name: account.lastName?.slice(0, 100) || null,
      company_name: null,
      website_url: null,
      locale: realm.projectId ? requestLocale(request) : null,
      role: isListedAdmin(deps, realm, account.email) ? 'admin' : 'user',
      is_active: 1,
      is_verified: account.emailVerified ? 1 : 0,
      login_notifications: 1,
      created_at: now,
      updated_at: now,
      last_login: null,
    });
    if (inserted) await linkIdentity(tx, id);
    if (inserted && realm.projectId) await emitUserEvent(tx, realm.projectId, 'user.created', { id, email: normalizeEmail(account.email), is_verified: account.emailVerified });
    if (inserted && mayMail) await queueVerification(tx, realm, (await findUserById(tx.db, id))!, null, request);
    return inserted;
  });
  if (!created) return undefined;
  const user = (await findUserById(deps.db, id))!;
  await recordSignup(deps, realm);
  return user;
}

/**
 * Verifies the address with a mailed link, in one transaction: the account takes the password of
 * the attempt that sent the link, every other pending link dies, and every session opened before
 * (someone who signed up with this address first) ends. A link of another attempt than the one that
 * made the account's current state (its password, or with none the provider it was made with) hands
 * the account to someone else: everything attached before goes too, and the owner is told what.
 */
export async function verifyEmail(deps: Deps, realm: Realm, input: z.output<typeof VerifyEmailInputSchema>, request: RequestInfo): Promise<{ message: string }> {
  const { message } = await spendVerificationLink(deps, realm, input, request);
  return { message };
}

/** verifyEmail, answering also whose address the link proved and what it continues (the hosted pages go on from there). */
export async function spendVerificationLink(deps: Deps, realm: Realm, input: z.output<typeof VerifyEmailInputSchema>, request: RequestInfo): Promise<ProvenLink> {
  await deps.limiters.verifyPerIp.consume(realmKey(realm, request.network));
  const token = await findOneTimeToken(deps.db, realm.projectId, 'verify_email', sha256(input.token));
  const now = isoNow(deps.clock);
  if (!token) throw new AppError('BAD_REQUEST', 'Invalid verification token');
  if (token.used_at) throw new AppError('BAD_REQUEST', LINK_USED.verify);
  if (token.user_is_verified === 1) throw new AppError('BAD_REQUEST', 'This email address has already been verified');
  if (token.expires_at <= now) throw new AppError('BAD_REQUEST', 'This verification link has expired. Please request a new one.');
  await withTransaction(deps, async (tx) => {
    if (!(await consumeOneTimeToken(tx.db, token.id, now))) throw new AppError('BAD_REQUEST', LINK_USED.verify);
    const account = (await findUserById(tx.db, token.user_id))!;
    const sameAttempt = token.password_hash === null ? account.password_set === 0 : token.password_hash === account.password_hash;
    const removed = sameAttempt ? null : await removeUnprovenAttachments(tx, account.id, now);
    await updateUser(tx.db, token.user_id, { is_verified: 1, ...(token.password_hash && { password_hash: token.password_hash, password_set: 1 }), updated_at: now });
    await expireOneTimeTokens(tx.db, token.user_id, 'verify_email', now);
    const ended = await revokeSessionsByUserId(tx.db, token.user_id, now, 'email_verified');
    if (realm.projectId) await emitUserEvent(tx, realm.projectId, 'user.verified', { id: token.user_id, email: token.user_email, is_verified: true });
    const brand = brandFor(realm.projectId, realm.policy.mail, account, request);
    const secured = removed ? describeRemoved(removed, ended, [], mailTranslator(brand)) : [];
    if (secured.length > 0) await queueAccountMail(tx, account, 'accountSecuredMail', accountSecuredMail(token.user_email, secured, brand));
  });
  return { message: MESSAGES.emailVerified, userId: token.user_id, continuation: continuationOfRow(token) };
}

/**
 * An unverified account whose owner just proved the address another way (a mailed link to connect a
 * provider), in that proof's unit of work: nothing set up before was theirs. The password becomes one
 * nobody knows ("forgot password" sets one), every way in and pending link goes, every session ends.
 * Answers what was removed, for the owner's notice.
 */
export async function handOverToProvenOwner(tx: Deps, account: UserRow, unknownPasswordHash: string, now: string, t: TFunction = ENGLISH_MAIL): Promise<string[]> {
  const removed = await removeUnprovenAttachments(tx, account.id, now);
  const hadPassword = account.password_set === 1;
  await updateUser(tx.db, account.id, { password_hash: unknownPasswordHash, password_set: 0, updated_at: now });
  await expireOneTimeTokens(tx.db, account.id, 'verify_email', now);
  const ended = await revokeSessionsByUserId(tx.db, account.id, now, 'email_verified');
  return describeRemoved(removed, ended, hadPassword ? [t('removed.password')] : [], t);
}

/** Same answer whether or not the address has an account. The link is bound to the newest sign-up attempt. */
export async function resendVerification(
  deps: Deps,
  realm: Realm,
  input: z.output<typeof ResendVerificationInputSchema>,
  request: RequestInfo,
  continuation = NO_CONTINUATION,
): Promise<{ message: string }> {
  await deps.limiters.resendPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectVerificationResends.consume(realm.projectId);
  await requireCaptcha(deps, realm, input.captcha_token, request);
  await deps.limiters.resendPerAccount.consume(realmKey(realm, input.email));
  const user = await findUserByEmail(deps.db, realm.projectId, input.email);
  if (user && user.is_verified === 0 && user.is_active === 1 && (await withinMailCap(deps, 'verification', user.email))) {
    const ownPassword = user.password_set === 1 ? user.password_hash : null;
    const attemptPassword = (await findLatestAttemptPassword(deps.db, user.id)) ?? ownPassword;
    await withTransaction(deps, (tx) => queueVerification(tx, realm, user, attemptPassword, request, continuation));
  }
  return { message: MESSAGES.verificationSent };
}

/** Same answer for unknown addresses; a reset link is valid for one hour and works once. */
export async function forgotPassword(
  deps: Deps,
  realm: Realm,
  input: z.output<typeof ForgotPasswordInputSchema>,
  request: RequestInfo,
  continuation = NO_CONTINUATION,
): Promise<{ message: string }> {
  await deps.limiters.forgotPerIp.consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters.projectPasswordResets.consume(realm.projectId);
  await requireCaptcha(deps, realm, input.captcha_token, request);
  await deps.limiters.forgotPerAccount.consume(realmKey(realm, input.email));
  const user = await findUserByEmail(deps.db, realm.projectId, input.email);
  if (user && user.is_active === 1 && (await withinMailCap(deps, 'password_reset', user.email))) {
    const brand = brandFor(realm.projectId, realm.policy.mail, user, request);
    await withTransaction(deps, async (tx) => {
      const token = await issueOneTimeToken(tx, user.id, 'reset_password', PASSWORD_RESET_TTL_S, null, null, continuation);
      await queueCappedMail(tx, 'password_reset', passwordResetMail(user.email, appLink(realm, MAIL_LINK_PATHS.password_reset, token), brand), aboutAccount(user));
    });
  }
  return { message: 'If an account exists for that email, a password reset link is on its way.' };
}

/**
 * Sets a new password from a mailed link, in one transaction: the link proves the address (so the
 * account is verified), every session is signed out, and every other pending link (reset or
 * verification) dies. The sign-in budgets start afresh.
 *
 * Whoever holds the mailbox now holds the account, so its other ways in go with the old password:
 * the passkeys and providers' identities, unless the owner keeps them (`keep_sign_in_methods`). An
 * unverified account was not the owner's before this link: everything attached goes, the authenticator
 * app too, whatever was asked. The password-changed mail says what was removed or kept.
 */
export async function resetPassword(deps: Deps, realm: Realm, input: z.output<typeof ResetPasswordInputSchema>): Promise<{ message: string }> {
  const { message } = await spendResetLink(deps, realm, input);
  return { message };
}

/** resetPassword, answering also whose password was set and what the link continues. */
export async function spendResetLink(deps: Deps, realm: Realm, input: z.output<typeof ResetPasswordInputSchema>): Promise<ProvenLink> {
  const token = await findOneTimeToken(deps.db, realm.projectId, 'reset_password', sha256(input.token));
  const now = isoNow(deps.clock);
  if (!token) throw new AppError('BAD_REQUEST', VALIDATION.resetTokenInvalid);
  if (token.used_at) throw new AppError('BAD_REQUEST', LINK_USED.reset);
  if (token.expires_at <= now) throw new AppError('BAD_REQUEST', 'This reset link has expired. Please request a new one.');
  rejectWeakPassword(realm, input.new_password);

  const passwordHash = await deps.passwords.hash(input.new_password);
  const reset = await withTransaction(deps, async (tx) => {
    if (!(await consumeOneTimeToken(tx.db, token.id, now))) throw new AppError('BAD_REQUEST', LINK_USED.reset);
    const account = await findUserById(tx.db, token.user_id);
    if (!account) return undefined;
    const unproven = account.is_verified === 0 ? await removeUnprovenAttachments(tx, account.id, now) : null;
    const attached = unproven ? null : await listAttachments(tx.db, account.id, now);
    const keep = attached !== null && input.keep_sign_in_methods;
    if (attached && !keep) await removePasskeysAndIdentities(tx.db, account.id);
    const updated = (await updateUser(tx.db, account.id, { password_hash: passwordHash, password_set: 1, is_verified: 1, updated_at: now }))!;
    await expireOneTimeTokens(tx.db, account.id, 'reset_password', now);
    await expireOneTimeTokens(tx.db, account.id, 'verify_email', now);
    const ended = await revokeSessionsByUserId(tx.db, account.id, now, 'password_reset');
    const notice = resetNotice(unproven, attached, keep, ended, mailTranslator(brandFor(realm.projectId, realm.policy.mail, updated, null)));
    await queueAccountMail(tx, updated, 'passwordChangedMail', passwordChangedNotice(realm, updated, null, notice));
    return { user: updated };
  });
  if (reset) await clearSignInFailures(deps, realm, reset.user.email);
  return { message: MESSAGES.passwordResetSuccess, userId: token.user_id, continuation: continuationOfRow(token) };
}

/** What the password-changed mail of a reset adds: the ways in it removed, or kept as the owner asked. */
function resetNotice(unproven: Attachments | null, attached: Attachments | null, kept: boolean, sessionsEnded: number, t: TFunction): string[] {
  if (unproven) {
    const removed = describeRemoved(unproven, sessionsEnded, [], t);
    if (removed.length === 0) return [];
    return [t('reset.unprovenIntro'), ...removed.map((line) => `• ${line}`)];
  }
  const ways = describeRemoved({ passkeys: attached!.passkeys, secondFactor: false, identities: attached!.identities, pendingAddressChanges: 0 }, 0, [], t).join(', ');
  if (!ways) return [];
  return [kept ? t('reset.kept', { ways }) : t('reset.removed', { ways })];
}

/** Changes the password of the signed-in account; other sessions are signed out and pending reset links die. */
export async function changePassword(
  deps: Deps,
  realm: Realm,
  auth: { user: UserRow; sessionId: string },
  input: z.output<typeof ChangePasswordInputSchema>,
  request: RequestInfo,
): Promise<{ message: string }> {
  if (auth.user.password_set === 1) {
    // An account with a password always gives it: a recent sign-in alone (a stolen session) never replaces it.
    if (input.current_password === undefined) throw new AppError('UNPROCESSABLE_CONTENT', VALIDATION.currentPasswordRequired);
    await checkCurrentPassword(deps, auth.user, input.current_password, request, new AppError('BAD_REQUEST', 'Current password is incorrect'));
  } else {
    // Its first password: the account has none to give, so a recent step-up (a provider, a passkey or a mailed code) is the proof.
    await requireRecentProof(deps, auth);
  }
  rejectWeakPassword(realm, input.new_password);
  const passwordHash = await deps.passwords.hash(input.new_password);
  const now = isoNow(deps.clock);
  await withTransaction(deps, async (tx) => {
    await updateUser(tx.db, auth.user.id, { password_hash: passwordHash, password_set: 1, updated_at: now });
    await expireOneTimeTokens(tx.db, auth.user.id, 'reset_password', now);
    await revokeSessionsByUserId(tx.db, auth.user.id, now, 'password_changed', auth.sessionId);
    await queueAccountMail(tx, auth.user, 'passwordChangedMail', passwordChangedNotice(realm, auth.user, request));
  });
  return { message: MESSAGES.passwordChanged };
}

/**
 * Asks to move the signed-in account to a new address; nothing changes until the link mailed there
 * is used (1 hour, once). Needs the password, or a recent step-up (an account without a password).
 * The answer, and the work behind it, are the same whether or not another account of the realm has
 * the address: a free one gets the link, a taken one a notice that someone tried (one capped kind for
 * both), and the old address is told either way.
 */
export async function requestEmailChange(
  deps: Deps,
  realm: Realm,
  auth: Authenticated,
  input: z.output<typeof ChangeEmailInputSchema>,
  request: RequestInfo,
): Promise<{ message: string }> {
  const { user } = auth;
  const newEmail = input.new_email;
  if (newEmail === normalizeEmail(user.email)) throw new AppError('UNPROCESSABLE_CONTENT', VALIDATION.emailUnchanged);
  // The password given with the request is its proof; without one, a recent step-up.
  if (input.password === undefined) await requireRecentProof(deps, auth);
  else await checkCurrentPassword(deps, user, input.password, request, new AppError('UNAUTHORIZED', 'Incorrect password'));
  await deps.limiters.emailChangePerAccount.consume(realmKey(realm, user.id));

  const holder = await findUserByEmail(deps.db, realm.projectId, newEmail);
  const mailNew = await withinMailCap(deps, 'email_change', newEmail);
  const mailOld = await withinMailCap(deps, 'email_change_notice', user.email);
  await withTransaction(deps, async (tx) => {
    // Issued for a taken address too (and mailed to nobody), so both answers cost the same.
    const token = await issueOneTimeToken(tx, user.id, 'change_email', EMAIL_CHANGE_TTL_S, null, newEmail);
    const brand = brandFor(realm.projectId, realm.policy.mail, user, request);
    const toNewAddress = holder
      ? emailTakenMail(newEmail, brandFor(realm.projectId, realm.policy.mail, holder, request))
      : emailChangeConfirmationMail(newEmail, appLink(realm, '/confirm-email-change', token), brand);
    // The new address has no account of this one's yet: no user_id, so a bounce there marks nobody.
    if (mailNew) await queueCappedMail(tx, 'email_change', toNewAddress, { projectId: realm.projectId, userId: null });
    if (mailOld) await queueCappedMail(tx, 'email_change_notice', emailChangeRequestedMail(user.email, newEmail, brand), aboutAccount(user));
  });
  return { message: MESSAGES.emailChangeRequested };
}

/**
 * Moves the account to the address its link was mailed to, in one transaction: the address must still
 * be free in the realm (409 otherwise, and the link stays usable), it counts as verified, the account's
 * pending links (verification, reset, other changes) end, and every session but the caller's ends
 * (all of them without one). The old address is told, always. A project's end user's change sends
 * user.updated to its webhooks in the same transaction.
 */
export async function confirmEmailChange(
  deps: Deps,
  realm: Realm,
  input: z.output<typeof ConfirmEmailChangeInputSchema>,
  request: RequestInfo,
  callerSessionId: string | null,
): Promise<{ message: string }> {
  await deps.limiters.verifyPerIp.consume(realmKey(realm, request.network));
  const token = await findOneTimeToken(deps.db, realm.projectId, 'change_email', sha256(input.token));
  const now = isoNow(deps.clock);
  if (!token?.new_email) throw new AppError('BAD_REQUEST', VALIDATION.emailChangeLinkInvalid);
  if (token.used_at) throw new AppError('BAD_REQUEST', MESSAGES.emailChangeLinkUsed);
  if (token.expires_at <= now) throw new AppError('BAD_REQUEST', MESSAGES.emailChangeLinkExpired);
  const newEmail = token.new_email;

  await withTransaction(deps, async (tx) => {
    const account = await findUserById(tx.db, token.user_id);
    if (!account || !(await consumeOneTimeToken(tx.db, token.id, now))) throw new AppError('BAD_REQUEST', MESSAGES.emailChangeLinkUsed);
    if (!(await changeEmailIfFree(tx.db, account.id, newEmail, { is_verified: 1, updated_at: now }))) throw new AppError('CONFLICT', MESSAGES.emailTaken);
    for (const purpose of ['verify_email', 'reset_password', 'change_email'] as const) await expireOneTimeTokens(tx.db, account.id, purpose, now);
    await revokeSessionsByUserId(tx.db, account.id, now, 'email_changed', callerSessionId ?? undefined);
    await emitUserUpdated(tx, account, (await findUserById(tx.db, account.id))!);
    // To the old address: not the account's any more, so no user_id (a bounce there is not the account's).
    if (mayMailTemplate(account, 'emailChangedMail')) {
      const brand = brandFor(realm.projectId, realm.policy.mail, account, request);
      await queueMail(tx, { kind: 'emailChangedMail', message: emailChangedMail(account.email, newEmail, brand), projectId: account.project_id, userId: null });
    }
  });
  return { message: MESSAGES.emailChanged };
}

/*
 * The actions of whoever manages a realm's accounts (the platform's admins, a project's team) on one
 * account, from its page. No captcha and no per-IP budget (the caller is signed in, checked for the
 * role and audited), but the recipient's mail cap holds: past it the answer is 429. `alsoInUnit`
 * writes the caller's audit entry in the unit of work of the change, so both commit or neither.
 */

const MAIL_CAP_REACHED = 'This address has received too many of these mails in the last hour; try again later';

/** Mails a fresh verification link, bound like a resend to the newest sign-up attempt's password. 409 for a verified or deactivated account. */
export async function mailVerificationLinkTo(deps: Deps, realm: Realm, user: UserRow, alsoInUnit?: (tx: Tx<Deps>) => Promise<void>): Promise<void> {
  if (user.is_verified === 1) throw new AppError('CONFLICT', 'The address is already verified');
  if (user.is_active === 0) throw new AppError('CONFLICT', 'The account is deactivated; activate it first');
  if (!(await withinMailCap(deps, 'verification', user.email))) throw new AppError('TOO_MANY_REQUESTS', MAIL_CAP_REACHED, { retryAfterS: 3600 });
  const ownPassword = user.password_set === 1 ? user.password_hash : null;
  const attemptPassword = (await findLatestAttemptPassword(deps.db, user.id)) ?? ownPassword;
  await withTransaction(deps, async (tx) => {
    await queueVerification(tx, realm, user, attemptPassword, null);
    await alsoInUnit?.(tx);
  });
}

/** Mails a password reset link (one hour, once), as "forgot password" would. 409 for a deactivated account. */
export async function mailPasswordResetTo(deps: Deps, realm: Realm, user: UserRow, alsoInUnit?: (tx: Tx<Deps>) => Promise<void>): Promise<void> {
  if (user.is_active === 0) throw new AppError('CONFLICT', 'The account is deactivated; activate it first');
  if (!(await withinMailCap(deps, 'password_reset', user.email))) throw new AppError('TOO_MANY_REQUESTS', MAIL_CAP_REACHED, { retryAfterS: 3600 });
  const brand = brandFor(realm.projectId, realm.policy.mail, user, null);
  await withTransaction(deps, async (tx) => {
    const token = await issueOneTimeToken(tx, user.id, 'reset_password', PASSWORD_RESET_TTL_S, null, null);
    await queueCappedMail(tx, 'password_reset', passwordResetMail(user.email, appLink(realm, MAIL_LINK_PATHS.password_reset, token), brand), aboutAccount(user));
    await alsoInUnit?.(tx);
  });
}

export interface ManagedAccountInput {
  email: string;
  /** Left out: no password (a random one nobody knows, as for a provider's account; "forgot password" sets one). */
  password?: string | undefined;
  first_name: string | null;
  last_name: string | null;
  /** The address counts as proven; otherwise the account is mailed a verification link. */
  email_verified: boolean;
}

/**
 * Creates an account in the realm for whoever manages it: the realm's password rules apply to a
 * password given, an address with an account already is 409, and a project's webhooks get
 * user.created. An unverified account is mailed a verification link (within the recipient's cap).
 */
export async function createManagedAccount(deps: Deps, realm: Realm, input: ManagedAccountInput, alsoInUnit?: (tx: Tx<Deps>, user: UserRow) => Promise<void>): Promise<UserRow> {
  if (input.password !== undefined) rejectWeakPassword(realm, input.password);
  if (await findUserByEmail(deps.db, realm.projectId, input.email)) throw new AppError('CONFLICT', 'An account with this e-mail address already exists');
  const passwordHash = await deps.passwords.hash(input.password ?? randomToken());
  const now = isoNow(deps.clock);
  const id = newId();
  const mayMail = !input.email_verified && (await withinMailCap(deps, 'verification', input.email));
  const user = await withTransaction(deps, async (tx) => {
    const inserted = await insertUserIfNew(tx.db, {
      id,
      project_id: realm.projectId,
      email: input.email,
      password_hash: passwordHash,
      password_set: input.password === undefined ? 0 : 1,
      first_name: input.first_name,
      last_name: input.last_name,
      company_name: null,
      website_url: null,
      locale: null,
      role: isListedAdmin(deps, realm, input.email) ? 'admin' : 'user',
      is_active: 1,
      is_verified: input.email_verified ? 1 : 0,
      login_notifications: 1,
      created_at: now,
      updated_at: now,
      last_login: null,
    });
    if (!inserted) throw new AppError('CONFLICT', 'An account with this e-mail address already exists');
    const created = (await findUserById(tx.db, id))!;
    if (realm.projectId) await emitUserEvent(tx, realm.projectId, 'user.created', { id, email: created.email, is_verified: input.email_verified });
    // The link is of this account's own state (the password given, or none), so proving the address keeps it.
    if (mayMail) await queueVerification(tx, realm, created, input.password === undefined ? null : passwordHash, null);
    await alsoInUnit?.(tx, created);
    return created;
  });
  await recordSignup(deps, realm);
  return user;
}

/** How an account signs in besides a password, for its page: its passkeys' count and its providers. */
export async function signInMethodsOf(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<{ passkeys: number; identities: string[] }> {
  const attached = await listAttachments(deps.db, userId, isoNow(deps.clock));
  return { passkeys: attached.passkeys.length, identities: attached.identities };
}

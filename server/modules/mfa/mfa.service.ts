import type { MfaChallenge, RecoveryCodes, TotpSetup } from '../../../shared/schemas/mfa.js';
import type { UserRow } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { twoFactorDisabledMail, twoFactorEnabledMail } from '../../mail/templates.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import { queueAccountMail } from '../../mail/account-mail.js';
import { checkCurrentPassword } from '../passwords/current-password.js';
import { deletePasskeysOf } from '../passkeys/passkeys.repo.js';
import { passkeyMfaOptions } from '../passkeys/passkeys.service.js';
import { realmKey, type Realm } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import { requireNewWayInAllowed, requireRecentProof } from '../sessions/step-up.js';
import { countPasskeys, findUserById } from '../users/users.repo.js';
import { emitMfaChanged } from '../webhooks/account-events.js';
import {
  acceptTotpStep,
  chargeMfaChallenge,
  completeMfaChallenge,
  enableTotp,
  findLiveMfaChallenge,
  insertMfaChallenge,
  removeSecondFactors,
  replaceRecoveryCodes,
  setPendingTotpSecret,
  useRecoveryCode,
} from './mfa.repo.js';
import { recoveryCodeDigest, recoveryCodeDigests } from './recovery-code-digest.js';
import { generateRecoveryCodes, normalizeRecoveryCode } from './recovery-codes.js';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.js';
import { brandFor } from '../../mail/mail-brand.js';

export const INVALID_CODE = 'Invalid code';
export const MFA_TOKEN_TTL_S = 5 * 60;
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_SIGN_IN_EXPIRED = 'This sign-in has expired. Please sign in again.';
const ALREADY_ON = 'Two-factor authentication is already on';
const NOT_ON = 'Two-factor authentication is off';
const INCORRECT_PASSWORD = 'Incorrect password';

export function hasSecondFactor(user: Pick<UserRow, 'totp_enabled_at'>): boolean {
  return user.totp_enabled_at !== null;
}

/**
 * A new TOTP secret for the account, kept aside until a code from it is confirmed; nothing is on yet.
 * An authenticator is a way in (and a lock on the owner): a verified address and a recent proof first.
 */
export async function setUpTotp(deps: Deps, auth: Authenticated, issuer: string): Promise<TotpSetup> {
  const { user } = auth;
  if (hasSecondFactor(user)) throw new AppError('CONFLICT', ALREADY_ON);
  await requireNewWayInAllowed(deps, auth);
  const secret = newTotpSecret();
  await setPendingTotpSecret(deps.db, user.id, deps.secretBox.seal(secret), isoNow(deps.clock));
  return { secret, otpauth_url: totpUri(secret, issuer, user.email) };
}

/** The first right code from the new secret turns two factors on (mfa.enabled for a project's end user); the recovery codes are shown this once. */
export async function confirmTotp(deps: Deps, auth: Authenticated, code: string): Promise<RecoveryCodes> {
  const { user } = auth;
  if (hasSecondFactor(user)) throw new AppError('CONFLICT', ALREADY_ON);
  await requireNewWayInAllowed(deps, auth);
  if (!user.totp_pending_secret) throw new AppError('BAD_REQUEST', 'Set up an authenticator app first');
  const step = matchTotpStep(deps.secretBox.open(user.totp_pending_secret), code, deps.clock.now());
  if (step === null) throw new AppError('BAD_REQUEST', INVALID_CODE);
  const codes = generateRecoveryCodes();
  const sealedSecret = user.totp_pending_secret;
  const mail = twoFactorEnabledMail(user.email, brandFor(user.project_id, await deps.projectRealms.mailBrandOf(user.project_id), user));
  await withTransaction(deps, async (tx) => {
    await enableTotp(tx.db, user.id, { sealedSecret, step, codeHashes: codes.map((c) => recoveryCodeDigest(deps.secretBox, user.id, c)), now: isoNow(deps.clock) });
    await emitMfaChanged(tx, user, { enabled: true });
    await queueAccountMail(tx, user, 'twoFactorEnabledMail', mail);
  });
  return { recovery_codes: codes };
}

/** A new set of recovery codes; the old set stops working. Needs the current password, or a recent step-up without it. */
export async function regenerateRecoveryCodes(deps: Deps, auth: Authenticated, password: string | undefined, request: RequestInfo): Promise<RecoveryCodes> {
  const { user } = auth;
  if (!hasSecondFactor(user)) throw new AppError('BAD_REQUEST', NOT_ON);
  if (password === undefined) await requireRecentProof(deps, auth);
  else await checkCurrentPassword(deps, user, password, request, new AppError('UNAUTHORIZED', INCORRECT_PASSWORD));
  const codes = generateRecoveryCodes();
  await replaceRecoveryCodes(deps.db, user.id, codes.map((c) => recoveryCodeDigest(deps.secretBox, user.id, c)), isoNow(deps.clock));
  return { recovery_codes: codes };
}

/** Turns two factors off (mfa.disabled for a project's end user): needs the password and a code (TOTP or recovery), so a stolen session alone cannot. */
export async function disableMfa(deps: Deps, user: UserRow, input: { password: string; code: string }, request: RequestInfo): Promise<void> {
  if (!hasSecondFactor(user)) throw new AppError('BAD_REQUEST', NOT_ON);
  await checkCurrentPassword(deps, user, input.password, request, new AppError('UNAUTHORIZED', INCORRECT_PASSWORD));
  await requireSecondFactor(deps, user, input.code, request);
  const mail = twoFactorDisabledMail(user.email, false, brandFor(user.project_id, await deps.projectRealms.mailBrandOf(user.project_id), user));
  await withTransaction(deps, async (tx) => {
    await removeSecondFactors(tx.db, user.id, isoNow(deps.clock));
    await emitMfaChanged(tx, user, { enabled: false, by: 'user' });
    await queueAccountMail(tx, user, 'twoFactorDisabledMail', mail);
  });
}

/**
 * An admin's (or project owner's) reset for a user who lost their factors (passkeys too); the user is
 * told. A project's end user who had two factors on sends mfa.disabled (`by: reset`). `alsoInUnit`
 * writes the caller's own record of it (the audit entry) in the same unit of work.
 */
export async function resetMfa(deps: Deps, user: UserRow, alsoInUnit?: (tx: Tx<Deps>) => Promise<void>): Promise<void> {
  const mail = twoFactorDisabledMail(user.email, true, brandFor(user.project_id, await deps.projectRealms.mailBrandOf(user.project_id), user));
  await withTransaction(deps, async (tx) => {
    await removeSecondFactors(tx.db, user.id, isoNow(deps.clock));
    await deletePasskeysOf(tx.db, user.id);
    if (hasSecondFactor(user)) await emitMfaChanged(tx, user, { enabled: false, by: 'reset' });
    await queueAccountMail(tx, user, 'twoFactorDisabledMail', mail);
    await alsoInUnit?.(tx);
  });
}

/**
 * Checks a second factor and spends it: a TOTP code's time step is accepted once, a recovery code
 * once ever. Wrong codes are budgeted like wrong passwords: per account and client network (someone
 * who knows the password spends only their own network's), under an account-wide ceiling that keeps
 * guessing hopeless from many networks. Both are charged before the check (a parallel burst counts in
 * full); a right code clears its network's and refunds the ceiling. 400 'Invalid code', 429 past a budget.
 */
export async function requireSecondFactor(deps: Deps, user: UserRow, code: string, request: Pick<RequestInfo, 'network'>): Promise<void> {
  const realm = { projectId: user.project_id };
  const pair = realmKey(realm, `${user.id} ${request.network}`);
  const account = realmKey(realm, user.id);
  await deps.limiters.wrongMfaCodesPerAccountAndIp.consume(pair);
  await deps.limiters.wrongMfaCodesPerAccount.consume(account);
  if (!(await spendSecondFactor(deps, user, code))) throw new AppError('BAD_REQUEST', INVALID_CODE);
  await deps.limiters.wrongMfaCodesPerAccountAndIp.reset(pair);
  await deps.limiters.wrongMfaCodesPerAccount.refund(account);
}

async function spendSecondFactor(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  if (!user.totp_secret) return false;
  const step = matchTotpStep(deps.secretBox.open(user.totp_secret), code, deps.clock.now());
  if (step !== null) return acceptTotpStep(deps.db, user.id, step);
  const recoveryCode = normalizeRecoveryCode(code);
  return recoveryCode !== null && useRecoveryCode(deps.db, user.id, recoveryCodeDigests(deps.secretBox, user.id, recoveryCode), isoNow(deps.clock));
}

/** After a right password on an account with two factors: the mfa_token for the second step. */
export async function openMfaChallenge(deps: Deps, user: UserRow, deviceFingerprint: string | null, firstFactor: string | null = null): Promise<MfaChallenge> {
  const token = randomToken();
  const now = deps.clock.now();
  await insertMfaChallenge(deps.db, {
    id: newId(),
    token_hash: sha256(token),
    user_id: user.id,
    device_fingerprint: deviceFingerprint,
    first_factor: firstFactor,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + MFA_TOKEN_TTL_S * 1000).toISOString(),
  });
  const hasPasskey = (await countPasskeys(deps.db, user.id)) > 0;
  return { mfa_required: true, mfa_token: token, methods: hasPasskey ? ['totp', 'recovery_code', 'passkey'] : ['totp', 'recovery_code'] };
}

/** Options for answering a waiting sign-in with a passkey instead of a code (the token is not charged; the passkey sign-in's budgets are). */
export async function passkeyOptionsForSignIn(deps: Deps, realm: Realm, token: string, request: RequestInfo) {
  const challenge = await findLiveMfaChallenge(deps.db, sha256(token), isoNow(deps.clock), MFA_MAX_ATTEMPTS);
  const user = challenge ? await findUserById(deps.db, challenge.user_id) : undefined;
  if (!challenge || !user || user.project_id !== realm.projectId) throw new AppError('UNAUTHORIZED', MFA_SIGN_IN_EXPIRED);
  return passkeyMfaOptions(deps, realm, user, challenge.id, request);
}

/** The live challenge of an mfa_token, charged one attempt; 401 when it is unknown, used, expired or out of attempts. */
export async function takeMfaChallenge(deps: Deps, token: string) {
  const challenge = await chargeMfaChallenge(deps.db, sha256(token), isoNow(deps.clock), MFA_MAX_ATTEMPTS);
  if (!challenge) throw new AppError('UNAUTHORIZED', MFA_SIGN_IN_EXPIRED);
  return {
    challenge,
    /** Ends the challenge; false when a parallel request already did. */
    complete: () => completeMfaChallenge(deps.db, challenge.id, isoNow(deps.clock)),
  };
}

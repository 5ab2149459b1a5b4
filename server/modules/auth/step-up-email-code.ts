import { randomInt } from 'node:crypto';
import { STEP_UP_EMAIL_CODE_TTL_S } from '../../../shared/constants.js';
import { MESSAGES } from '../../../shared/messages.js';
import type { StepUpEmailCodeAnswer } from '../../../shared/schemas/step-up.js';
import type { UserRow } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { constantTimeEqual, newId, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { aboutAccount, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { brandFor } from '../../mail/mail-brand.js';
import { stepUpCodeMail } from '../../mail/templates.js';
import { realmKey, type Realm } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import { stepUpMethodsOf } from '../sessions/step-up.js';
import { consumeOneTimeToken, expireOneTimeTokens, insertOneTimeToken, listBoundTokens } from './one-time-tokens.repo.js';

/**
 * The step-up of an account with no password, authenticator app or passkey (it signs in with a
 * provider only): a 6-digit code mailed to its verified address. The code is kept as its SHA-256
 * HMAC under the master key, bound to the account (a copy of the database cannot try the million codes),
 * lasts STEP_UP_EMAIL_CODE_TTL_S, works once and only for the session that asked (a stolen session elsewhere
 * cannot spend it); a new code ends the earlier ones. A mailbox is a weaker proof
 * than a password, so an account that has one of the others never gets a code.
 */

const CODE_MINUTES = STEP_UP_EMAIL_CODE_TTL_S / 60;
const TOO_MANY_CODES = 'Too many codes asked for. Try again later.';
const sessionBinding = (auth: Authenticated) => sha256(`step_up:${auth.sessionId}`);
const codeDigest = (deps: Deps, user: UserRow, code: string) => `k1:${deps.secretBox.digest('step-up-code', `${user.id}:${code}`).toString('base64url')}`;

async function requireMailedCodeAllowed(deps: Deps, user: UserRow): Promise<void> {
  const methods = await stepUpMethodsOf(deps, user);
  if (methods.includes('email')) return;
  if (methods.length === 0) throw new AppError('FORBIDDEN', MESSAGES.verifyEmailFirst);
  throw new AppError('BAD_REQUEST', MESSAGES.stepUpCodeNotForThisAccount);
}

/** Mails a new code to the account's address; answers where it went and until when it works. */
export async function sendStepUpEmailCode(deps: Deps, realm: Realm, auth: Authenticated, request: RequestInfo): Promise<StepUpEmailCodeAnswer> {
  const { user } = auth;
  await requireMailedCodeAllowed(deps, user);
  await deps.limiters.stepUpCodesPerAccount.consume(realmKey(realm, user.id));
  if (!(await withinMailCap(deps, 'step_up_code', user.email))) throw new AppError('TOO_MANY_REQUESTS', TOO_MANY_CODES);

  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const now = isoNow(deps.clock);
  const expiresAt = new Date(Date.parse(now) + STEP_UP_EMAIL_CODE_TTL_S * 1000).toISOString();
  await withTransaction(deps, async (tx) => {
    await expireOneTimeTokens(tx.db, user.id, 'step_up', now);
    await insertOneTimeToken(tx.db, {
      id: newId(),
      user_id: user.id,
      purpose: 'step_up',
      token_hash: codeDigest(deps, user, code),
      expires_at: expiresAt,
      created_at: now,
      password_hash: null,
      flow_binding: sessionBinding(auth),
    });
    const brand = brandFor(realm.projectId, realm.policy.mail, user, request);
    await queueCappedMail(tx, 'step_up_code', stepUpCodeMail(user.email, code, CODE_MINUTES, brand), aboutAccount(user));
  });
  return { message: MESSAGES.stepUpCodeSent, sent_to: user.email, expires_at: expiresAt };
}

/**
 * Checks a mailed code against the session's own codes (digests compared in constant time) and spends
 * it. Wrong codes are charged to the account before the check and refunded when the code is right.
 * A wrong proof is a 400, like the other step-up proofs.
 */
export async function checkStepUpEmailCode(deps: Deps, realm: Realm, auth: Authenticated, code: string): Promise<void> {
  const { user } = auth;
  await requireMailedCodeAllowed(deps, user);
  const account = realmKey(realm, user.id);
  await deps.limiters.wrongStepUpCodesPerAccount.consume(account);
  const digest = codeDigest(deps, user, code);
  const issued = (await listBoundTokens(deps.db, user.id, 'step_up', sessionBinding(auth))).find((token) => constantTimeEqual(token.token_hash, digest));
  if (!issued) throw new AppError('BAD_REQUEST', MESSAGES.stepUpCodeIncorrect);
  await deps.limiters.wrongStepUpCodesPerAccount.refund(account);
  const now = isoNow(deps.clock);
  if (issued.used_at !== null) throw new AppError('BAD_REQUEST', MESSAGES.stepUpCodeUsed);
  if (issued.expires_at <= now) throw new AppError('BAD_REQUEST', MESSAGES.stepUpCodeExpired);
  if (!(await consumeOneTimeToken(deps.db, issued.id, now))) throw new AppError('BAD_REQUEST', MESSAGES.stepUpCodeUsed);
}

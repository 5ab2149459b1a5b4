import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { MfaChallenge } from '../../../shared/schemas/mfa.js';
import {
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_TTL_S,
  PASSWORDLESS_MESSAGES,
  type EmailCodeInputSchema,
  type EmailCodeVerifyInputSchema,
} from '../../../shared/schemas/passwordless.js';
import type { Deps } from '../../deps.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { constantTimeEqual, newId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { aboutAccount, appLink, MAIL_LINK_PATHS, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { brandFor } from '../../mail/mail-brand.js';
import { emailCodeMail } from '../../mail/templates.js';
import { requireCaptcha } from '../auth/captcha-check.js';
import { EMAIL_CODE_METHOD, logInWithMailbox, type LogInResult } from '../auth/sign-in.service.js';
import { requireSignInMethod } from '../realms/sign-in-methods.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { findUserByEmail } from '../users/users.repo.js';
import { chargeCodeTry, expireEmailSignIns, findLiveCode, insertEmailSignIn, spendEmailSignIn } from './passwordless.repo.js';
import { accountOfProvenAddress } from './proven-address.js';
import { emailCodeDigest } from './secret-digest.js';

/**
 * Whose address a code is of, as its digest binds it: a project's end users, or the platform's
 * developers (project ids are random ids, never this word).
 */
function codeRealmOf(realm: Realm): string {
  return realm.projectId ?? 'platform';
}

/**
 * Mails a 6-digit sign-in code (EMAIL_CODE_TTL_S, EMAIL_CODE_MAX_TRIES) to the address, ending its
 * earlier one. The answer and the work are the same whether or not the address has an account. In a
 * project an address without one gets a code too (it signs up with it); developers sign up with a
 * password, so on the platform an unknown address is mailed nothing. A deactivated account is mailed nothing.
 */
export async function sendEmailCode(deps: Deps, realm: Realm, input: z.output<typeof EmailCodeInputSchema>, request: RequestInfo): Promise<{ message: string }> {
  const projectId = realm.projectId;
  requireSignInMethod(realm, 'email_code');
  await deps.limiters.emailSignInsPerIp.consume(realmKey(realm, request.network));
  await requireCaptcha(deps, realm, input.captcha_token, request);
  await deps.limiters.emailSignInsPerAccount.consume(realmKey(realm, input.email));
  const user = await findUserByEmail(deps.db, projectId, input.email);
  const signsUp = !user && projectId !== null;
  const mayMail = (user?.is_active === 1 || signsUp) && (await withinMailCap(deps, 'email_code', input.email));
  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const now = isoNow(deps.clock);
  await withTransaction(deps, async (tx) => {
    await expireEmailSignIns(tx.db, projectId, input.email, 'code', now);
    if (!mayMail) return;
    await insertEmailSignIn(tx.db, {
      id: newId(),
      project_id: projectId,
      email: input.email,
      kind: 'code',
      secret_digest: emailCodeDigest(deps.secretBox, codeRealmOf(realm), input.email, code),
      created_at: now,
      expires_at: new Date(Date.parse(now) + EMAIL_CODE_TTL_S * 1000).toISOString(),
    });
    const brand = brandFor(projectId, realm.policy.mail, user ?? null, request);
    const about = user ? aboutAccount(user) : { projectId, userId: null };
    await queueCappedMail(tx, 'email_code', emailCodeMail(input.email, code, appLink(realm, MAIL_LINK_PATHS.email_code), brand), about);
  });
  return { message: PASSWORDLESS_MESSAGES.codeSent };
}

/**
 * Signs in with the address's live code: the ordinary sign-in answer (the second step first with two
 * factors), the account made (verified) when the address has none. Each try is charged before the
 * check: to the code (EMAIL_CODE_MAX_TRIES, then it is dead) and to the address across its codes
 * (refunded when right); the digests are compared in constant time. A wrong, spent or expired code
 * is one answer, and a failed login attempt.
 */
export async function verifyEmailCode(deps: Deps, realm: Realm, input: z.output<typeof EmailCodeVerifyInputSchema>, request: RequestInfo): Promise<LogInResult | MfaChallenge> {
  const projectId = realm.projectId;
  requireSignInMethod(realm, 'email_code');
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  if (projectId) await deps.limiters.projectLogins.consume(projectId);
  const prove = async () => {
    const account = realmKey(realm, input.email);
    await deps.limiters.wrongEmailCodesPerAccount.consume(account);
    const now = isoNow(deps.clock);
    const live = await findLiveCode(deps.db, projectId, input.email, now);
    const incorrect = new AppError('UNAUTHORIZED', PASSWORDLESS_MESSAGES.codeIncorrect);
    if (!live || !(await chargeCodeTry(deps.db, live.id, EMAIL_CODE_MAX_TRIES, now))) throw incorrect;
    if (!constantTimeEqual(live.secret_digest, emailCodeDigest(deps.secretBox, codeRealmOf(realm), input.email, input.code))) throw incorrect;
    if (!(await spendEmailSignIn(deps.db, live.id, now))) throw incorrect;
    await deps.limiters.wrongEmailCodesPerAccount.refund(account);
    // A developer's code was mailed to an account; one deleted since signs nobody up.
    if (projectId === null && !(await findUserByEmail(deps.db, null, input.email))) throw incorrect;
    return accountOfProvenAddress(deps, realm, input.email, request);
  };
  return logInWithMailbox(deps, realm, { method: EMAIL_CODE_METHOD, email: input.email, deviceFingerprint: input.device_fingerprint, prove }, request);
}

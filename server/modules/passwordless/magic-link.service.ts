import type { z } from 'zod';
import type { MfaChallenge } from '../../../shared/schemas/mfa.js';
import {
  MAGIC_LINK_EXCHANGE_TTL_S,
  MAGIC_LINK_TTL_S,
  PASSWORDLESS_MESSAGES,
  type MagicLinkAnswer,
  type MagicLinkOpenInputSchema,
} from '../../../shared/schemas/passwordless.js';
import type { Deps } from '../../deps.js';
import type { EmailSignInRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { constantTimeEqual, newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { aboutAccount, appLink, MAIL_LINK_PATHS, queueCappedMail, withinMailCap } from '../../mail/account-mail.js';
import { brandFor } from '../../mail/mail-brand.js';
import { magicLinkMail } from '../../mail/templates.js';
import { requireCaptcha } from '../auth/captcha-check.js';
import { logInWithMailbox, MAGIC_LINK_METHOD, type LogInResult } from '../auth/sign-in.service.js';
import type { LinkContinuation } from '../auth/link-continuation.js';
import type { Provider } from '../oidc/oidc.service.js';
import { hostedPagesUrlOf } from '../projects/project-urls.js';
import { isRegisteredRedirect } from '../projects/redirect-uris.js';
import { requireSignInMethod } from '../realms/sign-in-methods.js';
import { realmKey } from '../realms/realm.js';
import { findUserByEmail } from '../users/users.repo.js';
import { expireEmailSignIns, findExchangeCode, findLinkByDigest, insertEmailSignIn, spendEmailSignIn, spendExchangeCode, storeExchangeCode } from './passwordless.repo.js';
import { accountOfProvenAddress } from './proven-address.js';
import { magicLinkDigest } from './secret-digest.js';

/**
 * Where a magic link goes on once opened: back to a developer's app (the public API asked, with a
 * registered redirect URI and its state), or the app sign-in the hosted pages served when they asked
 * (with the asking browser's binding).
 */
export type MagicLinkTarget = { kind: 'api'; redirectUri: string; state: string | null } | { kind: 'hosted'; continuation: LinkContinuation };

/**
 * Mails a one-time link (MAGIC_LINK_TTL_S) to the project's hosted page /magic-link, ending the
 * address's earlier link. Same answer and work whether or not the address has an account (one
 * without signs up by opening it); a deactivated account is mailed nothing.
 */
export async function sendMagicLink(
  deps: Deps,
  provider: Provider,
  input: { email: string; captcha_token: string },
  target: MagicLinkTarget,
  request: RequestInfo,
): Promise<{ message: string }> {
  const { realm, project } = provider;
  requireSignInMethod(realm, 'magic_link');
  if (target.kind === 'api' && !isRegisteredRedirect(project, project.redirect_uris, target.redirectUri)) {
    throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.redirectNotRegistered);
  }
  await deps.limiters.emailSignInsPerIp.consume(realmKey(realm, request.network));
  await requireCaptcha(deps, realm, input.captcha_token, request);
  await deps.limiters.emailSignInsPerAccount.consume(realmKey(realm, input.email));
  const user = await findUserByEmail(deps.db, project.id, input.email);
  const mayMail = user?.is_active !== 0 && (await withinMailCap(deps, 'magic_link', input.email));
  const token = randomToken();
  const now = isoNow(deps.clock);
  await withTransaction(deps, async (tx) => {
    await expireEmailSignIns(tx.db, project.id, input.email, 'link', now);
    if (!mayMail) return;
    const continuation = target.kind === 'hosted' ? target.continuation : null;
    await insertEmailSignIn(tx.db, {
      id: newId(),
      project_id: project.id,
      email: input.email,
      kind: 'link',
      secret_digest: magicLinkDigest(deps.secretBox, project.id, token),
      flow_binding: continuation?.flowBinding ?? null,
      interaction_id: continuation?.interactionId ?? null,
      return_to: continuation?.returnTo ?? null,
      redirect_uri: target.kind === 'api' ? target.redirectUri : null,
      client_state: target.kind === 'api' ? target.state : null,
      created_at: now,
      expires_at: new Date(Date.parse(now) + MAGIC_LINK_TTL_S * 1000).toISOString(),
    });
    const link = appLink({ linkBase: hostedPagesUrlOf(deps.config, project.project_key) }, MAIL_LINK_PATHS.magic_link, token);
    const about = user ? aboutAccount(user) : { projectId: project.id, userId: null };
    await queueCappedMail(tx, 'magic_link', magicLinkMail(input.email, link, brandFor(project.id, realm.policy.mail, user ?? null, request)), about);
  });
  return { message: PASSWORDLESS_MESSAGES.linkSent };
}

export interface MagicLinkOutcome {
  answer: MagicLinkAnswer;
  /** Set when the link signed the user in on the hosted pages: the transport sets their cookies. */
  signedIn?: LogInResult;
}

/**
 * The hosted page of a mailed link. Opened in the browser that asked (its hosted flow cookie), the link
 * is spent at once; anywhere else (a mail scanner following links, another device, someone sent the
 * link to sign them in to another's account: login CSRF) the page first asks to confirm, naming the
 * address, and only the confirmation spends it. A link of the public API always asks: the browser that
 * asked was the developer's backend. Spent, it goes back to the developer's app with a one-time code
 * for /auth/oauth/exchange, or signs in on the hosted pages and goes on with the app's sign-in (an
 * OpenID Connect request only in the browser that holds it).
 */
export async function openMagicLink(
  deps: Deps,
  provider: Provider,
  input: z.output<typeof MagicLinkOpenInputSchema>,
  binding: string | null,
  request: RequestInfo,
): Promise<MagicLinkOutcome> {
  const { realm, project } = provider;
  requireSignInMethod(realm, 'magic_link');
  await deps.limiters.verifyPerIp.consume(realmKey(realm, request.network));
  const link = await findLinkByDigest(deps.db, project.id, magicLinkDigest(deps.secretBox, project.id, input.token));
  const now = isoNow(deps.clock);
  requireUsable(link, now);
  const sameBrowser = link.flow_binding !== null && binding !== null && constantTimeEqual(link.flow_binding, binding);
  if (!sameBrowser && !input.confirm) return { answer: { next: { kind: 'confirm', email: link.email } } };
  if (link.redirect_uri) {
    const code = randomToken();
    await withTransaction(deps, async (tx) => {
      if (!(await spendEmailSignIn(tx.db, link.id, now))) throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.linkUsed);
      await storeExchangeCode(tx.db, link.id, sha256(code), new Date(Date.parse(now) + MAGIC_LINK_EXCHANGE_TTL_S * 1000).toISOString());
    });
    const url = new URL(link.redirect_uri);
    url.searchParams.set('code', code);
    if (link.client_state !== null) url.searchParams.set('state', link.client_state);
    return { answer: { next: { kind: 'redirect', url: url.href } } };
  }
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  await deps.limiters.projectLogins.consume(project.id);
  const prove = async () => {
    if (!(await spendEmailSignIn(deps.db, link.id, now))) throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.linkUsed);
    return accountOfProvenAddress(deps, realm, link.email, request);
  };
  const result = await logInWithMailbox(deps, realm, { method: MAGIC_LINK_METHOD, email: link.email, deviceFingerprint: input.device_fingerprint, prove }, request);
  const continues = { interaction: sameBrowser ? link.interaction_id : null, return_to: link.return_to };
  if ('mfa_required' in result) return { answer: { next: { kind: 'second_factor', challenge: result, ...continues } } };
  return { answer: { next: { kind: 'signed_in', ...continues } }, signedIn: result };
}

function requireUsable(link: EmailSignInRow | undefined, now: string): asserts link is EmailSignInRow {
  if (!link) throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.linkInvalid);
  if (link.used_at) throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.linkUsed);
  if (link.expires_at <= now) throw new AppError('BAD_REQUEST', PASSWORDLESS_MESSAGES.linkExpired);
}

/**
 * /auth/oauth/exchange for a magic link's one-time code (valid MAGIC_LINK_EXCHANGE_TTL_S, once): the
 * ordinary sign-in answer, with the limits, captcha, VPN, device and second-factor rules. Undefined
 * when the code is not a magic link's (the exchange then tries a provider's).
 */
export async function exchangeMagicLinkCode(
  deps: Deps,
  provider: Provider,
  input: { code: string; captcha_token: string; device_fingerprint: string | null },
  request: RequestInfo,
): Promise<LogInResult | MfaChallenge | undefined> {
  const { realm, project } = provider;
  const row = await findExchangeCode(deps.db, project.id, sha256(input.code));
  if (!row) return undefined;
  requireSignInMethod(realm, 'magic_link');
  await deps.limiters.loginPerIp.consume(realmKey(realm, request.network));
  await deps.limiters.projectLogins.consume(project.id);
  await requireCaptcha(deps, realm, input.captcha_token, request);
  const prove = async () => {
    if (!(await spendExchangeCode(deps.db, row.id, isoNow(deps.clock)))) throw new AppError('BAD_REQUEST', 'Invalid or expired code');
    return accountOfProvenAddress(deps, realm, row.email, request);
  };
  return logInWithMailbox(deps, realm, { method: MAGIC_LINK_METHOD, email: row.email, deviceFingerprint: input.device_fingerprint, prove }, request);
}

import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import type { UserRow } from '../db/schema.js';
import type { MailMessage } from './mailer.js';
import { queueMail, type OutboxDeps } from './outbox.js';
import { mayMail, type MailPreferences, type MailTemplate } from './preferences.js';
import type { Realm } from '../modules/realms/realm.js';
import { normalizeEmail } from '../lib/email.js';

/**
 * The mails a caller can make us send to an address: capped per recipient, so they cannot be used to
 * flood one. `email_change` is what a change of address sends the new address (the link, or the notice
 * that it is taken: one kind, so the cap behaves the same either way); `email_change_notice` what it
 * sends the old one.
 */
export type CappedMailKind = 'verification' | 'signup_notice' | 'password_reset' | 'email_change' | 'email_change_notice' | 'identity_link' | 'step_up_code' | 'magic_link' | 'email_code' | 'project_invitation' | 'organization_invitation';

/** Whom a mail is for: the recipient's realm and account, when it has one (the outbox's lists and bounces). */
export interface MailAbout {
  projectId: string | null;
  userId: string | null;
}

export const aboutAccount = (account: Pick<UserRow, 'id' | 'project_id'>): MailAbout => ({ projectId: account.project_id, userId: account.id });

/** Links are built from APP_URL (or the project's website_url) only, never from request headers. */
export function appLink(realm: Pick<Realm, 'linkBase'>, path: string, token?: string): string {
  const url = new URL(path.replace(/^\//, ''), `${realm.linkBase.replace(/\/+$/, '')}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/** Where each link of the mails a project may rewrite points (under the realm's link base). */
export const MAIL_LINK_PATHS = {
  verification: '/verify-email',
  password_reset: '/reset-password',
  password_changed: '/login',
  magic_link: '/magic-link',
  email_code: '/login',
} as const;

/**
 * Counts a mail of a capped kind against its recipient's budget: an address receives at most
 * mailPerRecipient of each kind per hour, counted across every realm (the platform and all projects).
 * False past that: the caller's answer does not change and nothing is queued; the log says so without
 * naming the address. Call it before the unit of work that queues the mail (the limiter may wait on Redis).
 */
export async function withinMailCap(deps: Pick<Deps, 'limiters' | 'logger'>, kind: CappedMailKind, to: string): Promise<boolean> {
  try {
    await deps.limiters.mailPerRecipient.consume(`${kind}:${normalizeEmail(to)}`);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'TOO_MANY_REQUESTS') {
      deps.logger.warn({ kind }, 'mail cap reached for a recipient: not sent');
      return false;
    }
    throw error;
  }
}

/** Queues a capped mail (its cap already counted by withinMailCap) in the unit of work of `tx`. */
export async function queueCappedMail(tx: OutboxDeps, kind: CappedMailKind, message: MailMessage, about: MailAbout): Promise<void> {
  await queueMail(tx, { kind, message, ...about });
}

/** withinMailCap, then the mail queued in a transaction of its own (or the caller's). */
export async function sendCappedMail(deps: Deps, kind: CappedMailKind, message: MailMessage, about: MailAbout): Promise<void> {
  if (await withinMailCap(deps, kind, message.to)) await queueCappedMail(deps, kind, message, about);
}

/**
 * Queues a mail about the account in the unit of work of `tx` (the change it tells of), unless the
 * account's preferences turn that mail off (the rules: mail/preferences.ts).
 */
export async function queueAccountMail(
  tx: OutboxDeps,
  account: MailPreferences & Pick<UserRow, 'id' | 'project_id'>,
  template: MailTemplate,
  message: MailMessage,
): Promise<void> {
  if (mayMail(account, template)) await queueMail(tx, { kind: template, message, ...aboutAccount(account) });
}

import { sendInBackground, type Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { MailMessage } from '../../mail/mailer.js';
import { mayMail, type MailPreferences, type MailTemplate } from '../../mail/preferences.js';
import type { Realm } from '../realms/realm.js';
import { normalizeEmail } from '../users/users.repo.js';

/**
 * The mails a caller can make us send to an address: capped per recipient, so they cannot be used to
 * flood one. `email_change` is what a change of address sends the new address (the link, or the notice
 * that it is taken: one kind, so the cap behaves the same either way); `email_change_notice` what it
 * sends the old one.
 */
export type CappedMailKind = 'verification' | 'signup_notice' | 'password_reset' | 'email_change' | 'email_change_notice' | 'identity_link' | 'project_invitation';

/** Links are built from APP_URL (or the project's website_url) only, never from request headers. */
export function appLink(realm: Pick<Realm, 'linkBase'>, path: string, token?: string): string {
  const url = new URL(path.replace(/^\//, ''), `${realm.linkBase.replace(/\/+$/, '')}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/** Where each link of the mails a project may rewrite points (under the realm's link base). */
export const MAIL_LINK_PATHS = { verification: '/verify-email', password_reset: '/reset-password', password_changed: '/login' } as const;

/**
 * Sends a mail of a capped kind: an address receives at most mailPerRecipient of each kind per hour,
 * counted across every realm (the platform and all projects). Past that the caller's answer does not
 * change and nothing is sent; the log says so without naming the address.
 */
export async function sendCappedMail(deps: Deps, kind: CappedMailKind, message: MailMessage): Promise<void> {
  try {
    await deps.limiters.mailPerRecipient.consume(`${kind}:${normalizeEmail(message.to)}`);
  } catch (error) {
    if (error instanceof AppError && error.code === 'TOO_MANY_REQUESTS') {
      deps.logger.warn({ kind }, 'mail cap reached for a recipient: not sent');
      return;
    }
    throw error;
  }
  sendInBackground(deps, message);
}

/** Sends a mail about the account unless its preferences turn that mail off (the rules: mail/preferences.ts). */
export function sendAccountMail(deps: Deps, account: MailPreferences, template: MailTemplate, message: MailMessage): void {
  if (mayMail(account, template)) sendInBackground(deps, message);
}

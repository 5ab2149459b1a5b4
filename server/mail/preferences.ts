import type { UserRow } from '../db/schema.js';
import type * as templates from './templates.js';

/** A mail, named by its template's function in templates.ts. */
export type MailTemplate = keyof typeof templates;

type Switch = 'notify_security_alerts' | 'login_notifications';
export type MailPreferences = Pick<UserRow, 'email_notifications' | Switch>;

/**
 * Which mails an account may turn off. The ones its access and its security need always go: links it
 * asked for, "someone tried" notices, and every change of password, address or second factor that
 * weakens the account or adds a way in. The others need the master switch (email_notifications) and their own.
 * Every template must be listed: a new one does not compile until it is classified here.
 */
export const MAIL_RULES = {
  verificationMail: 'always',
  passwordResetMail: 'always',
  signupAttemptMail: 'always',
  passwordChangedMail: 'always',
  // The owner must learn that someone set the account up before them, and what of theirs was removed.
  accountSecuredMail: 'always',
  twoFactorDisabledMail: 'always',
  emailChangeConfirmationMail: 'always',
  emailTakenMail: 'always',
  emailChangeRequestedMail: 'always',
  emailChangedMail: 'always',
  // A code the signed-in user just asked for to prove who they are.
  stepUpCodeMail: 'always',
  // A sign-in link or code the owner of the address just asked for.
  magicLinkMail: 'always',
  emailCodeMail: 'always',
  // A new way in: whoever holds a stolen session could add one to stay.
  newPasskeyMail: 'always',
  identityLinkMail: 'always',
  identityLinkedMail: 'always',
  // Asked for by a team or organization member, capped per recipient; there may be no account to read preferences from.
  projectInvitationMail: 'always',
  organizationInvitationMail: 'always',
  newSignInMail: ['notify_security_alerts', 'login_notifications'],
  twoFactorEnabledMail: ['notify_security_alerts'],
} as const satisfies Record<MailTemplate, 'always' | readonly Switch[]>;

/** Whether `account` receives the mail of `template`, per its preferences. */
export function mayMail(account: MailPreferences, template: MailTemplate): boolean {
  const rule: 'always' | readonly Switch[] = MAIL_RULES[template];
  if (rule === 'always') return true;
  return account.email_notifications === 1 && rule.every((name) => account[name] === 1);
}

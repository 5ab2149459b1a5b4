import { describe, expect, it } from 'vitest';
import type { Flag } from '../../server/db/schema.js';
import { MAIL_RULES, mayMail, type MailPreferences, type MailTemplate } from '../../server/mail/preferences.js';
import * as templates from '../../server/mail/templates.js';

const ALWAYS_SENT: MailTemplate[] = [
  'verificationMail',
  'passwordResetMail',
  'signupAttemptMail',
  'passwordChangedMail',
  'accountSecuredMail',
  'twoFactorDisabledMail',
  'emailChangeConfirmationMail',
  'emailTakenMail',
  'emailChangeRequestedMail',
  'emailChangedMail',
  'stepUpCodeMail',
  'magicLinkMail',
  'emailCodeMail',
  'newPasskeyMail',
  'identityLinkMail',
  'identityLinkedMail',
  'projectInvitationMail',
  'organizationInvitationMail',
];

/** Every combination of the three switches the rules read. */
function* everyAccount(): Generator<MailPreferences> {
  for (const email_notifications of [0, 1] as Flag[])
    for (const notify_security_alerts of [0, 1] as Flag[])
      for (const login_notifications of [0, 1] as Flag[]) yield { email_notifications, notify_security_alerts, login_notifications };
}

describe('which mails an account may turn off', () => {
  it('classifies every template in templates.ts, and nothing else', () => {
    expect(Object.keys(MAIL_RULES).sort()).toEqual(Object.keys(templates).sort());
  });

  it.each(ALWAYS_SENT)('%s always goes out, whatever the preferences', (template) => {
    for (const account of everyAccount()) expect(mayMail(account, template), JSON.stringify(account)).toBe(true);
  });

  it('a new-device sign-in needs email notifications, security alerts and login notifications on', () => {
    for (const account of everyAccount()) {
      const allOn = account.email_notifications === 1 && account.notify_security_alerts === 1 && account.login_notifications === 1;
      expect(mayMail(account, 'newSignInMail'), JSON.stringify(account)).toBe(allOn);
    }
  });

  it('two factors turned on needs email notifications and security alerts on (login notifications do not matter)', () => {
    for (const account of everyAccount()) {
      const on = account.email_notifications === 1 && account.notify_security_alerts === 1;
      expect(mayMail(account, 'twoFactorEnabledMail'), JSON.stringify(account)).toBe(on);
    }
  });

  it('the master switch off leaves only the always-sent mails', () => {
    const off: MailPreferences = { email_notifications: 0, notify_security_alerts: 1, login_notifications: 1 };
    const sent = (Object.keys(MAIL_RULES) as MailTemplate[]).filter((template) => mayMail(off, template));
    expect(sent.sort()).toEqual([...ALWAYS_SENT].sort());
  });
});

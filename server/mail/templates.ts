import { escapeHtml, mailPage, PLATFORM_BRAND, safeColor, signOffText, type MailBrand } from './branding.js';
import type { MailMessage } from './mailer.js';
import { templateMail } from './template-mail.js';

type Action = { label: string; url: string };

function layout(brand: MailBrand, title: string, paragraphs: string[], action?: Action): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${safeColor(brand.accentColor)};color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
       <p style="margin:0 0 16px;color:#666;font-size:13px">Or paste this link into your browser:<br>${escapeHtml(action.url)}</p>`
    : '';
  return mailPage(brand, title, `${body}${button}`);
}

/** A notice in the brand: its subject names the product ("… – Shop"), its text and page end with the brand's sign-off. */
function message(to: string, title: string, paragraphs: string[], action?: Action, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), signOffText(brand)].join('\n\n');
  const subject = `${title} – ${brand.productName}`;
  return { to, subject, text, html: layout(brand, title, paragraphs, action), ...(brand.senderName && { fromName: brand.senderName }) };
}

/** The verification link: the brand's own template, else the built-in one (shared/mail-templates.ts). */
export function verificationMail(to: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return templateMail('verification', to, url, brand);
}

export function signupAttemptMail(to: string, loginUrl: string, resetUrl: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Someone tried to sign up with your email',
    [
      'Someone just tried to create an account with this email address, which already has an account.',
      `If it was you, sign in at ${loginUrl}. Forgot your password? Reset it at ${resetUrl}.`,
      'If it was not you, you can ignore this message: nothing has changed.',
    ],
    undefined,
    brand,
  );
}

export function passwordResetMail(to: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return templateMail('password_reset', to, url, brand);
}

/** `signInUrl`: where to sign in; `notice`: what the change also did to the account's other ways in (a reset's removals), one paragraph each. */
export function passwordChangedMail(to: string, signInUrl: string, brand: MailBrand = PLATFORM_BRAND, notice: readonly string[] = []): MailMessage {
  return templateMail('password_changed', to, signInUrl, brand, notice);
}

/**
 * To the owner who just proved the address of an account someone else had set up first (signed up
 * with the address, or signed in with a provider that had not verified it): what was removed.
 */
export function accountSecuredMail(to: string, removed: readonly string[], brand?: MailBrand): MailMessage {
  return message(
    to,
    'We removed what someone else set up on your account',
    [
      'Your email address is confirmed. Before you confirmed it, the account already had ways to sign in that this confirmation did not come from, so we removed them:',
      ...removed.map((item) => `• ${item}`),
      'If you added any of these yourself, add them again in your security settings. If you did not, someone tried to keep a way into your account: nothing of theirs is left.',
    ],
    undefined,
    brand,
  );
}

export function newSignInMail(to: string, signIn: { device: string; ip: string; country: string; time: string }, brand?: MailBrand): MailMessage {
  return message(
    to,
    'New sign-in to your account',
    [
      'Your account was just signed in to from a device we have not seen before.',
      `Device: ${signIn.device}`,
      `IP address: ${signIn.ip} (country: ${signIn.country})`,
      `Time: ${signIn.time}`,
      'If this was you, there is nothing to do. If not, reset your password right away.',
    ],
    undefined,
    brand,
  );
}

export function twoFactorEnabledMail(to: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Two-factor authentication is on',
    [
      'Two-factor authentication was just turned on for your account: signing in now also asks for a code from your authenticator app.',
      'Keep your recovery codes somewhere safe. If this was not you, reset your password right away.',
    ],
    undefined,
    brand,
  );
}

export function twoFactorDisabledMail(to: string, byAdministrator: boolean, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Two-factor authentication is off',
    [
      byAdministrator
        ? 'An administrator just reset the two-factor authentication of your account and removed its passkeys: signing in asks for your password only, until you set them up again.'
        : 'Two-factor authentication was just turned off for your account: signing in asks for your password only.',
      'If this was not you, reset your password right away and turn two-factor authentication back on.',
    ],
    undefined,
    brand,
  );
}

export function newPasskeyMail(to: string, name: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'A passkey was added to your account',
    [
      `A new passkey, "${name}", can now sign in to your account without a password.`,
      'If this was not you, remove it in your security settings and reset your password right away.',
    ],
    undefined,
    brand,
  );
}

export function emailChangeConfirmationMail(to: string, url: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Confirm your new email address',
    [
      'Someone asked to move their account to this email address. Confirm it to make it the address of the account.',
      'This link expires in 1 hour and works once. If you did not ask for it, ignore this message: nothing changes.',
    ],
    { label: 'Confirm email address', url },
    brand,
  );
}

/** To the new address when another account of the realm already has it: the request's answer stays the same. */
export function emailTakenMail(to: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Someone tried to move an account to your email',
    [
      'Someone just tried to change the email address of an account to this address, which already has an account of its own.',
      'Nothing has changed. If it was you, each address can belong to one account only. If it was not you, you can ignore this message.',
    ],
    undefined,
    brand,
  );
}

export function emailChangeRequestedMail(to: string, newEmail: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Email change requested',
    [
      `Someone asked to change the email address of your account to ${newEmail}. It changes only once the link sent to that address is opened.`,
      'If this was not you, change your password right away: whoever asked knows it.',
    ],
    undefined,
    brand,
  );
}

export function emailChangedMail(to: string, newEmail: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    'Your email address was changed',
    [
      `The email address of your account was just changed to ${newEmail}, and every other session was signed out. Mail about the account now goes to the new address.`,
      'If this was not you, contact support right away.',
    ],
    undefined,
    brand,
  );
}

export function identityLinkMail(to: string, provider: string, url: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    `Connect ${provider} to your account`,
    [
      `Someone signed in with ${provider} using this email address, which already has an account here.`,
      `If it was you, open the link to connect ${provider} to your account; you can then use it to sign in. The link expires in 1 hour and works once.`,
      'If it was not you, ignore this message: nothing changes without the link.',
    ],
    { label: `Connect ${provider}`, url },
    brand,
  );
}

export function identityLinkedMail(to: string, provider: string, brand?: MailBrand): MailMessage {
  return message(
    to,
    `${provider} was connected to your account`,
    [
      `${provider} can now be used to sign in to your account.`,
      'If this was not you, sign in, remove it in your security settings and change your password.',
    ],
    undefined,
    brand,
  );
}

export function projectInvitationMail(to: string, invitation: { project: string; invitedBy: string | null; role: string; url: string; days: number }): MailMessage {
  return message(
    to,
    `You are invited to ${invitation.project}`,
    [
      `${invitation.invitedBy ?? 'A team member'} invited you to the project "${invitation.project}" as ${invitation.role === 'admin' ? 'an admin' : `a ${invitation.role}`}.`,
      `Sign in (or sign up) with this address and accept. The link works for ${invitation.days} days and once.`,
      'If you do not know this project, ignore this message: nothing happens until you accept.',
    ],
    { label: 'Open the invitation', url: invitation.url },
  );
}

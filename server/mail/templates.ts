import type { TFunction } from 'i18next';
import type { MailKey } from '../../shared/i18n/catalogue.js';
import { escapeHtml, mailPage, PLATFORM_BRAND, safeColor, signOffText, type MailBrand } from './branding.js';
import type { MailMessage } from './mailer.js';
import { formatInstant, mailTranslator } from './mail-i18n.js';
import { templateMail } from './template-mail.js';

type Action = { label: string; url: string };

/** A catalogue text of several paragraphs (parted by blank lines), filled in. */
function paragraphs(t: TFunction, key: MailKey, values: Record<string, unknown> = {}): string[] {
  return t(key, values).split(/\n\s*\n/);
}

function layout(brand: MailBrand, t: TFunction, title: string, paragraphs: string[], action?: Action): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${safeColor(brand.accentColor)};color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
       <p style="margin:0 0 16px;color:#666;font-size:13px">${escapeHtml(t('layout.pasteLink'))}<br>${escapeHtml(action.url)}</p>`
    : '';
  return mailPage(brand, title, `${body}${button}`);
}

/** A notice in the brand and its language: its subject names the product ("… – Shop"), its text and page end with the brand's sign-off. */
function message(to: string, brand: MailBrand, compose: (t: TFunction) => { title: string; paragraphs: string[]; action?: Action }): MailMessage {
  const t = mailTranslator(brand);
  const { title, paragraphs, action } = compose(t);
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), signOffText(brand)].join('\n\n');
  const subject = `${title} – ${brand.productName}`;
  return { to, subject, text, html: layout(brand, t, title, paragraphs, action), ...(brand.senderName && { fromName: brand.senderName }) };
}

/** The verification link: the brand's own template, else the built-in one (shared/mail-templates.ts). */
export function verificationMail(to: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return templateMail('verification', to, url, brand);
}

/** A one-time sign-in link (magic link): the brand's own template, else the built-in one. */
export function magicLinkMail(to: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return templateMail('magic_link', to, url, brand);
}

/** A 6-digit sign-in code; `signInUrl` is the project's sign-in page, for a template that links it. */
export function emailCodeMail(to: string, code: string, signInUrl: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return templateMail('email_code', to, signInUrl, brand, [], code);
}

export function signupAttemptMail(to: string, loginUrl: string, resetUrl: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('signupAttempt.title'), paragraphs: paragraphs(t, 'signupAttempt.text', { loginUrl, resetUrl }) }));
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
export function accountSecuredMail(to: string, removed: readonly string[], brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({
    title: t('accountSecured.title'),
    paragraphs: [t('accountSecured.intro'), ...removed.map((item) => `• ${item}`), t('accountSecured.outro')],
  }));
}

/** `time`: an ISO instant, written for the recipient's language (in UTC: the mail does not know their zone). */
export function newSignInMail(to: string, signIn: { device: string; ip: string; country: string; time: string }, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('newSignIn.title'), paragraphs: paragraphs(t, 'newSignIn.text', { ...signIn, time: formatInstant(signIn.time, brand.locale) }) }));
}

export function twoFactorEnabledMail(to: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('twoFactorOn.title'), paragraphs: paragraphs(t, 'twoFactorOn.text') }));
}

export function twoFactorDisabledMail(to: string, byAdministrator: boolean, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({
    title: t('twoFactorOff.title'),
    paragraphs: [byAdministrator ? t('twoFactorOff.byAdmin') : t('twoFactorOff.byUser'), t('twoFactorOff.outro')],
  }));
}

export function newPasskeyMail(to: string, name: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('newPasskey.title'), paragraphs: paragraphs(t, 'newPasskey.text', { name }) }));
}

export function emailChangeConfirmationMail(to: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({
    title: t('emailChangeConfirm.title'),
    paragraphs: paragraphs(t, 'emailChangeConfirm.text'),
    action: { label: t('emailChangeConfirm.action'), url },
  }));
}

/** To the new address when another account of the realm already has it: the request's answer stays the same. */
export function emailTakenMail(to: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('emailTaken.title'), paragraphs: paragraphs(t, 'emailTaken.text') }));
}

export function emailChangeRequestedMail(to: string, newEmail: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('emailChangeRequested.title'), paragraphs: paragraphs(t, 'emailChangeRequested.text', { newEmail }) }));
}

export function emailChangedMail(to: string, newEmail: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('emailChanged.title'), paragraphs: paragraphs(t, 'emailChanged.text', { newEmail }) }));
}

/** The code an account without a password proves who it is with (step-up), valid `minutes`. */
export function stepUpCodeMail(to: string, code: string, minutes: number, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('stepUpCode.title'), paragraphs: paragraphs(t, 'stepUpCode.text', { code, minutes }) }));
}

export function identityLinkMail(to: string, provider: string, url: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({
    title: t('identityLink.title', { provider }),
    paragraphs: paragraphs(t, 'identityLink.text', { provider }),
    action: { label: t('identityLink.action', { provider }), url },
  }));
}

export function identityLinkedMail(to: string, provider: string, brand: MailBrand = PLATFORM_BRAND): MailMessage {
  return message(to, brand, (t) => ({ title: t('identityLinked.title', { provider }), paragraphs: paragraphs(t, 'identityLinked.text', { provider }) }));
}

/** To a developer (the platform's own mail: English, like the dashboard). */
export function projectInvitationMail(to: string, invitation: { project: string; invitedBy: string | null; role: string; url: string; days: number }): MailMessage {
  return message(to, PLATFORM_BRAND, () => ({
    title: `You are invited to ${invitation.project}`,
    paragraphs: [
      `${invitation.invitedBy ?? 'A team member'} invited you to the project "${invitation.project}" as ${invitation.role === 'admin' ? 'an admin' : `a ${invitation.role}`}.`,
      `Sign in (or sign up) with this address and accept. The link works for ${invitation.days} days and once.`,
      'If you do not know this project, ignore this message: nothing happens until you accept.',
    ],
    action: { label: 'Open the invitation', url: invitation.url },
  }));
}

/** To an end user invited to an organization, in the project's brand and language. */
export function organizationInvitationMail(
  to: string,
  invitation: { organization: string; inviter: string | null; role: string; url: string; days: number },
  brand: MailBrand,
): MailMessage {
  return message(to, brand, (t) => ({
    title: t('organizationInvitation.title', { organization: invitation.organization }),
    paragraphs: paragraphs(t, 'organizationInvitation.text', { ...invitation, inviter: invitation.inviter ?? invitation.organization }),
    action: { label: t('organizationInvitation.action'), url: invitation.url },
  }));
}

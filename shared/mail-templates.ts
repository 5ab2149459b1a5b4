import { createI18n } from './i18n/i18n.js';
import { DEFAULT_LOCALE } from './i18n/locales.js';
import type { StringOverrides } from './i18n/overrides.js';
import { MAIL_TEMPLATE_KINDS, type MailTemplateKind } from './schemas/project-settings.js';

/**
 * The built-in wording of the mails a project may rewrite, in a language: the one source that the
 * server sends when a project has no template of its own, and that the template editor starts from.
 * The words are the `mail` catalogue's (shared/i18n/locales), with the project's overrides for that
 * language over them; the {{placeholders}} are left for the mail's rendering to fill. A paragraph that
 * is only `{{link}}` becomes the mail's button (its label below); the mail's layout adds the sign-off
 * ("— {{product_name}}") and, unless the project turned it off, the "Secured by" line.
 */
export function builtInMailTemplate(kind: MailTemplateKind, locale: string = DEFAULT_LOCALE, overrides: StringOverrides = {}): { subject: string; text: string } {
  const i18n = createI18n(locale, { overrides });
  // Raw, not t(): the placeholders are the template's, for template-mail.ts to fill (escaped in HTML).
  const raw = (key: string) => (i18n.getResource(locale, 'mail', key) ?? i18n.getResource(DEFAULT_LOCALE, 'mail', key)) as string;
  return { subject: raw(`${kind}.subject`), text: raw(`${kind}.text`) };
}

/** The label of the button a paragraph of only `{{link}}` becomes, in a language. */
export function mailActionLabel(kind: MailTemplateKind, locale: string = DEFAULT_LOCALE, overrides: StringOverrides = {}): string {
  return createI18n(locale, { overrides }).t(`mail:${kind}.action`);
}

/** The English built-in templates (what a project that never chose a language starts from). */
export const BUILT_IN_MAIL_TEMPLATES: Readonly<Record<MailTemplateKind, { subject: string; text: string }>> = Object.freeze(
  Object.fromEntries(MAIL_TEMPLATE_KINDS.map((kind) => [kind, builtInMailTemplate(kind)])) as Record<MailTemplateKind, { subject: string; text: string }>,
);

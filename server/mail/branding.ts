import type { MailTemplate, MailTemplateKind } from '../../shared/schemas/project-settings.js';
import { PRODUCT_NAME } from '../../shared/constants.js';
import type { Locale } from '../../shared/i18n/locales.js';
import type { StringOverrides } from '../../shared/i18n/overrides.js';
import { createI18n } from '../../shared/i18n/i18n.js';

/** Whose name, colour and logo a realm's mails carry, and the templates a project wrote itself. */
export interface MailBrand {
  productName: string;
  /** The From display name; null keeps MAIL_FROM's. */
  senderName: string | null;
  accentColor: string;
  /** An https image at the top of the HTML part; null for none. */
  logoUrl: string | null;
  /** The small "Secured by {PRODUCT_NAME}" line at the foot (a project's mails; never the platform's own). */
  securedBy: boolean;
  templates: Partial<Record<MailTemplateKind, MailTemplate>>;
  /** The recipient's language (mail/locale.ts picks it); the built-in wording comes from its catalogue. */
  locale: Locale;
  /** The project's own wording per language, over the catalogues. */
  stringOverrides: StringOverrides;
}

export const DEFAULT_ACCENT_COLOR = '#228be6';

export const PLATFORM_BRAND: MailBrand = Object.freeze({
  productName: PRODUCT_NAME,
  senderName: null,
  accentColor: DEFAULT_ACCENT_COLOR,
  logoUrl: null,
  securedBy: false,
  templates: Object.freeze({}),
  locale: 'en',
  stringOverrides: Object.freeze({}),
});

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Only a #rrggbb colour reaches a style attribute; anything else is the default. */
export function safeColor(value: string): string {
  return /^#[0-9a-f]{6}$/i.test(value) ? value : DEFAULT_ACCENT_COLOR;
}

/** Only an https address reaches an img src (a logo over http would be mixed content, or a tracking beacon in the clear). */
function safeLogo(value: string | null): string | null {
  return value && /^https:\/\/[^\s"'<>]+$/i.test(value) ? value : null;
}

/** How every mail's text part ends: the brand's sign-off, and the "Secured by" line when it has one. */
export function signOffText(brand: MailBrand): string {
  return [`— ${brand.productName}`, ...(brand.securedBy ? [securedByText(brand)] : [])].join('\n\n');
}

function securedByText(brand: MailBrand): string {
  return createI18n(brand.locale, { overrides: brand.stringOverrides }).t('mail:layout.securedBy', { product: PRODUCT_NAME });
}

/** The page around every mail's body: the logo, its title, the body's HTML, the sign-off and the "Secured by" line. */
export function mailPage(brand: MailBrand, title: string, bodyHtml: string): string {
  const logo = safeLogo(brand.logoUrl);
  const header = logo ? `<p style="margin:0 0 16px"><img src="${escapeHtml(logo)}" alt="${escapeHtml(brand.productName)}" style="max-height:40px;max-width:200px"></p>` : '';
  const securedBy = brand.securedBy ? `<p style="color:#888;font-size:12px;margin:24px 0 0">${escapeHtml(securedByText(brand))}</p>` : '';
  const dir = createI18n(brand.locale).dir(brand.locale);
  return `<!doctype html><html lang="${escapeHtml(brand.locale)}" dir="${dir}"><body style="font-family:system-ui,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
${header}<h1 style="font-size:20px;border-bottom:3px solid ${safeColor(brand.accentColor)};padding-bottom:8px">${escapeHtml(title)}</h1>${bodyHtml}
<p style="margin:24px 0 0">— ${escapeHtml(brand.productName)}</p>${securedBy}</body></html>`;
}

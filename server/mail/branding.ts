import type { MailTemplate, MailTemplateKind } from '../../shared/schemas/project-settings.js';
import { PRODUCT_NAME } from '../../shared/constants.js';

/** Whose name and colour a realm's mails carry, and the templates a project wrote itself. */
export interface MailBrand {
  productName: string;
  /** The From display name; null keeps MAIL_FROM's. */
  senderName: string | null;
  accentColor: string;
  templates: Partial<Record<MailTemplateKind, MailTemplate>>;
}

export const DEFAULT_ACCENT_COLOR = '#228be6';

export const PLATFORM_BRAND: MailBrand = Object.freeze({ productName: PRODUCT_NAME, senderName: null, accentColor: DEFAULT_ACCENT_COLOR, templates: Object.freeze({}) });

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Only a #rrggbb colour reaches a style attribute; anything else is the default. */
export function safeColor(value: string): string {
  return /^#[0-9a-f]{6}$/i.test(value) ? value : DEFAULT_ACCENT_COLOR;
}

/** The page around every mail's body: its title, the body's HTML, the brand's name at the foot. */
export function mailPage(brand: MailBrand, title: string, bodyHtml: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;border-bottom:3px solid ${safeColor(brand.accentColor)};padding-bottom:8px">${escapeHtml(title)}</h1>${bodyHtml}
<p style="color:#888;font-size:12px">${escapeHtml(brand.productName)}</p></body></html>`;
}

import { builtInMailTemplate, mailActionLabel } from '../../shared/mail-templates.js';
import { createI18n } from '../../shared/i18n/i18n.js';
import type { MailPlaceholder, MailTemplate, MailTemplateKind } from '../../shared/schemas/project-settings.js';
import { escapeHtml, mailPage, safeColor, signOffText, type MailBrand } from './branding.js';
import type { MailMessage } from './mailer.js';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
const ONLY_LINK = /^\{\{\s*link\s*\}\}$/;

/** The template's text with each placeholder's value, as plain text (subject, text part). */
function fill(template: string, values: Record<MailPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name as MailPlaceholder] : whole));
}

function button(label: string, url: string, brand: MailBrand): string {
  const pasteLink = createI18n(brand.locale, { overrides: brand.stringOverrides }).t('mail:layout.pasteLink');
  return `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:${safeColor(brand.accentColor)};color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(label)}</a></p>
<p style="margin:0 0 16px;color:#666;font-size:13px">${escapeHtml(pasteLink)}<br>${escapeHtml(url)}</p>`;
}

/**
 * The HTML part: the template's own words and every value are escaped separately (a value cannot
 * open a tag, nor can the template), a paragraph of only the link becomes the brand's button, any
 * other link an anchor in the brand's colour; blank lines part paragraphs and single newlines break lines.
 */
function fillHtml(template: string, values: Record<MailPlaceholder, string>, brand: MailBrand, actionLabel: string): string {
  return template
    .trim()
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => {
      if (ONLY_LINK.test(paragraph.trim())) return button(actionLabel, values.link, brand);
      let html = '';
      let last = 0;
      for (const match of paragraph.matchAll(PLACEHOLDER)) {
        html += escapeHtml(paragraph.slice(last, match.index));
        const name = match[1] as MailPlaceholder;
        if (!(name in values)) html += escapeHtml(match[0]);
        else if (name === 'link') html += `<a href="${escapeHtml(values.link)}" style="color:${safeColor(brand.accentColor)}">${escapeHtml(values.link)}</a>`;
        else if (name === 'code' && values.code) html += `<strong style="font-size:24px;letter-spacing:4px">${escapeHtml(values.code)}</strong>`;
        else html += escapeHtml(values[name]);
        last = match.index + match[0].length;
      }
      html += escapeHtml(paragraph.slice(last));
      return `<p style="margin:0 0 16px">${html.replace(/\r?\n/g, '<br>')}</p>`;
    })
    .join('');
}

/**
 * One of the mails a project may write itself, for one recipient: the brand's template for `kind`, else
 * the built-in one in the brand's language (shared/mail-templates.ts), through the same rendering, so that what the editor
 * previews is what is sent. `notice`: paragraphs the server must say whatever the template says (what a
 * reset removed), after the template's text; then the brand's sign-off.
 */
export function templateMail(kind: MailTemplateKind, to: string, link: string, brand: MailBrand, notice: readonly string[] = [], code = ''): MailMessage {
  return renderTemplateMail(kind, brand.templates[kind] ?? builtInMailTemplate(kind, brand.locale, brand.stringOverrides), to, link, brand, notice, code);
}

/** A template (the project's own, or one being edited) rendered as templateMail would send it. */
export function renderTemplateMail(kind: MailTemplateKind, template: MailTemplate, to: string, link: string, brand: MailBrand, notice: readonly string[] = [], code = ''): MailMessage {
  // `code`: a mailed sign-in code (email_code); empty in the mails that have none.
  const values: Record<MailPlaceholder, string> = { product_name: brand.productName, email: to, link, code };
  const subject = fill(template.subject, values);
  const noticeHtml = notice.map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`).join('');
  return {
    to,
    subject,
    text: [fill(template.text.trim(), values), ...notice, signOffText(brand)].join('\n\n'),
    html: mailPage(brand, subject, fillHtml(template.text, values, brand, mailActionLabel(kind, brand.locale, brand.stringOverrides)) + noticeHtml),
    ...(brand.senderName && { fromName: brand.senderName }),
  };
}

import type { MailPlaceholder, MailTemplate } from '../../shared/schemas/project-settings.js';
import { escapeHtml, mailPage, safeColor, type MailBrand } from './branding.js';
import type { MailMessage } from './mailer.js';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The template's text with each placeholder's value, as plain text (subject, text part). */
function fill(template: string, values: Record<MailPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name as MailPlaceholder] : whole));
}

/**
 * The HTML part: the template's own words and every value are escaped separately (a value cannot
 * open a tag, nor can the template), the link becomes an anchor in the brand's colour, blank lines
 * part paragraphs and single newlines break lines.
 */
function fillHtml(template: string, values: Record<MailPlaceholder, string>, brand: MailBrand): string {
  let html = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    html += escapeHtml(template.slice(last, match.index));
    const name = match[1] as MailPlaceholder;
    if (!(name in values)) html += escapeHtml(match[0]);
    else if (name === 'link') html += `<a href="${escapeHtml(values.link)}" style="color:${safeColor(brand.accentColor)}">${escapeHtml(values.link)}</a>`;
    else html += escapeHtml(values[name]);
    last = match.index + match[0].length;
  }
  html += escapeHtml(template.slice(last));
  return html
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => `<p style="margin:0 0 16px">${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A project's own template for one of its mails, filled in for one recipient. `notice`: paragraphs the
 * server must say whatever the template says (what a reset removed), added after the template's text.
 */
export function renderCustomMail(to: string, template: MailTemplate, values: Record<MailPlaceholder, string>, brand: MailBrand, notice: readonly string[] = []): MailMessage {
  const subject = fill(template.subject, values);
  const noticeHtml = notice.map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`).join('');
  return {
    to,
    subject,
    text: [fill(template.text, values), ...notice].join('\n\n'),
    html: mailPage(brand, subject, fillHtml(template.text, values, brand) + noticeHtml),
    ...(brand.senderName && { fromName: brand.senderName }),
  };
}

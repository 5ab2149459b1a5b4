import type { TFunction } from 'i18next';
import { createI18n } from '../../shared/i18n/i18n.js';
import type { MailBrand } from './branding.js';

/** The `mail` catalogue in the brand's language, with the brand's own wording for it on top. */
export function mailTranslator(brand: Pick<MailBrand, 'locale' | 'stringOverrides'>): TFunction {
  return createI18n(brand.locale, { overrides: brand.stringOverrides }).getFixedT(brand.locale, 'mail');
}

/** A date and time for a mail in `locale` (in UTC, named: the mail does not know the reader's zone), or the text as it came when it is no date. */
export function formatInstant(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(date);
}

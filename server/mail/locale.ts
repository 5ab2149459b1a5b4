import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales.js';
import { parseAcceptLanguage, resolveLocale } from '../../shared/i18n/resolve-locale.js';
import type { HeaderBag } from '../modules/ip-intel/ip-intel.js';
import type { MailBrand } from './branding.js';

/**
 * The language of a mail to an end user: the one they saved (or signed up in), else the one of the
 * request that made us send it (its Accept-Language; the hosted pages send theirs), else English.
 * The platform's own mails to developers stay English (`projectId` null), like its dashboard.
 */
export function recipientLocale(projectId: string | null, recipient: { locale?: string | null } | null | undefined, request?: { headers: HeaderBag } | null): Locale {
  if (projectId === null) return DEFAULT_LOCALE;
  return resolveLocale({ saved: recipient?.locale ?? null, preferred: parseAcceptLanguage(request?.headers['accept-language']) });
}

/** The request's own language (Accept-Language), for what it saves as a new user's language. */
export function requestLocale(request: { headers: HeaderBag }): Locale {
  return resolveLocale({ preferred: parseAcceptLanguage(request.headers['accept-language']) });
}

/** The brand speaking `locale`. */
export function inLocale(brand: MailBrand, locale: Locale): MailBrand {
  return brand.locale === locale ? brand : { ...brand, locale };
}

import type { Catalogue } from './catalogue.js';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { ja } from './locales/ja.js';

/**
 * The languages of the hosted pages and end-user mails. Adding one is adding its catalogue here
 * (shared/i18n/locales/xx.ts, typed Catalogue); a right-to-left language (ar, he, fa, ur…) needs
 * nothing more: the pages take their direction from i18next's dir().
 */
export const CATALOGUES = { en, de, fr, es, ja } satisfies Record<string, Catalogue>;

export type Locale = keyof typeof CATALOGUES;
export const SUPPORTED_LOCALES = Object.keys(CATALOGUES) as Locale[];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(CATALOGUES, value);
}

/** The language's own name ("Deutsch", "日本語") for a language picker. */
export function localeName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : locale;
  } catch {
    return locale;
  }
}

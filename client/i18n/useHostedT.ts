import { useContext } from 'react';
import { I18nContext, useTranslation } from 'react-i18next';
import { en } from '../../shared/i18n/locales/en';
import { createI18n } from '../../shared/i18n/i18n';

/** Outside the hosted pages (the platform's own screens, which stay English) the shared components speak English. */
const english = createI18n('en');

/** English text → its key, for the fixed messages the hosted pages show (form rules, the server's known answers). */
const KNOWN = new Map<string, string>(
  Object.entries(en.hosted)
    .filter(([, text]) => !text.includes('{{'))
    .map(([key, text]) => [text, key]),
);

/** Dates and countries in the page's language (English as the platform's screens write them: en-US). */
function formatters(language: string, never: string) {
  const locale = language === 'en' ? 'en-US' : language;
  const format = (options: Intl.DateTimeFormatOptions) => (iso: string | null | undefined) => {
    const date = iso ? new Date(iso) : null;
    return date && !Number.isNaN(date.getTime()) ? new Intl.DateTimeFormat(locale, options).format(date) : never;
  };
  return {
    formatDate: format({ year: 'numeric', month: 'long', day: 'numeric' }),
    formatDateTime: format({ year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
    /** 'DE' → 'Germany (DE)' / 'Deutschland (DE)'. */
    countryLabel: (code: string) => {
      const upper = code.toUpperCase();
      let name: string | undefined;
      try {
        name = new Intl.DisplayNames([language], { type: 'region' }).of(upper);
      } catch {
        name = undefined;
      }
      return name && name !== upper ? `${name} (${upper})` : upper;
    },
  };
}

/**
 * The hosted pages' translation: the `hosted` namespace of the page's i18next instance (HostedI18n), or
 * English outside them. `known(text)` shows a fixed English message (a rule of a form, a server's
 * `detail` the catalogue words) in the page's language, and any other text as it is.
 */
export function useHostedT() {
  const context = useContext(I18nContext);
  const translation = useTranslation('hosted', { i18n: context?.i18n ?? english, useSuspense: false });
  const { t } = translation;
  const known = (text: string): string => {
    const key = KNOWN.get(text);
    return key ? t(key) : text;
  };
  return { ...translation, known, ...formatters(translation.i18n.language, t('common.never')) };
}

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
  return { ...translation, known };
}

import { firstSupported, resolveLocale } from '../../../shared/i18n/resolve-locale';
import { SUPPORTED_LOCALES, type Locale } from '../../../shared/i18n/locales';

const storageKey = (projectKey: string) => `hosted-locale:${projectKey}`;

/**
 * The explicit choice of language for a project's hosted pages: `?ui_locales=` (an app's authorize
 * request, passed on by the server) or `?lang=` on the address, kept for the tab's session so the
 * flow's next pages (whose links do not carry it) stay in it.
 */
export function explicitLocale(projectKey: string, search: string): Locale | null {
  const params = new URLSearchParams(search);
  const asked = firstSupported((params.get('ui_locales') || params.get('lang') || '').split(/\s+/), SUPPORTED_LOCALES);
  try {
    if (asked) sessionStorage.setItem(storageKey(projectKey), asked);
    return asked ?? firstSupported([sessionStorage.getItem(storageKey(projectKey)) ?? ''], SUPPORTED_LOCALES);
  } catch {
    return asked;
  }
}

/** Remembers the language the user picked on the account page for the rest of the tab's session. */
export function rememberLocale(projectKey: string, locale: string): void {
  try {
    sessionStorage.setItem(storageKey(projectKey), locale);
  } catch {
    /* storage off: the saved locale still applies once signed in */
  }
}

/** The hosted pages' language: explicit choice > the signed-in user's saved one > the browser's > English. */
export function hostedLocale(explicit: string | null, saved: string | null): Locale {
  return resolveLocale({ explicit, saved, preferred: typeof navigator === 'undefined' ? [] : navigator.languages });
}

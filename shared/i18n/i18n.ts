import i18next, { type i18n as I18n, type Resource } from 'i18next';
import type { Namespace, PartialCatalogue } from './catalogue.js';
import { CATALOGUES, DEFAULT_LOCALE } from './locales.js';
import type { StringOverrides } from './overrides.js';

export const NAMESPACES: readonly Namespace[] = ['hosted', 'mail'];

export interface I18nOptions {
  /** A project's own strings, `{ locale: { "ns:key": text } }`, over the catalogue. */
  overrides?: StringOverrides;
  /** Catalogues besides the built-in ones (a test's right-to-left one, say). */
  extra?: Record<string, PartialCatalogue>;
}

/**
 * An i18next instance in `locale` over every catalogue (what a language lacks falls back to English),
 * with a project's overrides on top. Synchronous: the resources are in memory. Values are not
 * HTML-escaped here: React escapes what it renders, and the mails escape their HTML part themselves.
 */
export function createI18n(locale: string, options: I18nOptions = {}): I18n {
  // A realm's overrides are one object until its settings change: its instances are made once per language.
  if (options.extra) return buildI18n(locale, options);
  const key = options.overrides ?? NO_OVERRIDES;
  const byLocale = cache.get(key) ?? new Map<string, I18n>();
  cache.set(key, byLocale);
  let instance = byLocale.get(locale);
  if (!instance) byLocale.set(locale, (instance = buildI18n(locale, options)));
  return instance;
}

const NO_OVERRIDES: StringOverrides = Object.freeze({});
const cache = new WeakMap<StringOverrides, Map<string, I18n>>();

function buildI18n(locale: string, options: I18nOptions): I18n {
  const resources: Resource = {};
  const put = (language: string, ns: string, strings: Record<string, string | undefined>) => {
    const bundle = ((resources[language] ??= {})[ns] ??= {}) as Record<string, string>;
    for (const [key, text] of Object.entries(strings)) if (typeof text === 'string') bundle[key] = text;
  };
  for (const catalogues of [CATALOGUES, options.extra ?? {}] as Record<string, PartialCatalogue>[]) {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      for (const [ns, strings] of Object.entries(catalogue)) put(language, ns, strings ?? {});
    }
  }
  for (const [language, strings] of Object.entries(options.overrides ?? {})) {
    for (const [fullKey, text] of Object.entries(strings ?? {})) {
      const [ns, key] = splitKey(fullKey);
      if (ns && key) put(language, ns, { [key]: text });
    }
  }
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    resources,
    ns: NAMESPACES as Namespace[],
    defaultNS: 'hosted',
    keySeparator: false,
    nsSeparator: ':',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  // "Show {{field, lowercase}}": English lowercases a label inside a sentence; other languages need not.
  instance.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) => String(value).toLocaleLowerCase(lng));
  return instance;
}

/** "hosted:signIn.title" → ["hosted", "signIn.title"]. */
export function splitKey(fullKey: string): [Namespace | null, string] {
  const at = fullKey.indexOf(':');
  const ns = fullKey.slice(0, at);
  return [at > 0 && (NAMESPACES as readonly string[]).includes(ns) ? (ns as Namespace) : null, fullKey.slice(at + 1)];
}

import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from './locales.js';

/**
 * The supported language a language tag asks for: the tag itself when supported (any case), else its
 * primary subtag (de-AT → de, zh-Hant-TW → zh); null when neither is supported.
 */
export function matchLocale<L extends string>(tag: string | null | undefined, supported: readonly L[]): L | null {
  if (!tag) return null;
  const wanted = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!wanted || wanted === '*') return null;
  const exact = supported.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0]!;
  return supported.find((locale) => locale.toLowerCase() === primary) ?? null;
}

/** The tags of an Accept-Language header, most wanted first (q=0 dropped; at most 20 looked at). */
export function parseAcceptLanguage(header: string | string[] | null | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return [];
  return value
    .slice(0, 1000)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The first supported language of a list of tags (ui_locales is space-separated, most wanted first). */
export function firstSupported<L extends string>(tags: readonly string[], supported: readonly L[]): L | null {
  for (const tag of tags) {
    const match = matchLocale(tag, supported);
    if (match) return match;
  }
  return null;
}

export interface LocaleSources {
  /** An explicit choice: OpenID Connect's ui_locales, or ?lang= on a hosted link (space-separated tags). */
  explicit?: string | null;
  /** The signed-in user's saved language. */
  saved?: string | null;
  /** What the browser asks for: Accept-Language's tags on the server, navigator.languages in the browser. */
  preferred?: readonly string[];
}

/** The language to answer in: an explicit choice, else the user's saved one, else the browser's, else English. */
export function resolveLocale<L extends string = (typeof SUPPORTED_LOCALES)[number]>(
  sources: LocaleSources,
  supported: readonly L[] = SUPPORTED_LOCALES as unknown as readonly L[],
): L {
  return (
    firstSupported((sources.explicit ?? '').split(/\s+/), supported) ??
    matchLocale(sources.saved, supported) ??
    firstSupported(sources.preferred ?? [], supported) ??
    (DEFAULT_LOCALE as unknown as L)
  );
}

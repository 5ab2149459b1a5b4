import { z } from 'zod';
import { en } from './locales/en.js';
import { SUPPORTED_LOCALES } from './locales.js';

/** A project's own wording: `{ locale: { "ns:key": text } }`, over the catalogue for that language. */
export type StringOverrides = Partial<Record<string, Record<string, string>>>;

export const OVERRIDE_MAX_LENGTH = 2000;
/** The whole of a project's overrides, as stored JSON. */
export const OVERRIDES_MAX_BYTES = 64 * 1024;

/** Every key a project may override, "hosted:…" and "mail:…", in the catalogue's order. */
export const OVERRIDABLE_KEYS: readonly string[] = Object.entries(en).flatMap(([ns, strings]) => Object.keys(strings).map((key) => `${ns}:${key}`));

/** The English text of an overridable key (what an override replaces in English). */
export function baseString(fullKey: string): string | undefined {
  const at = fullKey.indexOf(':');
  const strings = (en as Record<string, Record<string, string>>)[fullKey.slice(0, at)];
  return strings && Object.hasOwn(strings, fullKey.slice(at + 1)) ? strings[fullKey.slice(at + 1)] : undefined;
}

/** The {{variables}} and <tags> of a string, sorted: a translation or override must keep the same ones. */
export function placeholdersOf(text: string): string[] {
  const variables = [...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((match) => `{{${match[1]}}}`);
  const tags = [...text.matchAll(/<\/?([a-z0-9]+)\s*\/?>/gi)].map((match) => `<${match[1]!.toLowerCase()}>`);
  return [...new Set([...variables, ...tags])].sort();
}

export const OVERRIDE_MESSAGES = {
  unknownLocale: `string_overrides: languages are ${SUPPORTED_LOCALES.join(', ')}`,
  unknownKey: (key: string) => `string_overrides: unknown key ${key.slice(0, 100)}`,
  tooLong: (key: string) => `string_overrides: ${key} must be at most ${OVERRIDE_MAX_LENGTH} characters`,
  empty: (key: string) => `string_overrides: ${key} must not be empty (send null to drop it)`,
  placeholders: (key: string, expected: string[]) =>
    `string_overrides: ${key} must use exactly ${expected.length > 0 ? expected.join(', ') : 'no placeholders'}`,
  tooBig: `string_overrides must be at most ${OVERRIDES_MAX_BYTES / 1024} KB in all`,
} as const;

/**
 * The overrides of an update: per language, per key, a text or null (drop it and use the catalogue's).
 * Only known languages and keys, texts of a bounded length with the same placeholders as the English
 * string (a mail without its {{link}}, or a page naming a variable it is not given, cannot be saved).
 */
export const StringOverridesInputSchema = z
  .record(z.string(), z.record(z.string(), z.string().nullable(), { error: 'string_overrides: each language maps keys to text or null' }), {
    error: 'string_overrides must be an object of languages',
  })
  .superRefine((value, ctx) => {
    for (const [locale, strings] of Object.entries(value)) {
      if (!(SUPPORTED_LOCALES as readonly string[]).includes(locale)) {
        ctx.addIssue({ code: 'custom', message: OVERRIDE_MESSAGES.unknownLocale });
        return;
      }
      for (const [key, text] of Object.entries(strings)) {
        const base = baseString(key);
        if (base === undefined) return void ctx.addIssue({ code: 'custom', message: OVERRIDE_MESSAGES.unknownKey(key) });
        if (text === null) continue;
        if (!text.trim()) return void ctx.addIssue({ code: 'custom', message: OVERRIDE_MESSAGES.empty(key) });
        if (text.length > OVERRIDE_MAX_LENGTH) return void ctx.addIssue({ code: 'custom', message: OVERRIDE_MESSAGES.tooLong(key) });
        const expected = placeholdersOf(base);
        if (placeholdersOf(text).join() !== expected.join()) return void ctx.addIssue({ code: 'custom', message: OVERRIDE_MESSAGES.placeholders(key, expected) });
      }
    }
  });

/** What an update leaves: the stored overrides with the input's set and its nulls dropped (languages left empty go). */
export function mergeOverrides(stored: StringOverrides, input: Record<string, Record<string, string | null>>): StringOverrides {
  const next: StringOverrides = structuredClone(stored);
  for (const [locale, strings] of Object.entries(input)) {
    const target = { ...(next[locale] ?? {}) };
    for (const [key, text] of Object.entries(strings)) {
      if (text === null) delete target[key];
      else target[key] = text;
    }
    if (Object.keys(target).length > 0) next[locale] = target;
    else delete next[locale];
  }
  return next;
}

/** Stored overrides read back (anything unreadable counts as none). */
export function parseStoredOverrides(json: string | null | undefined): StringOverrides {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as StringOverrides) : {};
  } catch {
    return {};
  }
}

/** The hosted pages' part of a project's overrides, keys without their "hosted:" (what the pages load). */
export function hostedOverridesOf(overrides: StringOverrides): Record<string, Record<string, string>> {
  const result: Record<string, Record<string, string>> = {};
  for (const [locale, strings] of Object.entries(overrides)) {
    const hosted = Object.entries(strings ?? {}).filter(([key]) => key.startsWith('hosted:'));
    if (hosted.length > 0) result[locale] = Object.fromEntries(hosted.map(([key, text]) => [key.slice('hosted:'.length), text]));
  }
  return result;
}

import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.js';
import { PLATFORM_BRAND } from '../../server/mail/branding.js';
import { formatInstant, mailTranslator } from '../../server/mail/mail-i18n.js';
import { describeRemoved } from '../../server/modules/auth/auth.service.js';
import { newSignInMail } from '../../server/mail/templates.js';
import { CATALOGUES, SUPPORTED_LOCALES } from '../../shared/i18n/locales.js';
import { en } from '../../shared/i18n/locales/en.js';
import { mergeOverrides, OVERRIDE_MESSAGES, placeholdersOf, StringOverridesInputSchema } from '../../shared/i18n/overrides.js';
import { matchLocale, parseAcceptLanguage, resolveLocale } from '../../shared/i18n/resolve-locale.js';

describe('catalogues', () => {
  it('offer English, German, French, Spanish and Japanese', () => {
    expect(SUPPORTED_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'ja']);
  });

  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale} has exactly English's keys, each with its {{variables}} and <tags>`, () => {
      const catalogue = CATALOGUES[locale] as Record<string, Record<string, string>>;
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
      for (const [ns, strings] of Object.entries(en as Record<string, Record<string, string>>)) {
        expect(Object.keys(catalogue[ns]!).sort(), `${locale}:${ns} keys`).toEqual(Object.keys(strings).sort());
        for (const [key, text] of Object.entries(strings)) {
          const translated = catalogue[ns]![key]!;
          expect(translated.trim(), `${locale} ${ns}:${key} is empty`).not.toBe('');
          expect(placeholdersOf(translated), `${locale} ${ns}:${key}`).toEqual(placeholdersOf(text));
        }
      }
    });
  }

  it('translate through i18next, with a project override on top and English where a language lacks a key', () => {
    const de = createI18n('de', { overrides: { de: { 'hosted:signIn.title': 'Willkommen zurück' } }, extra: { de: { hosted: {} } } });
    expect(de.t('hosted:signIn.title')).toBe('Willkommen zurück');
    expect(de.t('hosted:common.backToApp', { app: 'Shop' })).toBe('Zurück zu Shop');
    const he = createI18n('he', { extra: { he: { hosted: { 'signIn.title': 'התחברות' } } } });
    expect(he.t('hosted:signIn.title')).toBe('התחברות');
    expect(he.t('hosted:signIn.forgot')).toBe(en.hosted['signIn.forgot']);
    expect(he.dir()).toBe('rtl');
    expect(de.dir()).toBe('ltr');
  });
});

describe('locale resolution', () => {
  it('matches a tag by its language when the region is not offered', () => {
    expect(matchLocale('de-AT', SUPPORTED_LOCALES)).toBe('de');
    expect(matchLocale('JA_jp', SUPPORTED_LOCALES)).toBe('ja');
    expect(matchLocale('pt-BR', SUPPORTED_LOCALES)).toBeNull();
    expect(matchLocale('*', SUPPORTED_LOCALES)).toBeNull();
  });

  it('reads Accept-Language by weight', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-CH, en;q=0.8, es;q=0')).toEqual(['de-CH', 'en', 'fr']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('prefers an explicit choice, then the saved language, then the browser, then English', () => {
    const preferred = parseAcceptLanguage('de-DE,de;q=0.9');
    expect(resolveLocale({ explicit: 'pt ja', saved: 'fr', preferred })).toBe('ja');
    expect(resolveLocale({ explicit: 'pt', saved: 'fr', preferred })).toBe('fr');
    expect(resolveLocale({ saved: null, preferred })).toBe('de');
    expect(resolveLocale({ preferred: ['pt-BR', 'zh'] })).toBe('en');
    expect(resolveLocale({})).toBe('en');
  });
});

describe('string overrides', () => {
  const parse = (value: unknown) => StringOverridesInputSchema.safeParse(value);
  const firstError = (value: unknown) => parse(value).error?.issues[0]?.message;

  it('take known languages and keys with the placeholders of the English string', () => {
    expect(parse({ de: { 'hosted:signIn.title': 'Hallo', 'mail:verification.subject': 'Bitte bestätigen: {{product_name}}', 'hosted:common.backToApp': null } }).success).toBe(true);
  });

  it('refuse an unknown language or key, a missing or extra placeholder, an empty or too long text', () => {
    expect(firstError({ xx: { 'hosted:signIn.title': 'x' } })).toBe(OVERRIDE_MESSAGES.unknownLocale);
    expect(firstError({ de: { 'hosted:nope': 'x' } })).toBe(OVERRIDE_MESSAGES.unknownKey('hosted:nope'));
    expect(firstError({ de: { 'mail:verification.text': 'Kein Link hier' } })).toBe(
      OVERRIDE_MESSAGES.placeholders('mail:verification.text', ['{{email}}', '{{link}}', '{{product_name}}']),
    );
    expect(firstError({ de: { 'hosted:signIn.title': 'Hallo {{name}}' } })).toBe(OVERRIDE_MESSAGES.placeholders('hosted:signIn.title', []));
    expect(firstError({ de: { 'hosted:signIn.title': '  ' } })).toBe(OVERRIDE_MESSAGES.empty('hosted:signIn.title'));
    expect(firstError({ de: { 'hosted:signIn.title': 'x'.repeat(2001) } })).toBe(OVERRIDE_MESSAGES.tooLong('hosted:signIn.title'));
  });

  it('merge over the stored ones, null dropping a key and an emptied language', () => {
    const stored = { de: { 'hosted:signIn.title': 'A' }, fr: { 'hosted:signIn.title': 'B' } };
    expect(mergeOverrides(stored, { de: { 'hosted:signIn.title': null }, fr: { 'hosted:signIn.forgot': 'C' } })).toEqual({
      fr: { 'hosted:signIn.title': 'B', 'hosted:signIn.forgot': 'C' },
    });
  });
});

describe('dates in mails', () => {
  it('are written for the reader’s language, in UTC', () => {
    expect(formatInstant('2026-11-26T09:05:00.000Z', 'de')).toBe('26. November 2026 um 09:05 UTC');
    expect(formatInstant('2026-11-26T09:05:00.000Z', 'en')).toBe('November 26, 2026 at 9:05 AM UTC');
    expect(formatInstant('not a date', 'de')).toBe('not a date');
  });

  it('appear so in the German new-sign-in notice', () => {
    const mail = newSignInMail('ada@example.com', { device: 'Firefox', ip: '203.0.113.9', country: 'DE', time: '2026-11-26T09:05:00.000Z' }, { ...PLATFORM_BRAND, locale: 'de' });
    expect(mail.subject).toBe('Neue Anmeldung bei deinem Konto – AuthPlatform');
    expect(mail.text).toContain('Zeit: 26. November 2026 um 09:05 UTC');
    expect(mail.text).toContain('Gerät: Firefox');
  });
});

describe('what an owner’s proof removed', () => {
  const removed = { passkeys: ['Laptop'], secondFactor: true, identities: ['github' as const], pendingAddressChanges: 1 };

  it('is listed in the mail’s language, English by default', () => {
    expect(describeRemoved(removed, 2)).toEqual([
      'the passkey "Laptop"',
      'two-factor authentication (its authenticator app and recovery codes)',
      'sign-in with GitHub',
      'a pending change of the email address',
      '2 sessions signed out',
    ]);
    expect(describeRemoved(removed, 1, [], mailTranslator({ locale: 'de', stringOverrides: {} }))).toEqual([
      'den Passkey „Laptop“',
      'die Zwei-Faktor-Authentifizierung (ihre Authenticator-App und Wiederherstellungscodes)',
      'die Anmeldung mit GitHub',
      'eine ausstehende Änderung der E-Mail-Adresse',
      '1 Sitzung abgemeldet',
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../shared/i18n/locales/de.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { HostedBrowser, hostedProject, type HostedProject } from '../helpers/hosted-browser.js';

/**
 * Issue 25, "in the user's language": an end user's mails follow the language they signed up in (the
 * hosted pages' Accept-Language, or `locale` on the public API), saved on the account, else the
 * request's; an app's ui_locales reaches the hosted pages; the preview equals the sent mail in German too.
 */

let t: TestApp;
let shop: HostedProject;
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp();
  shop = await hostedProject(t);
  apiKey = (await t.call('POST', `/api/v1/projects/${shop.id}/api-keys`, { token: shop.ownerToken, body: { name: 'backend' } })).json().secret;
});
afterAll(() => t.close());

const linkToken = (href: string) => new URL(href).searchParams.get('token');
const publicApi = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': apiKey, ...headers }, ip: uniqueIp() });

async function germanSignUp(email: string) {
  const browser = new HostedBrowser(t, shop);
  browser.headers['accept-language'] = 'de-DE,de;q=0.9,en;q=0.8';
  const before = t.mail.messages.length;
  const signup = await browser.api('/auth/signup', { email, password: STRONG_PASSWORD, first_name: 'Grete' });
  expect(signup.statusCode, signup.body).toBe(201);
  return { browser, mail: await t.mail.waitFor(email, /Shop/, { after: before }) };
}

describe('an end user’s mails', () => {
  it('are German after a hosted sign-up with Accept-Language: de, and the account keeps German', async () => {
    const email = uniqueEmail('grete');
    const { browser, mail } = await germanSignUp(email);
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse für Shop');
    expect(mail.text).toContain(`Willkommen bei Shop! Bitte bestätige ${email}, um die Einrichtung deines Kontos abzuschließen.`);
    expect(mail.text).toContain('Dieser Link läuft in 24 Stunden ab und funktioniert einmal.');
    expect(mail.text).toContain('Geschützt durch AuthPlatform');
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain(`>${de.mail['verification.action']}</a>`);
    expect(mail.html).toContain(de.mail['layout.pasteLink']);
    expect(mail.text).not.toMatch(/Welcome|expires|Secured by/);

    expect((await browser.api('/auth/verify-email', { token: linkToken(mail.link!) })).statusCode).toBe(200);
    const login = await browser.logIn(email);
    expect(login.statusCode, login.body).toBe(200);
    expect((await browser.request('GET', `/hosted/${shop.key}/api/v1/profile`)).json()).toMatchObject({ email, locale: 'de' });
  });

  it('keep the saved language when a later request asks in another (a reset asked from a Japanese browser)', async () => {
    const email = uniqueEmail('saved-de');
    await germanSignUp(email);
    const browser = new HostedBrowser(t, shop);
    browser.headers['accept-language'] = 'ja';
    const before = t.mail.messages.length;
    expect((await browser.api('/auth/forgot-password', { email })).statusCode).toBe(200);
    const reset = await t.mail.waitFor(email, /Passwort/, { after: before });
    expect(reset.subject).toBe('Setze dein Passwort für Shop zurück');
    expect(reset.html).toContain('>Passwort zurücksetzen</a>');
  });

  it('follow `locale` on the public API’s sign-up, and the request’s language without one', async () => {
    const spanish = uniqueEmail('es');
    let before = t.mail.messages.length;
    expect((await publicApi('/auth/signup', { email: spanish, password: STRONG_PASSWORD, locale: 'es' }, { 'accept-language': 'fr' })).statusCode).toBe(201);
    expect((await t.mail.waitFor(spanish, /Shop/, { after: before })).subject).toBe('Verifica tu dirección de correo para Shop');

    const french = uniqueEmail('fr');
    before = t.mail.messages.length;
    expect((await publicApi('/auth/signup', { email: french, password: STRONG_PASSWORD }, { 'accept-language': 'fr-CA,fr;q=0.9' })).statusCode).toBe(201);
    expect((await t.mail.waitFor(french, /Shop/, { after: before })).subject).toBe('Vérifiez votre adresse e-mail pour Shop');

    const bad = await publicApi('/auth/signup', { email: uniqueEmail('xx'), password: STRONG_PASSWORD, locale: 'xx' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ detail: 'locale must be one of en, de, fr, es, ja' });
  });

  it('stay English for a language nobody translated, and for the platform’s own developers', async () => {
    const email = uniqueEmail('pt');
    let before = t.mail.messages.length;
    expect((await publicApi('/auth/signup', { email, password: STRONG_PASSWORD }, { 'accept-language': 'pt-BR' })).statusCode).toBe(201);
    expect((await t.mail.waitFor(email, /Shop/, { after: before })).subject).toBe('Verify your email address for Shop');

    const developer = uniqueEmail('dev-de');
    before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/signup', { body: { email: developer, password: STRONG_PASSWORD }, headers: { 'accept-language': 'de' }, ip: uniqueIp() });
    expect((await t.mail.waitFor(developer, /verify/i, { after: before })).subject).toBe('Verify your email address for AuthPlatform');
  });

  it('preview in German exactly as a German end user gets it', async () => {
    const email = (await t.call('GET', '/api/v1/auth/me', { token: shop.ownerToken })).json().email as string;
    const { mail: sent } = await germanSignUp(email);
    const preview = await t.call('POST', `/api/v1/projects/${shop.id}/settings/mail-preview`, { token: shop.ownerToken, body: { kind: 'verification', locale: 'de' } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().subject).toBe(sent.subject);
    expect(preview.json().text).toBe(sent.text.trimEnd().replace(/token=[\w-]+/g, 'token=sample-token'));
    expect(preview.json().html).toBe(sent.html.replace(/token=[\w-]+/g, 'token=sample-token'));
  });
});

describe('an app’s ui_locales', () => {
  it('reaches the hosted sign-in page (only the languages offered), and discovery lists them', async () => {
    const browser = new HostedBrowser(t, shop);
    const query = new URLSearchParams({
      client_id: shop.key,
      redirect_uri: 'https://shop.example/callback',
      response_type: 'code',
      scope: 'openid email',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ui_locales: 'pt-BR fr-CA de',
    });
    const response = await browser.request('GET', `/hosted/${shop.key}/authorize?${query}`);
    expect(response.statusCode, response.body).toBe(303);
    expect(new URL(response.headers.location as string).searchParams.get('ui_locales')).toBe('fr de');
    const discovery = await t.call('GET', `/projects/${shop.key}/.well-known/openid-configuration`);
    expect(discovery.json().ui_locales_supported).toEqual(['en', 'de', 'fr', 'es', 'ja']);
  });
});

describe('a project’s own wording per language', () => {
  const settings = (project: HostedProject, body: unknown) => t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: project.ownerToken, body });

  it('is saved per language and key, reaches the hosted pages’ config and the mails, and null goes back to the catalogue', async () => {
    const bakery = await hostedProject(t);
    const saved = await settings(bakery, {
      string_overrides: { de: { 'hosted:signIn.title': 'Willkommen zurück', 'mail:verification.subject': 'Fast geschafft bei {{product_name}}' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().string_overrides).toEqual({ de: { 'hosted:signIn.title': 'Willkommen zurück', 'mail:verification.subject': 'Fast geschafft bei {{product_name}}' } });

    const config = await t.call('GET', `/hosted/${bakery.key}/api/v1/project`);
    expect(config.json().string_overrides).toEqual({ de: { 'signIn.title': 'Willkommen zurück' } });

    const signUp = async (language: string) => {
      const browser = new HostedBrowser(t, bakery);
      browser.headers['accept-language'] = language;
      const email = uniqueEmail(`words-${language}`);
      const before = t.mail.messages.length;
      expect((await browser.api('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
      return t.mail.waitFor(email, /Shop/, { after: before });
    };
    const german = await signUp('de');
    expect(german.subject).toBe('Fast geschafft bei Shop');
    expect(german.text).toContain('Willkommen bei Shop!');
    expect((await signUp('en')).subject).toBe('Verify your email address for Shop');

    // A later change merges; null drops a string.
    const merged = await settings(bakery, { string_overrides: { de: { 'hosted:signIn.title': null }, fr: { 'hosted:signIn.title': 'Bon retour' } } });
    expect(merged.json().string_overrides).toEqual({ de: { 'mail:verification.subject': 'Fast geschafft bei {{product_name}}' }, fr: { 'hosted:signIn.title': 'Bon retour' } });
    expect((await t.call('GET', `/hosted/${bakery.key}/api/v1/project`)).json().string_overrides).toEqual({ fr: { 'signIn.title': 'Bon retour' } });
  });

  it('refuses an unknown language or key, a text without the English string’s placeholders, and too much in all', async () => {
    const bakery = await hostedProject(t);
    const refused = async (body: unknown, detail: string) => {
      const res = await settings(bakery, { string_overrides: body });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({ detail });
    };
    await refused({ xx: { 'hosted:signIn.title': 'Hi' } }, 'string_overrides: languages are en, de, fr, es, ja');
    await refused({ de: { 'hosted:signIn.nope': 'Hi' } }, 'string_overrides: unknown key hosted:signIn.nope');
    await refused({ de: { 'mail:verification.text': 'Klick hier' } }, 'string_overrides: mail:verification.text must use exactly {{email}}, {{link}}, {{product_name}}');
    await refused({ de: { 'hosted:signIn.title': '<script>' } }, 'string_overrides: hosted:signIn.title must use exactly no placeholders');
    const keys = ['hosted:signUp.spam', 'hosted:unavailable.unknown', 'hosted:unavailable.inactive', 'hosted:unavailable.failed', 'hosted:msg.socialLinkSent', 'hosted:msg.socialLinkRequired', 'hosted:next.otherBrowser', 'hosted:reset.keepHelp', 'hosted:forgot.spam', 'hosted:reset.invalidText'];
    // Each change fits in a request; together they would pass the cap.
    const part = (locales: string[]) => Object.fromEntries(locales.map((locale) => [locale, Object.fromEntries(keys.map((key) => [key, 'a'.repeat(1999)]))]));
    expect((await settings(bakery, { string_overrides: part(['en', 'de']) })).statusCode).toBe(200);
    await refused(part(['fr', 'es']), 'string_overrides must be at most 64 KB in all');
    expect(Object.keys((await t.call('GET', `/api/v1/projects/${bakery.id}/settings`, { token: bakery.ownerToken })).json().string_overrides)).toEqual(['en', 'de']);
  });
});

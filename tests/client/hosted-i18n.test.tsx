import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { HostedI18n } from '../../client/hosted/i18n/HostedI18n';
import { useHostedT } from '../../client/i18n/useHostedT';
import type { HostedProject } from '../../shared/schemas/hosted';
import { renderApp, sampleUser, vi } from './utils';

/** The hosted pages in the visitor's language: the browser's, an app's ui_locales, the project's own words, right to left. */

const KEY = 'pk_demo';
const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function mockServer(answer: HostedProject = project, profile: Record<string, unknown> = { ...sampleUser, locale: null }) {
  const calls: { path: string; init: RequestInit | undefined }[] = [];
  let saved = profile;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(`/hosted/${KEY}/api/v1`, '');
    calls.push({ path, init });
    if (path === '/project') return json(200, answer);
    if (path === '/captcha/config') return json(200, { enabled: false, provider: 'none', site_key: '' });
    if (path === '/auth/oauth/providers') return json(200, { providers: [] });
    if (path === '/auth/login') return json(401, { detail: 'Incorrect email or password' });
    if (path === '/profile' && init?.method === 'PUT') return json(200, (saved = { ...saved, ...JSON.parse(String(init.body)) }));
    if (path === '/profile') return json(200, saved);
    if (path === '/auth/sessions') return json(200, { sessions: [] });
    if (path === '/auth/passkeys') return json(200, { passkeys: [] });
    if (path === '/auth/identities') return json(200, { identities: [], has_password: true, passkeys: 0, available: [] });
    return json(404, { detail: 'Not Found' });
  });
  return calls;
}

const browserLanguages = (...languages: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);

afterEach(() => {
  sessionStorage.clear();
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('hosted pages in the visitor’s language', () => {
  it('follow the browser’s language: German labels, lang="de", a known refusal in German, and the API asked in German', async () => {
    browserLanguages('de-AT', 'en');
    const calls = mockServer();
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);

    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeTruthy();
    expect(screen.getByText('um mit Acme Notes fortzufahren')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Registrieren' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');

    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Bitte gib eine gültige E-Mail-Adresse ein')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: /^E-Mail/ }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Passwort/, { selector: 'input' }), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('E-Mail-Adresse oder Passwort ist falsch')).toBeTruthy();
    const login = calls.find((call) => call.path === '/auth/login');
    expect(login?.init?.headers).toMatchObject({ 'accept-language': 'de' });
  });

  it('take an app’s ui_locales over the browser’s language, for the next pages of the flow too', async () => {
    browserLanguages('de-DE');
    mockServer();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_1&ui_locales=pt-BR%20ja`);
    expect(await screen.findByRole('heading', { name: 'ログイン' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: '新規登録' }));
    expect(await screen.findByRole('heading', { name: 'アカウントを作成' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ja');
  });

  it('show the project’s own words for the language over the catalogue', async () => {
    browserLanguages('de');
    mockServer({ ...project, string_overrides: { de: { 'signIn.title': 'Willkommen zurück' }, fr: { 'signIn.title': 'Bon retour' } } });
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('heading', { name: 'Willkommen zurück' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Anmelden' })).toBeTruthy();
  });

  it('stay English for a language nobody translated', async () => {
    browserLanguages('pt-BR');
    mockServer();
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('the saved language', () => {
  it('applies on the account page, and the language select saves another one and turns the page to it', async () => {
    browserLanguages('en-US');
    const calls = mockServer(project, { ...sampleUser, locale: 'fr' });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    expect(await screen.findByRole('heading', { name: 'Votre compte', level: 1 })).toBeTruthy();
    await user.click(screen.getByRole('textbox', { name: 'Langue' }));
    await user.click(await screen.findByRole('option', { name: 'Deutsch', hidden: true }));
    expect(await screen.findByRole('heading', { name: 'Dein Konto', level: 1 })).toBeTruthy();
    const put = calls.find((call) => call.path === '/profile' && call.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ locale: 'de' });
    expect(document.documentElement.lang).toBe('de');
  });
});

describe('a right-to-left catalogue', () => {
  function Probe() {
    const { t } = useHostedT();
    const { dir } = useDirection();
    return (
      <p data-testid="probe" data-dir={dir}>
        {t('signIn.title')} · {t('signIn.forgot')}
      </p>
    );
  }

  it('turns the page and Mantine right to left by being added, with English where it has no words yet', async () => {
    render(
      <DirectionProvider detectDirection={false}>
        <MantineProvider>
          <HostedI18n locale="he" extra={{ he: { hosted: { 'signIn.title': 'התחברות' } } }}>
            <Probe />
          </HostedI18n>
        </MantineProvider>
      </DirectionProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').dataset.dir).toBe('rtl'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('he');
    expect(screen.getByTestId('probe').textContent).toBe('התחברות · Forgot password?');
  });
});

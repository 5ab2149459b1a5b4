import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import { SSO_MESSAGES, type SsoDiscovery } from '../../shared/schemas/sso';
import { browser } from '../../client/lib/navigation';
import { renderApp, vi } from './utils';

/** Enterprise SSO on a project's hosted sign-in and sign-up pages (home-realm discovery), against a mocked hosted API. */

const KEY = 'pk_demo';
const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: false } };
const API = `/hosted/${KEY}/api/v1`;
const ROUTED: SsoDiscovery = { sso: true, connection_id: 'sso_1', name: 'Corp Okta', enforced: false };
const NONE: SsoDiscovery = { sso: false, connection_id: null, name: null, enforced: false };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The hosted API: discovery answers by the address's domain (`domains`); the rest as `routes` say. */
function mockServer(domains: Record<string, SsoDiscovery>, routes: Record<string, () => Response | unknown> = {}) {
  const calls: { key: string; url: URL }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(API, '')}`;
    calls.push({ key, url });
    if (key === 'GET /project') return json(200, project);
    if (key === 'GET /captcha/config') return json(200, { enabled: false, provider: 'none', site_key: '' });
    if (key === 'GET /auth/oauth/providers') return json(200, { providers: [] });
    if (key === 'GET /auth/sso/discover') return json(200, domains[url.searchParams.get('email')!.split('@')[1]!] ?? NONE);
    const handler = routes[key];
    if (!handler) return json(404, { detail: `Not Found: ${key}` });
    const answer = handler();
    return answer instanceof Response ? answer : json(200, answer);
  });
  return { callsTo: (key: string) => calls.filter((call) => call.key === key) };
}

const watchNavigation = () => vi.spyOn(browser, 'assign').mockImplementation(() => {});

function startedAt(assign: ReturnType<typeof watchNavigation>) {
  const url = new URL(String(assign.mock.calls[0]?.[0]), 'http://localhost');
  return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
}

describe('hosted sign-in: home-realm discovery', () => {
  it("offers the organization's IdP once a routed address is typed, and goes there with the app's pending sign-in", async () => {
    const { callsTo } = mockServer({ 'corp.example': ROUTED });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_1`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'Jane@Corp.example');
    expect(screen.queryByRole('button', { name: 'Continue with SSO' })).toBeNull();
    await user.tab();

    expect(await screen.findByText('Your company signs in with single sign-on (Corp Okta).')).toBeTruthy();
    expect(callsTo('GET /auth/sso/discover').map((call) => call.url.searchParams.get('email'))).toEqual(['jane@corp.example']);
    // Not enforced: the password stays possible.
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue with SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const { path, params } = startedAt(assign);
    expect(path).toBe(`${API}/auth/sso/start`);
    expect(params.email).toBe('jane@corp.example');
    expect(params.return_to).toBe(`/hosted/${KEY}/authorize/continue?interaction=int_1`);
    expect(params.device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an enforced connection leaves no password field: Enter goes to the IdP, no password is sent', async () => {
    const { callsTo } = mockServer({ 'corp.example': { ...ROUTED, enforced: true } });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?login_hint=jane%40corp.example`);
    const email = await screen.findByRole('textbox', { name: /^Email/ });
    expect((email as HTMLInputElement).value).toBe('jane@corp.example');
    await user.click(email);
    await user.tab();
    await screen.findByRole('button', { name: 'Continue with SSO' });
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();

    await user.type(email, '{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(startedAt(assign)).toMatchObject({ path: `${API}/auth/sso/start`, params: { email: 'jane@corp.example', return_to: `/hosted/${KEY}/account` } });
    expect(callsTo('POST /auth/login')).toHaveLength(0);
  });

  it('an address of no routed domain signs in with its password as before', async () => {
    const { callsTo } = mockServer({ 'corp.example': ROUTED }, { 'POST /auth/login': () => json(401, { detail: 'Incorrect email or password' }) });
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Incorrect email or password');
    expect(callsTo('GET /auth/sso/discover')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Continue with SSO' })).toBeNull();
  });
});

describe('hosted sign-up: a password refused for SSO', () => {
  it('shows the refusal in the page language and offers the IdP instead', async () => {
    mockServer({ 'corp.example': { ...ROUTED, enforced: true } }, { 'POST /auth/signup': () => json(403, { detail: SSO_MESSAGES.enforced }) });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-up?ui_locales=de`);
    await user.type(await screen.findByRole('textbox', { name: /^E-Mail/ }), 'bob@corp.example');
    await user.type(screen.getByLabelText(/^Passwort(?! bestätigen)/, { selector: 'input' }), 'Secret123');
    await user.type(screen.getByLabelText(/^Passwort bestätigen/, { selector: 'input' }), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Konto erstellen' }));

    expect((await screen.findByRole('alert')).textContent).toContain('Deine Organisation verlangt Single Sign-on (SSO)');
    await user.click(await screen.findByRole('button', { name: 'Weiter mit SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(startedAt(assign)).toMatchObject({ path: `${API}/auth/sso/start`, params: { email: 'bob@corp.example', return_to: `/hosted/${KEY}/account` } });
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import { SOCIAL_ERRORS, SOCIAL_MESSAGES, type Identity } from '../../shared/schemas/social';
import { browser } from '../../client/lib/navigation';
import { currentPath, renderApp, sampleUser, stubHostedCaptcha, vi } from './utils';

/** Sign-in with a provider on a project's hosted pages, against a mocked hosted API (as in hosted-pages.test.tsx). */

const KEY = 'pk_demo';
const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };
const API = `/hosted/${KEY}/api/v1`;

type Routes = Record<string, (body: Record<string, unknown> | undefined) => unknown>;

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function mockServer(routes: Routes = {}) {
  const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
  const all: Routes = {
    'GET /project': () => project,
    'GET /captcha/config': () => ({ enabled: false, provider: 'none', site_key: '' }),
    'GET /auth/oauth/providers': () => ({ providers: [{ id: 'github', name: 'GitHub' }, { id: 'microsoft', name: 'Microsoft' }] }),
    ...routes,
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(API, '')}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    calls.push({ key, body });
    const handler = all[key];
    if (!handler) return json(404, { detail: `Not Found: ${key}` });
    const answer = await handler(body);
    return answer instanceof Response ? answer : json(200, answer);
  });
  return { callsTo: (key: string) => calls.filter((call) => call.key === key) };
}

const watchNavigation = () => vi.spyOn(browser, 'assign').mockImplementation(() => {});

function startedAt(assign: ReturnType<typeof watchNavigation>, call = 0) {
  const url = new URL(String(assign.mock.calls[call]?.[0]), 'http://localhost');
  return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
}

const signedIn = { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, user: sampleUser };

describe('hosted sign-in with a provider', () => {
  it('offers the project\u2019s providers; with an interaction, comes back to the app\u2019s pending sign-in', async () => {
    mockServer();
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_1`);
    await user.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const { path, params } = startedAt(assign);
    expect(path).toBe(`${API}/auth/oauth/github/authorize`);
    expect(params.return_to).toBe(`/hosted/${KEY}/authorize/continue?interaction=int_1`);
    expect(params.device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(screen.getByRole('button', { name: 'Continue with Microsoft' })).toBeTruthy();
  });

  it('holds the buttons until the hCaptcha widget is solved', async () => {
    const captcha = stubHostedCaptcha('hcaptcha');
    mockServer({ 'GET /captcha/config': () => ({ enabled: true, provider: 'hcaptcha', site_key: 'site-key' }) });
    renderApp(`/hosted/${KEY}/sign-in`);
    await waitFor(() => expect(captcha.siteKey()).toBe('site-key'));
    const github = () => screen.getByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement;
    await waitFor(() => expect(github().disabled).toBe(true));
    captcha.solve('hcaptcha-token');
    await waitFor(() => expect(github().disabled).toBe(false));
  });

  it('on a project without passwords, starts with the token of the captcha on the e-mail form', async () => {
    const captcha = stubHostedCaptcha('turnstile');
    mockServer({
      'GET /project': () => ({ ...project, sign_in_methods: { password: false, magic_link: false, email_code: true, passkey: false } }),
      'GET /captcha/config': () => ({ enabled: true, provider: 'turnstile', site_key: 'site-key' }),
    });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('button', { name: 'Email me a code' })).toBeTruthy();
    await waitFor(() => expect(captcha.siteKey()).toBe('site-key'));
    const github = () => screen.getByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement;
    await waitFor(() => expect(github().disabled).toBe(true));
    expect(screen.getByText('Complete the captcha above to continue with a provider.')).toBeTruthy();

    captcha.solve('turnstile-token-1');
    await waitFor(() => expect(github().disabled).toBe(false));
    await user.click(github());
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(startedAt(assign).params.captcha_token).toBe('turnstile-token-1');
  });

  it('holds the buttons, without the "complete the captcha" hint, until the captcha configuration is known', async () => {
    let answer = () => {};
    const config = new Promise((resolve) => (answer = () => resolve({ enabled: false, provider: 'none', site_key: '' })));
    const server = mockServer({ 'GET /captcha/config': () => config });
    renderApp(`/hosted/${KEY}/sign-in`);
    const github = (await screen.findByRole('button', { name: 'Continue with GitHub' })) as HTMLButtonElement;
    await waitFor(() => expect(server.callsTo('GET /captcha/config')).toHaveLength(1));
    expect(github.disabled).toBe(true);
    expect(screen.queryByText(/complete the captcha/i)).toBeNull();
    answer();
    await waitFor(() => expect(github.disabled).toBe(false));
  });

  it('without an interaction comes back to the account page; none configured → no buttons', async () => {
    mockServer();
    const assign = watchNavigation();
    const { user, unmount } = renderApp(`/hosted/${KEY}/sign-up`);
    await user.click(await screen.findByRole('button', { name: 'Continue with Microsoft' }));
    await waitFor(() => expect(startedAt(assign).params.return_to).toBe(`/hosted/${KEY}/account`));
    unmount();
    vi.restoreAllMocks();

    mockServer({ 'GET /auth/oauth/providers': () => ({ providers: [] }) });
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Continue with/ })).toBeNull();
  });

  it("shows a known ?social_error= code's message and ignores an unknown one", async () => {
    mockServer();
    const { unmount } = renderApp(`/hosted/${KEY}/sign-in?social_error=no_email`);
    expect((await screen.findByRole('alert')).textContent).toContain(SOCIAL_ERRORS.no_email);
    unmount();

    renderApp(`/hosted/${KEY}/sign-in?social_error=made_up`);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('#mfa_token= opens the second factor, then follows return_to within the project', async () => {
    const { callsTo } = mockServer({ 'POST /auth/mfa/verify': () => signedIn });
    const assign = watchNavigation();
    const returnTo = `/hosted/${KEY}/authorize/continue?interaction=int_9`;
    const { user } = renderApp(`/hosted/${KEY}/sign-in?return_to=${encodeURIComponent(returnTo)}#mfa_token=mfa_9`);
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    await user.type(screen.getByLabelText('Digit 1 of 6'), '123456');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(returnTo));
    expect(callsTo('POST /auth/mfa/verify')[0]?.body).toEqual({ mfa_token: 'mfa_9', code: '123456' });
  });
});

const identity: Identity = { id: 'id_7', provider: 'github', provider_name: 'GitHub', email: 'ada@example.com', created_at: '2025-03-04T10:00:00.000Z', last_used_at: '2025-05-06T10:00:00.000Z' };

describe('hosted account: sign-in methods', () => {
  const accountRoutes = (routes: Routes = {}): Routes => ({
    'GET /profile': () => sampleUser,
    'GET /auth/sessions': () => ({ sessions: [] }),
    'GET /auth/passkeys': () => ({ passkeys: [] }),
    'GET /auth/identities': () => ({ identities: [identity], has_password: true, passkeys: 0, available: [{ id: 'microsoft', name: 'Microsoft' }] }),
    'GET /auth/step-up': () => ({ step_up_required: false, step_up_methods: ['password'], expires_at: '2030-01-01T00:00:00.000Z' }),
    ...routes,
  });

  it('lists the connected providers, connects another, and removes one (the refusal of the last way is shown)', async () => {
    let refuse = true;
    const { callsTo } = mockServer(
      accountRoutes({
        'DELETE /auth/identities/id_7': () => (refuse ? json(409, { detail: SOCIAL_MESSAGES.lastSignInMethod }) : { message: SOCIAL_MESSAGES.identityRemoved }),
      }),
    );
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const card = within(await screen.findByRole('region', { name: 'Sign-in methods' }));
    expect(await card.findByText('Connected March 4, 2025 · Last used May 6, 2025')).toBeTruthy();
    expect(card.queryByText(/You sign in without a password/)).toBeNull();

    await user.click(card.getByRole('button', { name: 'Connect Microsoft' }));
    expect(assign).toHaveBeenCalledWith(`${API}/auth/oauth/microsoft/authorize?intent=link&return_to=%2Fhosted%2F${KEY}%2Faccount`);

    await user.click(card.getByRole('button', { name: 'Remove GitHub' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove sign-in method' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(SOCIAL_MESSAGES.lastSignInMethod);
    refuse = false;
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SOCIAL_MESSAGES.identityRemoved)).toBeTruthy();
    expect(callsTo('DELETE /auth/identities/id_7')).toHaveLength(2);
  });

  it('shows ?social_linked= at the top of the account page', async () => {
    mockServer(accountRoutes());
    renderApp(`/hosted/${KEY}/account?social_linked=github`);
    expect(await screen.findByText('GitHub connected')).toBeTruthy();
    expect(currentPath()).toBe(`/hosted/${KEY}/account?social_linked=github`);
  });
});

describe('hosted link-account page', () => {
  it('spends the mailed token once and offers to sign in', async () => {
    const { callsTo } = mockServer({ 'POST /auth/oauth/link': () => ({ message: SOCIAL_MESSAGES.linked }) });
    renderApp(`/hosted/${KEY}/link-account?token=tok_5`);
    expect(await screen.findByText('Sign-in connected')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in`);
    expect(callsTo('POST /auth/oauth/link').map((call) => call.body)).toEqual([{ token: 'tok_5' }]);
  });

  it("shows the server's refusal", async () => {
    mockServer({ 'POST /auth/oauth/link': () => json(400, { detail: SOCIAL_MESSAGES.linkUsed }) });
    renderApp(`/hosted/${KEY}/link-account?token=used`);
    expect(await screen.findByText(SOCIAL_MESSAGES.linkUsed)).toBeTruthy();
  });
});

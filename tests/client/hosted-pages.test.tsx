import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import type { OwnSession } from '../../shared/schemas/sessions';
import { browser } from '../../client/hosted/navigation';
import { currentPath, currentState, renderApp, sampleUser, vi } from './utils';

/**
 * A project's hosted pages against a mocked browser API: `fetch` answers /hosted/pk_demo/api/v1/… (and the
 * platform's captcha config) from a table of "METHOD /path" handlers, and records every call.
 */

const KEY = 'pk_demo';
const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };

type Answer = unknown | Response;
type Routes = Record<string, (body: Record<string, unknown> | undefined) => Answer | Promise<Answer>>;

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const refuse = (status: number, detail: string) => () => json(status, { detail });

function mockServer(routes: Routes = {}) {
  const calls: { key: string; body: Record<string, unknown> | undefined; init: RequestInit | undefined }[] = [];
  const all: Routes = {
    'GET /project': () => project,
    'GET /captcha/config': () => ({ enabled: false, provider: 'none', site_key: '' }),
    ...routes,
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(`/hosted/${KEY}/api/v1`, '')}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    calls.push({ key, body, init });
    const handler = all[key];
    if (!handler) return json(404, { detail: `Not Found: ${key}` });
    const answer = await handler(body);
    return answer instanceof Response ? answer : json(200, answer);
  });
  const callsTo = (key: string) => calls.filter((call) => call.key === key);
  return { calls, callsTo };
}

function watchNavigation() {
  return vi.spyOn(browser, 'assign').mockImplementation(() => {});
}

async function fillSignIn(user: ReturnType<typeof renderApp>['user'], password = 'Secret123') {
  const email = await screen.findByRole('textbox', { name: /^Email/ });
  await user.clear(email);
  await user.type(email, 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const session = (overrides: Partial<OwnSession> & Pick<OwnSession, 'id' | 'device'>): OwnSession => ({
  ip_address: '203.0.113.9',
  country_code: 'DE',
  user_agent: null,
  created_at: '2025-06-01T09:00:00.000Z',
  last_used_at: '2025-06-01T10:00:00.000Z',
  current: false,
  ...overrides,
});

const signedIn = { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, user: sampleUser };

describe('hosted sign-in', () => {
  it('has the platform login labels and, with an interaction, hands the sign-in back to the provider', async () => {
    const { callsTo } = mockServer({ 'POST /auth/login': () => signedIn });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_1&login_hint=ada%40example.com`);

    const email = await screen.findByRole('textbox', { name: /^Email/ });
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-up?interaction=int_1`);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(`/hosted/${KEY}/forgot-password?interaction=int_1`);

    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/hosted/${KEY}/authorize/continue?interaction=int_1`));
    const [call] = callsTo('POST /auth/login');
    expect(call?.body).toMatchObject({ email: 'ada@example.com', password: 'Secret123', captcha_token: '' });
    expect(call?.body?.device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(call?.init).toMatchObject({ credentials: 'same-origin', headers: { 'content-type': 'application/json' } });
  });

  it('without an interaction, lands on the account page', async () => {
    mockServer({
      'POST /auth/login': () => signedIn,
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions: [] }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
    });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    await fillSignIn(user);
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/account`));
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the server's detail when the password is wrong, and stays", async () => {
    mockServer({ 'POST /auth/login': refuse(401, 'Incorrect email or password') });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_1`);
    await fillSignIn(user, 'wrong');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining('Incorrect email or password'));
    expect(assign).not.toHaveBeenCalled();
    expect(currentPath()).toBe(`/hosted/${KEY}/sign-in?interaction=int_1`);
  });

  it('asks for the second factor, takes a recovery code, then continues the app sign-in', async () => {
    const { callsTo } = mockServer({
      'POST /auth/login': () => ({ mfa_required: true, mfa_token: 'mfa_1', methods: ['totp', 'recovery_code'] }),
      'POST /auth/mfa/verify': (body) => (body?.code === 'abcde-12345' ? signedIn : json(400, { detail: 'Invalid code' })),
    });
    const assign = watchNavigation();
    const { user } = renderApp(`/hosted/${KEY}/sign-in?interaction=int_2`);
    await fillSignIn(user);

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(screen.getByText('Authentication code')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByRole('textbox', { name: /Recovery code/ }), 'wrong-code');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid code')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: /Recovery code/ }), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/hosted/${KEY}/authorize/continue?interaction=int_2`));
    expect(callsTo('POST /auth/mfa/verify').map((call) => call.body)).toEqual([
      { mfa_token: 'mfa_1', code: 'wrong-code' },
      { mfa_token: 'mfa_1', code: 'abcde-12345' },
    ]);
  });
});

describe('hosted sign-up, reset and verification', () => {
  it('signs up, says to check the mail, and keeps the app sign-in on the "Sign in" link', async () => {
    const { callsTo } = mockServer({ 'POST /auth/signup': () => json(201, { message: 'Account created' }) });
    const { user } = renderApp(`/hosted/${KEY}/sign-up?interaction=int_3`);
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('We sent a verification link to ada@example.com');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in?interaction=int_3`);
    expect(callsTo('POST /auth/signup')[0]?.body).toMatchObject({ email: 'ada@example.com', password: 'Secret123', first_name: 'Ada', last_name: null, captcha_token: '' });
  });

  it('checks the sign-up form before sending', async () => {
    const { callsTo } = mockServer();
    const { user } = renderApp(`/hosted/${KEY}/sign-up`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret124');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText("Passwords don't match")).toBeTruthy();
    expect(callsTo('POST /auth/signup')).toHaveLength(0);
  });

  it('resets the password with the mailed token, then shows the sign-in page with the news', async () => {
    const { callsTo } = mockServer({ 'POST /auth/reset-password': () => ({ message: 'ok', next: null }) });
    const { user } = renderApp(`/hosted/${KEY}/reset-password?token=reset_tok`);
    await user.type(await screen.findByLabelText(/^New password/), 'Better-Pass1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-Pass1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/sign-in`));
    expect(await screen.findByText('Password reset successfully! You can now sign in with your new password.')).toBeTruthy();
    expect(callsTo('POST /auth/reset-password')[0]?.body).toMatchObject({ token: 'reset_tok', new_password: 'Better-Pass1', keep_sign_in_methods: false });
  });

  it("shows the server's detail when the reset token is refused", async () => {
    mockServer({ 'POST /auth/reset-password': refuse(400, 'Invalid or expired reset token') });
    const { user } = renderApp(`/hosted/${KEY}/reset-password?token=old`);
    await user.type(await screen.findByLabelText(/^New password/), 'Better-Pass1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-Pass1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid or expired reset token');
  });

  it('verifies the e-mail once from the link', async () => {
    const { callsTo } = mockServer({ 'POST /auth/verify-email': () => ({ message: 'Email verified successfully!', next: null }) });
    renderApp(`/hosted/${KEY}/verify-email?token=ver_tok`);
    expect(await screen.findByText('Email verified!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue to sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in`);
    expect(callsTo('POST /auth/verify-email')).toHaveLength(1);
    expect(callsTo('POST /auth/verify-email')[0]?.body).toMatchObject({ token: 'ver_tok' });
  });

  it('offers a new verification link when the token is refused', async () => {
    const { callsTo } = mockServer({
      'POST /auth/verify-email': refuse(400, 'This verification link has expired'),
      'POST /auth/resend-verification': () => ({ message: 'ok' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/verify-email?token=old`);
    expect(await screen.findByText('This verification link has expired')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent! Please check your inbox.')).toBeTruthy();
    expect(callsTo('POST /auth/resend-verification')[0]?.body).toEqual({ email: 'ada@example.com', captcha_token: '' });
  });
});

describe('hosted account page', () => {
  const sessions = [session({ id: 's1', device: 'Chrome on macOS', current: true }), session({ id: 's2', device: 'Safari on iPhone' })];

  it('lists the sessions, signs one out and changes the password', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'DELETE /auth/sessions/s2': () => ({ message: 'Session revoked' }),
      'POST /auth/change-password': () => ({ message: 'Password changed successfully' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);

    const list = await screen.findByRole('list', { name: 'Your sessions' });
    expect(within(list).getByRole('listitem', { name: 'Chrome on macOS, this device' })).toBeTruthy();
    const phone = within(list).getByRole('listitem', { name: 'Safari on iPhone' });
    await user.click(within(phone).getByRole('button', { name: 'Sign out Safari on iPhone' }));
    await waitFor(() => expect(callsTo('DELETE /auth/sessions/s2')).toHaveLength(1));
    expect(callsTo('DELETE /auth/sessions/s2')[0]?.init?.body).toBeUndefined();

    const password = within(screen.getByRole('region', { name: 'Password' }));
    await user.type(password.getByLabelText(/^Current password/), 'Secret123');
    await user.type(screen.getByLabelText(/^New password/), 'Better-Pass1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-Pass1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(callsTo('POST /auth/change-password')[0]?.body).toEqual({ current_password: 'Secret123', new_password: 'Better-Pass1' });
  });

  it('sets a first password for an account without one, asking for no current password', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'GET /auth/identities': () => ({ identities: [{ id: 'i1', provider: 'github', name: 'GitHub', email: sampleUser.email, created_at: '2026-01-01T00:00:00.000Z' }], has_password: false, passkeys: 0, available: [] }),
      'POST /auth/change-password': () => ({ message: 'Password changed successfully' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const password = within(await screen.findByRole('region', { name: 'Password' }));
    expect(await password.findByText('You sign in with a provider or a passkey. A password gives you another way in.')).toBeTruthy();
    expect(password.queryByLabelText(/^Current password/)).toBeNull();
    await user.type(password.getByLabelText(/^New password/), 'First-Pass-42');
    await user.type(password.getByLabelText(/^Confirm new password/), 'First-Pass-42');
    await user.click(password.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(callsTo('POST /auth/change-password')[0]?.body).toEqual({ new_password: 'First-Pass-42' });
  });

  it('saves the names', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'PUT /profile': (body) => ({ ...sampleUser, ...body }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const first = await screen.findByRole('textbox', { name: 'First name' });
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect(callsTo('PUT /profile')[0]?.body).toEqual({ first_name: 'Augusta', last_name: 'Lovelace' });
  });

  it('refreshes the cookies once when the access token has expired, then retries', async () => {
    let refreshed = false;
    const { callsTo } = mockServer({
      'GET /profile': () => (refreshed ? sampleUser : json(401, { detail: 'Not authenticated' })),
      'POST /auth/refresh': () => {
        refreshed = true;
        return { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 };
      },
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
    });
    renderApp(`/hosted/${KEY}/account`);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeTruthy();
    expect(callsTo('POST /auth/refresh')).toHaveLength(1);
    expect(callsTo('POST /auth/refresh')[0]?.body).toEqual({});
  });

  it('asks for the password when a new authenticator is refused for want of a recent proof, without refreshing the session', async () => {
    let proved = false;
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'GET /auth/identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [] }),
      'POST /auth/mfa/totp/setup': () =>
        proved
          ? { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Shop:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shop' }
          : json(401, { detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['password'] }),
      'POST /auth/step-up': () => {
        proved = true;
        return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
      },
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    await user.click(await screen.findByRole('button', { name: 'Set up' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.type(dialog.getByLabelText('Password'), 'Secret123');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(callsTo('POST /auth/step-up')[0]?.body).toEqual({ password: 'Secret123' });
    expect(callsTo('POST /auth/mfa/totp/setup')).toHaveLength(2);
    expect(callsTo('POST /auth/refresh')).toHaveLength(0);
  });

  it('sends a visitor without a session to sign in', async () => {
    mockServer({ 'GET /profile': refuse(401, 'Not authenticated'), 'POST /auth/refresh': refuse(401, 'Invalid refresh token') });
    renderApp(`/hosted/${KEY}/account`);
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/sign-in`));
    expect(currentState()).toEqual({ message: 'Sign in to see your account.' });
  });

  it('signs out to the signed-out page', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'POST /auth/logout': () => ({ message: 'Logged out successfully' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'You are signed out' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in`);
    expect(callsTo('POST /auth/logout')).toHaveLength(1);
  });
});

describe('hosted sign-out confirmation', () => {
  it('asks, signs out, and hands the same query back to the logout endpoint', async () => {
    const { callsTo } = mockServer({ 'POST /auth/logout': () => ({ message: 'Logged out successfully' }) });
    const assign = watchNavigation();
    const query = '?client_id=pk_demo&post_logout_redirect_uri=https%3A%2F%2Fapp.example.com%2Fbye&state=s1';
    const { user } = renderApp(`/hosted/${KEY}/sign-out${query}`);
    expect(await screen.findByRole('heading', { name: 'Sign out of Acme Notes?' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Cancel/ }).getAttribute('href')).toBe(`/hosted/${KEY}/account`);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/hosted/${KEY}/logout${query}`));
    expect(callsTo('POST /auth/logout')).toHaveLength(1);
  });
});

describe('hosted branding', () => {
  it("shows the project's name and logo, names the tab, and makes the accent colour the primary colour", async () => {
    mockServer({ 'GET /project': () => ({ ...project, logo_url: 'https://cdn.example.com/acme.png', accent_color: '#0ca678' }) });
    renderApp(`/hosted/${KEY}/sign-in`);
    const logo = await screen.findByRole('img', { name: 'Acme Notes logo' });
    expect(logo.getAttribute('src')).toBe('https://cdn.example.com/acme.png');
    expect(screen.getByTestId('hosted-project-name').textContent).toBe('Acme Notes');
    expect(screen.getByText('to continue to Acme Notes')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sign in · Acme Notes'));
    const css = [...document.querySelectorAll('style[data-mantine-styles]')].map((style) => style.textContent).join('\n');
    expect(css).toContain('--mantine-color-brand-6: #0ca678');
    expect(css).toContain('--mantine-primary-color-filled: var(--mantine-color-brand-filled)');
  });

  it("shows the name's initial when the project has no logo", async () => {
    mockServer();
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByTestId('hosted-project-name')).toHaveProperty('textContent', 'Acme Notes');
    expect(screen.queryByRole('img', { name: /logo/ })).toBeNull();
  });

  it('says so when the project is unknown', async () => {
    mockServer({ 'GET /project': refuse(404, 'Project not found') });
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('heading', { name: 'Unknown application' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('There is no application at this address');
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('says so when the project is switched off', async () => {
    mockServer({ 'GET /project': refuse(403, 'Project is inactive') });
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByRole('heading', { name: 'Application unavailable' })).toBeTruthy();
  });
});

describe("a project's captcha on its hosted pages", () => {
  const captchaScripts = () => document.head.querySelectorAll('script[src*="turnstile"], script[src*="challenges.cloudflare.com"], script[src*="hcaptcha"], script[src*="recaptcha"]');

  it('shows none when the project chose none, whatever the platform has, and sends an empty token', async () => {
    const { callsTo } = mockServer({
      'POST /auth/login': () => signedIn,
      // The platform's own captcha is not the hosted pages' business.
      'GET /api/v1/captcha/config': () => ({ enabled: true, provider: 'turnstile', site_key: 'platform-site' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    await fillSignIn(user);
    await waitFor(() => expect(callsTo('POST /auth/login')).toHaveLength(1));
    expect(callsTo('GET /captcha/config')).toHaveLength(1);
    expect(callsTo('GET /api/v1/captcha/config')).toEqual([]);
    expect(callsTo('POST /auth/login')[0]?.body).toMatchObject({ captcha_token: '' });
    expect(captchaScripts()).toHaveLength(0);
    expect(document.querySelector('altcha-widget, iframe')).toBeNull();
  });

  it('shows the one the hosted config names (so the check above would see a widget)', async () => {
    mockServer({ 'GET /captcha/config': () => ({ enabled: true, provider: 'hcaptcha', site_key: 'project-site' }) });
    renderApp(`/hosted/${KEY}/sign-in`);
    await waitFor(() => expect(captchaScripts().length).toBeGreaterThan(0));
  });
});

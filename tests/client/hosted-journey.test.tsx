import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { HostedProject, LinkAnswer } from '../../shared/schemas/hosted';
import { browser } from '../../client/hosted/navigation';
import { currentPath, currentState, renderApp, sampleUser, vi } from './utils';

/**
 * Issue 25 on the hosted pages, against a mocked browser API: the pages carry the app's sign-in into
 * the mails they ask for, a mailed link's page goes on with what the server answers it may do, the
 * "check your e-mail" states resend to the address they name, and the account page leads back to the app.
 */

const KEY = 'pk_shop';
const project: HostedProject = { name: 'Shop', project_key: KEY, logo_url: null, accent_color: null, website_url: 'https://shop.example', app_url: 'https://shop.example', string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };

type Handler = (body: Record<string, unknown> | undefined) => unknown;

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function mockServer(routes: Record<string, Handler>) {
  const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
  const all: Record<string, Handler> = {
    'GET /project': () => project,
    'GET /captcha/config': () => ({ enabled: false, provider: 'none', site_key: '' }),
    'GET /auth/oauth/providers': () => ({ providers: [] }),
    ...routes,
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(`/hosted/${KEY}/api/v1`, '')}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    calls.push({ key, body });
    const handler = all[key];
    if (!handler) return json(404, { detail: `Not Found: ${key}` });
    const answer = await handler(body);
    return answer instanceof Response ? answer : json(200, answer);
  });
  return { callsTo: (key: string) => calls.filter((call) => call.key === key) };
}

/** The hosted pages are lazy-loaded: on a busy machine the first screen takes longer than findBy's second. */

const verified = (next: LinkAnswer['next']) => () => ({ message: 'Email verified successfully!', next });

describe('the verification link of an app sign-in', () => {
  it('signed in by the link: "Continue to Shop" goes back to the provider with the waiting request', async () => {
    mockServer({ 'POST /auth/verify-email': verified({ kind: 'signed_in', interaction: 'int_9', return_to: null }) });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp(`/hosted/${KEY}/verify-email?token=tok`);
    await user.click(await screen.findByRole('button', { name: 'Continue to Shop' }));
    expect(assign).toHaveBeenCalledWith(`/hosted/${KEY}/authorize/continue?interaction=int_9`);
  });

  it('goes back only to a page of the project’s hosted pages, whatever return_to it is answered', async () => {
    mockServer({
      'POST /auth/verify-email': verified({ kind: 'signed_in', interaction: null, return_to: 'https://evil.example/' }),
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions: [] }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'GET /auth/identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [] }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp(`/hosted/${KEY}/verify-email?token=tok`);
    await user.click(await screen.findByRole('button', { name: 'Continue to Shop' }));
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/account`));
    expect(assign).not.toHaveBeenCalled();
  });

  it('opened in another browser: signs in there, keeping the request and the address', async () => {
    mockServer({ 'POST /auth/verify-email': verified({ kind: 'sign_in', email: 'ada@example.com', interaction: 'int_9', return_to: null }) });
    renderApp(`/hosted/${KEY}/verify-email?token=tok`);
    const link = await screen.findByRole('link', { name: 'Sign in to continue to Shop' });
    expect(link.getAttribute('href')).toBe(`/hosted/${KEY}/sign-in?interaction=int_9&login_hint=ada%40example.com`);
    expect(screen.getByText(/opened in another browser/)).toBeTruthy();
  });

  it('after the app sign-in is over: says so, with "Back to Shop" and a fresh sign-in', async () => {
    mockServer({ 'POST /auth/verify-email': verified({ kind: 'expired' }) });
    renderApp(`/hosted/${KEY}/verify-email?token=tok`);
    expect(await screen.findByText(/The sign-in to Shop you started has expired/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('https://shop.example');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in`);
  });
});

describe('the reset link of an app sign-in', () => {
  it('asks the second factor of an account with two factors, then goes back to the app', async () => {
    const challenge = { mfa_required: true, mfa_token: 'mfa_1', methods: ['totp', 'recovery_code'] };
    const { callsTo } = mockServer({
      'POST /auth/reset-password': () => ({ message: 'ok', next: { kind: 'second_factor', challenge, interaction: 'int_4', return_to: null } }),
      'POST /auth/mfa/verify': () => ({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, user: sampleUser }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp(`/hosted/${KEY}/reset-password?token=tok`);
    await user.type(await screen.findByLabelText(/^New password/), 'Better-Pass1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Better-Pass1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByRole('textbox', { name: /Recovery code/ }), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/hosted/${KEY}/authorize/continue?interaction=int_4`));
    expect(callsTo('POST /auth/mfa/verify')[0]?.body).toEqual({ mfa_token: 'mfa_1', code: 'abcde-12345' });
  });
});

describe('the link that connects a provider to an existing account', () => {
  it('signs in and goes on where the sign-in with the provider was going (the app’s waiting request)', async () => {
    const continueAt = `/hosted/${KEY}/authorize/continue?interaction=int_7`;
    mockServer({ 'POST /auth/oauth/link': () => ({ message: 'Connected', return_to: continueAt }) });
    renderApp(`/hosted/${KEY}/link-account?token=tok`);
    const link = await screen.findByRole('link', { name: 'Sign in to continue to Shop' });
    expect(link.getAttribute('href')).toBe(`/hosted/${KEY}/sign-in?return_to=${encodeURIComponent(continueAt)}`);
  });
});

describe('"check your e-mail"', () => {
  it('after sign-up names the address, and resends to it carrying the app sign-in', async () => {
    const { callsTo } = mockServer({
      'POST /auth/signup': () => json(201, { message: 'Account created' }),
      'POST /auth/resend-verification': () => ({ message: 'sent' }),
    });
    const { user } = renderApp(`/hosted/${KEY}/sign-up?interaction=int_3`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(/in this browser or another, to verify your address and continue to Shop/)).toBeTruthy();
    expect(callsTo('POST /auth/signup')[0]?.body).toMatchObject({ email: 'ada@example.com', interaction: 'int_3', return_to: null });

    await user.click(screen.getByRole('button', { name: 'Resend' }));
    expect((await screen.findByText(/We sent it again to/)).textContent).toContain('ada@example.com');
    expect(callsTo('POST /auth/resend-verification')[0]?.body).toEqual({ email: 'ada@example.com', captcha_token: '', interaction: 'int_3', return_to: null });
  });

  it('resending past the limit says how long to wait', async () => {
    mockServer({
      'POST /auth/forgot-password': (() => {
        let calls = 0;
        return () => (++calls === 1 ? { message: 'ok' } : new Response(JSON.stringify({ detail: 'Too many requests' }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '120' } }));
      })(),
    });
    const { user } = renderApp(`/hosted/${KEY}/forgot-password?interaction=int_5`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests Try again in 2 min.');
  });
});

describe('the hosted account page', () => {
  const signedInServer = (routes: Record<string, Handler> = {}) =>
    mockServer({
      'GET /profile': () => sampleUser,
      'GET /auth/sessions': () => ({ sessions: [] }),
      'GET /auth/passkeys': () => ({ passkeys: [] }),
      'GET /auth/identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [] }),
      ...routes,
    });

  it('leads back to the app, and asks to change the address with the password', async () => {
    const { callsTo } = signedInServer({ 'POST /auth/change-email': () => ({ message: 'ok' }) });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    expect((await screen.findByRole('link', { name: 'Back to Shop' })).getAttribute('href')).toBe('https://shop.example');
    const card = within(screen.getByRole('region', { name: 'Email address' }));
    await user.type(card.getByRole('textbox', { name: /^New email/ }), 'ada@new.example');
    await user.type(card.getByLabelText(/^Current password/), 'Secret123');
    await user.click(card.getByRole('button', { name: 'Send confirmation link' }));
    expect((await card.findByRole('status')).textContent).toContain('ada@new.example');
    expect(callsTo('POST /auth/change-email')[0]?.body).toEqual({ new_email: 'ada@new.example', password: 'Secret123' });
  });

  it('deletes the account with DELETE and the password, then says so', async () => {
    const { callsTo } = signedInServer({ 'POST /auth/delete-account': () => ({ message: 'Account deleted successfully' }) });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const card = within(await screen.findByRole('region', { name: 'Delete account' }));
    await user.click(card.getByRole('button', { name: 'Delete account' }));
    await user.type(card.getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    await user.type(card.getByLabelText(/^Current password/), 'Secret123');
    await user.click(card.getByRole('button', { name: 'Permanently delete account' }));
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/signed-out`));
    expect(currentState()).toEqual({ message: 'Your account was deleted.' });
    expect(await screen.findByText('Your account was deleted.')).toBeTruthy();
    expect(callsTo('POST /auth/delete-account')[0]?.body).toEqual({ password: 'Secret123' });
  });

  it('deletes an account without a password with a code mailed in the step-up dialog', async () => {
    let proved = false;
    const { callsTo } = signedInServer({
      'GET /auth/identities': () => ({ identities: [], has_password: false, passkeys: 0, available: [] }),
      'POST /auth/delete-account': () =>
        proved ? { message: 'Account deleted successfully' } : json(401, { detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['email'] }),
      'POST /auth/step-up/email-code': () => ({ message: 'sent', sent_to: 'ada@example.com', expires_at: '2030-01-01T00:00:00.000Z' }),
      'POST /auth/step-up': (body) => {
        if (body?.email_code !== '123456') return json(400, { detail: 'Incorrect code' });
        proved = true;
        return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
      },
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const card = within(await screen.findByRole('region', { name: 'Delete account' }));
    await user.click(card.getByRole('button', { name: 'Delete account' }));
    await user.type(card.getByRole('textbox', { name: 'Type DELETE to confirm' }), 'DELETE');
    expect(card.queryByLabelText(/^Current password/)).toBeNull();
    await user.click(card.getByRole('button', { name: 'Permanently delete account' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'E-mail me a code' }));
    expect((await dialog.findByRole('status')).textContent).toBe('We sent a confirmation code to ada@example.com. It is valid for 15 minutes.');
    await user.type(dialog.getByLabelText('Code from the e-mail'), '123456');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/signed-out`));
    expect(callsTo('POST /auth/step-up')[0]?.body).toEqual({ email_code: '123456' });
    expect(callsTo('POST /auth/delete-account').map((call) => call.body)).toEqual([{}, {}]);
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import { browser } from '../../client/hosted/navigation';
import { renderApp, stubHostedCaptcha, vi } from './utils';

/** Issue 30 on the hosted pages: the sign-in page offers exactly the project's methods; a code signs in; a magic link asks to confirm elsewhere. */

const KEY = 'pk_demo';
const base: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function mockServer(project: HostedProject, routes: Record<string, (body: Record<string, unknown> | undefined) => unknown> = {}) {
  const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
  const all: typeof routes = {
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
    return handler ? json(200, handler(body)) : json(404, { detail: `Not Found: ${key}` });
  });
  return calls;
}

describe('the hosted sign-in page', () => {
  it('without passwords offers only the e-mail code and link, and signs in with the code', async () => {
    const calls = mockServer(
      { ...base, sign_in_methods: { password: false, magic_link: true, email_code: true, passkey: false } },
      {
        'POST /auth/email-code': () => ({ message: 'sent' }),
        'POST /auth/email-code/verify': () => ({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: { id: 'u1', email: 'ada@example.com' } }),
      },
    );
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByText('Sign up')).toBeNull();
    expect(screen.getByRole('button', { name: 'Email me a sign-in link' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Email me a code' }));
    expect(await screen.findByText('We sent a 6-digit code to ada@example.com. It works for 10 minutes.')).toBeTruthy();
    await user.keyboard('123456');
    await waitFor(() => expect(calls.some((call) => call.key === 'POST /auth/email-code/verify' && call.body?.code === '123456')).toBe(true));
  });

  it("shows the project's captcha on the e-mail code form and sends its token with the code request (and with a new code)", async () => {
    const captcha = stubHostedCaptcha('turnstile');
    const calls = mockServer(
      { ...base, sign_in_methods: { password: false, magic_link: false, email_code: true, passkey: false } },
      {
        'GET /captcha/config': () => ({ enabled: true, provider: 'turnstile', site_key: 'project-site' }),
        'POST /auth/email-code': () => ({ message: 'sent' }),
      },
    );
    const { user } = renderApp(`/hosted/${KEY}/sign-in`);
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await waitFor(() => expect(captcha.siteKey()).toBe('project-site'));
    captcha.solve('turnstile-token-1');
    await user.click(screen.getByRole('button', { name: 'Email me a code' }));
    expect(await screen.findByText('We sent a 6-digit code to ada@example.com. It works for 10 minutes.')).toBeTruthy();
    const sent = () => calls.filter((call) => call.key === 'POST /auth/email-code').map((call) => call.body);
    expect(sent()).toEqual([{ email: 'ada@example.com', captcha_token: 'turnstile-token-1' }]);

    // The code step keeps a captcha for "send a new code".
    await waitFor(() => expect(captcha.siteKey()).toBe('project-site'));
    captcha.solve('turnstile-token-2');
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]).toEqual({ email: 'ada@example.com', captcha_token: 'turnstile-token-2' });
  });

  it('keeps the password form for a project that never chose, without the e-mail options', async () => {
    mockServer(base);
    renderApp(`/hosted/${KEY}/sign-in`);
    expect(await screen.findByLabelText(/^Password/)).toBeTruthy();
    expect(screen.queryByText('Sign in with a code or link by email')).toBeNull();
  });
});

describe('the magic-link page', () => {
  it('asks to confirm in another browser, then goes back to the app', async () => {
    const calls = mockServer(
      { ...base, sign_in_methods: { ...base.sign_in_methods, magic_link: true } },
      {
        'POST /auth/magic-link/open': (body) =>
          body?.confirm ? { next: { kind: 'redirect', url: 'https://app.example/cb?code=c1' } } : { next: { kind: 'confirm', email: 'ada@example.com' } },
      },
    );
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp(`/hosted/${KEY}/magic-link?token=t1`);
    await user.click(await screen.findByRole('button', { name: 'Continue as ada@example.com' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://app.example/cb?code=c1'));
    expect(calls.filter((call) => call.key === 'POST /auth/magic-link/open').map((call) => call.body?.confirm)).toEqual([false, true]);
  });
});

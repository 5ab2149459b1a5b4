import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { callsTo, currentPath, renderApp, sampleUser, stubHostedCaptcha, trpcError } from './utils';

/** Issue 30 for developers: "Email me a sign-in code" on the dashboard's sign-in page, when the platform offers it. */

const offered = (email_code: boolean) => () => ({ password: true, magic_link: false, email_code, passkey: true, connections: {} });
const challenge = { mfa_required: true, mfa_token: 'mfa-token-1', methods: ['totp', 'recovery_code'] };

describe('LoginPage: sign-in with a mailed code', () => {
  it('is not offered when the platform turned it off, and the password form is as it was', async () => {
    const { calls } = renderApp('/login', { handlers: { 'auth.signInMethods': offered(false) } });
    await waitFor(() => expect(callsTo(calls, 'auth.signInMethods')).toHaveLength(1));
    expect(await screen.findByLabelText(/^Password/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Email me a sign-in code' })).toBeNull();
  });

  it('mails a code to the address typed (with the captcha token), then signs in with the 6 digits and lands on /dashboard', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: {
        'auth.signInMethods': offered(true),
        'auth.sendEmailCode': () => ({ message: 'If the address can sign in here, a code is on its way. It works for 10 minutes.' }),
        'auth.verifyEmailCode': (input) => {
          if ((input as { code: string }).code !== '123456') throw trpcError('UNAUTHORIZED', 'Incorrect or expired code', 401);
          return { user: sampleUser, expires_in: 86400 };
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.click(await screen.findByRole('button', { name: 'Email me a sign-in code' }));
    // The address carries over; the password field is gone.
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/a code is on its way/)).toBeTruthy();
    expect(callsTo(calls, 'auth.sendEmailCode').map((call) => call.input)).toEqual([{ email: 'ada@example.com', captcha_token: '' }]);

    await user.type(screen.getByLabelText('Code digit 1 of 6'), '111111');
    expect(await screen.findByText('Incorrect or expired code')).toBeTruthy();
    await user.type(screen.getByLabelText('Code digit 1 of 6'), '123456');
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    const verified = callsTo(calls, 'auth.verifyEmailCode').map((call) => call.input as { email: string; code: string; device_fingerprint: string });
    expect(verified.map(({ email, code }) => ({ email, code }))).toEqual([
      { email: 'ada@example.com', code: '111111' },
      { email: 'ada@example.com', code: '123456' },
    ]);
    expect(verified[1]!.device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(callsTo(calls, 'auth.logIn')).toHaveLength(0);
  });

  it('checks the address before sending, and goes back to the password form', async () => {
    const { user, calls } = renderApp('/login', { handlers: { 'auth.signInMethods': offered(true) } });
    await user.click(await screen.findByRole('button', { name: 'Email me a sign-in code' }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(callsTo(calls, 'auth.sendEmailCode')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sign in with a password instead' }));
    expect(await screen.findByLabelText(/^Password/)).toBeTruthy();
  });

  it('asks for the second factor after the code when the account has two, as after a password', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: {
        'auth.signInMethods': offered(true),
        'auth.sendEmailCode': () => ({ message: 'sent' }),
        'auth.verifyEmailCode': () => challenge,
        'auth.verifyMfa': () => ({ user: sampleUser, expires_in: 86400 }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Email me a sign-in code' }));
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Code digit 1 of 6'), '123456');
    expect(await screen.findByText('Authentication code')).toBeTruthy();
    await user.type(screen.getByLabelText('Digit 1 of 6'), '654321');
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(callsTo(calls, 'auth.verifyMfa').map((call) => call.input)).toEqual([{ mfa_token: 'mfa-token-1', code: '654321' }]);
  });

  it("sends the captcha's token when the platform has one", async () => {
    const captcha = stubHostedCaptcha('turnstile');
    const { user, calls } = renderApp('/login', {
      handlers: {
        'auth.signInMethods': offered(true),
        'captcha.config': () => ({ enabled: true, provider: 'turnstile', site_key: 'site-key' }),
        'auth.sendEmailCode': () => ({ message: 'sent' }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Email me a sign-in code' }));
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await waitFor(() => expect(captcha.siteKey()).toBe('site-key'));
    captcha.solve('turnstile-token-1');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(callsTo(calls, 'auth.sendEmailCode')).toHaveLength(1));
    expect(callsTo(calls, 'auth.sendEmailCode')[0]?.input).toEqual({ email: 'ada@example.com', captcha_token: 'turnstile-token-1' });
  });
});

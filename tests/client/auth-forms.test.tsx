import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, currentState, renderApp, sampleUser, trpcError, vi } from './utils';

const MSG = {
  email: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  short: 'Password must be at least 8 characters',
  complexity: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  mismatch: "Passwords don't match",
  url: 'Please enter a valid URL',
};

describe('LoginPage', () => {
  it('shows the e-mail and password messages and sends nothing', async () => {
    const { user, calls } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(MSG.email)).toBeTruthy();
    expect(screen.getByText(MSG.passwordRequired)).toBeTruthy();
    expect(callsTo(calls, 'auth.logIn')).toHaveLength(0);
  });

  it('signs in with a fingerprint and an empty captcha token, then lands on /dashboard', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: { 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    const [call] = callsTo(calls, 'auth.logIn');
    expect(call?.input).toMatchObject({ email: 'ada@example.com', password: 'Secret123', captcha_token: '' });
    expect((call?.input as { device_fingerprint: string }).device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await screen.findByText('Login successful!')).toBeTruthy();
  });

  it("goes back to 'from' after signing in", async () => {
    const { user } = renderApp(
      { pathname: '/login', state: { from: { pathname: '/settings', search: '?tab=1', hash: '' } } },
      { handlers: { 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) } },
    );
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentPath()).toBe('/settings?tab=1'));
  });

  it("shows the server's detail when login fails", async () => {
    const { user } = renderApp('/login', {
      handlers: {
        'auth.logIn': () => {
          throw trpcError('UNAUTHORIZED', 'Incorrect email or password', 401);
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect email or password')).toBeTruthy();
    expect(currentPath()).toBe('/login');
  });

  it('takes the wrong password\'s toast away when the next try signs in, and shows one toast per failure', async () => {
    let tries = 0;
    const { user } = renderApp('/login', {
      handlers: {
        'auth.logIn': () => {
          tries += 1;
          if (tries < 3) throw trpcError('UNAUTHORIZED', 'Incorrect email or password', 401);
          return { user: sampleUser, expires_in: 86400 };
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect email or password')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(tries).toBe(2));
    await waitFor(() => expect(screen.getAllByText('Incorrect email or password')).toHaveLength(1));
    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login successful!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Incorrect email or password')).toBeNull());
  });

  it('falls back to "Login failed" when the error has no detail', async () => {
    const { user } = renderApp('/login', {
      handlers: {
        'auth.logIn': () => {
          throw new Error('network down');
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });

  it('shows the banner message from the navigation state and toggles password visibility', async () => {
    const { user } = renderApp({ pathname: '/login', state: { message: 'Email verified! Please log in to continue.' } });
    expect(await screen.findByText('Email verified! Please log in to continue.')).toBeTruthy();
    const password = screen.getByLabelText(/^Password/) as HTMLInputElement;
    expect(password.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
  });

  it('offers no provider buttons (and no divider) when the server has none configured', async () => {
    renderApp('/login', { handlers: { 'social.providers': () => ({ providers: [] }) } });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Continue with/ })).toBeNull();
    expect(screen.queryByText('Or continue with')).toBeNull();
  });
});

describe('SignupPage', () => {
  it('shows every validation message of the form', async () => {
    const { user, calls } = renderApp('/signup');
    await user.type(await screen.findByLabelText(/^Website/), 'not a url');
    await user.type(screen.getByLabelText(/^Email/), 'nope');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(MSG.url)).toBeTruthy();
    expect(screen.getByText(MSG.email)).toBeTruthy();
    expect(screen.getByText(MSG.short)).toBeTruthy();
    expect(screen.getByText(MSG.mismatch)).toBeTruthy();

    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'alllowercase1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(MSG.complexity)).toBeTruthy();
    expect(callsTo(calls, 'auth.signUp')).toHaveLength(0);
  });

  it('sends the API fields and goes to /login with the success message', async () => {
    const { user, calls } = renderApp('/signup', {
      handlers: { 'auth.signUp': () => ({ message: 'ok' }) },
    });
    await user.type(await screen.findByLabelText(/^First name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toEqual({
      message: 'Developer account created successfully! Please check your email for verification.',
    });
    expect(callsTo(calls, 'auth.signUp')[0]?.input).toMatchObject({
      email: 'ada@example.com',
      password: 'Secret123',
      first_name: 'Ada',
      last_name: null,
      company_name: null,
      website_url: null,
      captcha_token: '',
    });
  });

  it('shows the server detail when signup fails, else "Signup failed"', async () => {
    let detail = true;
    const { user } = renderApp('/signup', {
      handlers: {
        'auth.signUp': () => {
          if (detail) throw trpcError('CONFLICT', 'An account with this email already exists', 409);
          throw new Error('boom');
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('An account with this email already exists')).toBeTruthy();
    detail = false;
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Signup failed')).toBeTruthy();
  });
});

describe('ForgotPasswordPage', () => {
  it('validates the address, then shows "Check your email" and "Try again"', async () => {
    const { user, calls } = renderApp('/forgot-password', {
      handlers: { 'auth.forgotPassword': () => ({ message: 'sent' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(MSG.email)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(callsTo(calls, 'auth.forgotPassword')[0]?.input).toEqual({ email: 'ada@example.com', captcha_token: '' });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeTruthy();
  });

  it('shows "Failed to send reset email" when the call fails without detail', async () => {
    const { user } = renderApp('/forgot-password', {
      handlers: {
        'auth.forgotPassword': () => {
          throw new Error('offline');
        },
      },
    });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Failed to send reset email')).toBeTruthy();
  });
});

describe('ResetPasswordPage', () => {
  it('without a token shows "Invalid Reset Link" and a way to ask for a new one', async () => {
    renderApp('/reset-password');
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new reset link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('applies the signup password rules, then goes to /login with the message', async () => {
    const { user, calls } = renderApp('/reset-password?token=abc', {
      handlers: { 'auth.resetPassword': () => ({ message: 'ok' }) },
    });
    await user.type(await screen.findByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'x');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText(MSG.short)).toBeTruthy();
    expect(screen.getByText(MSG.mismatch)).toBeTruthy();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'nouppercase1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText(MSG.complexity)).toBeTruthy();

    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'NewSecret1');
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'NewSecret1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toEqual({
      message: 'Password reset successfully! You can now sign in with your new password.',
    });
    expect(callsTo(calls, 'auth.resetPassword')[0]?.input).toEqual({ token: 'abc', new_password: 'NewSecret1', keep_sign_in_methods: false });
    const banner = await screen.findByRole('status');
    expect(within(banner).getByText(/Password reset successfully!/)).toBeTruthy();
  });

  it('shows the server detail on failure', async () => {
    const { user } = renderApp('/reset-password?token=used', {
      handlers: {
        'auth.resetPassword': () => {
          throw trpcError('BAD_REQUEST', 'Invalid or expired reset token');
        },
      },
    });
    await user.type(await screen.findByLabelText(/^New password/), 'NewSecret1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'NewSecret1');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Invalid or expired reset token')).toBeTruthy();
  });
});

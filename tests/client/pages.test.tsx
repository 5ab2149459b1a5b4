import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, currentState, renderApp, sampleUser, trpcError, watchTimers } from './utils';
import { COPIED_HINT_MS, VERIFY_EMAIL_REDIRECT_DELAY_MS } from '../../shared/constants';
import { RESEND_PROMPT } from '../../client/pages/VerifyEmailPage';

describe('VerifyEmailPage', () => {
  it('without a token is invalid, and resend asks for the address', async () => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue('ada@example.com');
    const { user, calls } = renderApp('/verify-email', {
      handlers: { 'auth.resendVerification': () => ({ message: 'sent' }) },
    });
    expect(await screen.findByText('Invalid verification link')).toBeTruthy();
    expect(screen.getAllByText('Invalid verification link. No token provided.').length).toBeGreaterThan(0);
    expect(screen.getByText('Verification links expire after 24 hours.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(prompt).toHaveBeenCalledWith(RESEND_PROMPT);
    expect(await screen.findByText('Verification email sent! Please check your inbox.')).toBeTruthy();
    expect(callsTo(calls, 'auth.resendVerification')[0]?.input).toEqual({ email: 'ada@example.com', captcha_token: '' });
    expect(callsTo(calls, 'auth.verifyEmail')).toHaveLength(0);
  });

  it('verifies once, shows success, and after 3 seconds goes to /login with the message', async () => {
    const timers = watchTimers();
    const { calls } = renderApp('/verify-email?token=tok123', {
      handlers: { 'auth.verifyEmail': () => ({ message: 'ok' }) },
    });
    expect(await screen.findByText('Email verified!')).toBeTruthy();
    expect(currentPath()).toBe('/verify-email?token=tok123');
    expect(VERIFY_EMAIL_REDIRECT_DELAY_MS).toBe(3000);
    timers.fire(VERIFY_EMAIL_REDIRECT_DELAY_MS);
    expect(currentPath()).toBe('/login');
    expect(currentState()).toEqual({ message: 'Email verified! Please log in to continue.' });
    expect(callsTo(calls, 'auth.verifyEmail')).toEqual([{ path: 'auth.verifyEmail', input: { token: 'tok123' } }]);
  });

  it('shows the error state with the server detail, and a failed resend says so', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue('ada@example.com');
    const { user } = renderApp('/verify-email?token=bad', {
      handlers: {
        'auth.verifyEmail': () => {
          throw trpcError('BAD_REQUEST', 'Invalid or expired verification token');
        },
        'auth.resendVerification': () => {
          throw new Error('down');
        },
      },
    });
    expect(await screen.findByText('Verification failed')).toBeTruthy();
    expect(screen.getAllByText('Invalid or expired verification token').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Failed to resend verification email.')).toBeTruthy();
  });

  it('falls back to the generic verification failure text', async () => {
    renderApp('/verify-email?token=bad', {
      handlers: {
        'auth.verifyEmail': () => {
          throw new Error('down');
        },
      },
    });
    expect((await screen.findAllByText('Email verification failed. Please try again.')).length).toBeGreaterThan(0);
  });
});

// ProjectsPage: see projects.test.tsx (it loads real data now).

describe('SettingsPage', () => {
  it('validates the change-password form and reports the server detail', async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'auth.changePassword': () => {
          throw trpcError('UNAUTHORIZED', 'Current password is incorrect', 401);
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(screen.getByText('New passwords do not match')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeTruthy();
    expect(callsTo(calls, 'auth.changePassword')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Current password/), 'OldSecret1');
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'NewSecret1');
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'NewSecret1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
    expect(callsTo(calls, 'auth.changePassword')[0]?.input).toEqual({
      current_password: 'OldSecret1',
      new_password: 'NewSecret1',
    });
  });

  it('changes the password', async () => {
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: { 'auth.changePassword': () => ({ message: 'Password changed successfully' }) },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.type(screen.getByLabelText(/^Current password/), 'OldSecret1');
    await user.type(screen.getByLabelText(/^New password/), 'NewSecret1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'NewSecret1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect((screen.getByLabelText(/^Current password/) as HTMLInputElement).value).toBe('');
  });

  it("shows the account's preferences with their defaults, and saves a change on the server", async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: { 'profile.update': (input) => ({ ...sampleUser, ...(input as object) }) },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    const loginNotes = screen.getByRole('switch', { name: 'Login notifications' }) as HTMLInputElement;
    expect(loginNotes.checked).toBe(true);
    expect((screen.getByRole('textbox', { name: /^Session timeout/ }) as HTMLInputElement).value).toBe('No timeout');
    await user.click(loginNotes);
    expect(await screen.findByText('Security settings updated')).toBeTruthy();
    expect(callsTo(calls, 'profile.update').map((call) => call.input)).toEqual([{ login_notifications: false }]);

    await user.click(screen.getByRole('tab', { name: 'Notifications' }));
    const expected: Record<string, boolean> = {
      'Email notifications': true,
      'Security alerts': true,
      'Product updates': false,
      'Marketing emails': false,
    };
    for (const [name, checked] of Object.entries(expected)) {
      expect((screen.getByRole('switch', { name }) as HTMLInputElement).checked).toBe(checked);
    }
    await user.click(screen.getByRole('switch', { name: 'Product updates' }));
    expect(await screen.findByText('Notification settings updated')).toBeTruthy();
    expect(callsTo(calls, 'profile.update').map((call) => call.input)).toEqual([{ login_notifications: false }, { notify_product_updates: true }]);
  });

  it('danger zone: confirm is enabled only for exactly DELETE, then auth.deleteAccount ends the session', async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: { 'profile.deleteAccount': () => ({ message: 'Account deleted successfully' }) },
    });
    await user.click(await screen.findByRole('tab', { name: 'Danger Zone' }));
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const input = screen.getByLabelText('Type DELETE to confirm');
    const confirm = screen.getByRole('button', { name: 'Permanently delete account' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(input, 'delete');
    expect(await screen.findByText('Please type DELETE to confirm')).toBeTruthy();
    expect(confirm.disabled).toBe(true);
    await user.clear(input);
    await user.type(input, 'DELETE');
    expect(confirm.disabled).toBe(false);
    expect(screen.queryByText('Please type DELETE to confirm')).toBeNull();
    // The current password is asked for before anything is sent.
    await user.click(confirm);
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(callsTo(calls, 'profile.deleteAccount')).toEqual([]);
    await user.type(screen.getByLabelText('Current password'), 'Correct-Horse-42');
    await user.click(confirm);
    expect(await screen.findByText('Account deleted successfully')).toBeTruthy();
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(callsTo(calls, 'profile.deleteAccount')[0]?.input).toEqual({ password: 'Correct-Horse-42' });
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeTruthy();
  });

  it('danger zone: a failed deletion says "Failed to delete account"', async () => {
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'profile.deleteAccount': () => {
          throw new Error('down');
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Danger Zone' }));
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.type(screen.getByLabelText('Current password'), 'Correct-Horse-42');
    await user.click(screen.getByRole('button', { name: 'Permanently delete account' }));
    expect(await screen.findByText('Failed to delete account')).toBeTruthy();
    expect(currentPath()).toBe('/settings');
  });

  it('general tab switches the theme and stores it under color-theme', async () => {
    const { user } = renderApp('/settings', { user: sampleUser });
    const group = await screen.findByRole('radiogroup', { name: 'Theme' });
    await user.click(within(group).getByLabelText('Dark'));
    expect(window.localStorage.getItem('color-theme')).toBe('dark');
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
    await user.click(within(group).getByLabelText('System'));
    expect(window.localStorage.getItem('color-theme')).toBe('system');
    await user.click(within(group).getByLabelText('Light'));
    expect(window.localStorage.getItem('color-theme')).toBe('light');
  });
});

describe('ProfilePage', () => {
  it('edits the name, saves through profile.update and reloads the user', async () => {
    let current = { ...sampleUser, is_verified: false };
    const { user, calls } = renderApp('/profile', {
      user: current,
      handlers: {
        'auth.session': () => ({ user: current }),
        'profile.update': (input) => {
          current = { ...current, ...(input as { first_name: string; last_name: string }) };
          return current;
        },
        'auth.resendVerification': () => ({ message: 'sent' }),
      },
    });
    expect(await screen.findByText('Pending verification')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByRole('button', { name: 'Change email' })).toBeTruthy();
    const first = screen.getByLabelText('First name') as HTMLInputElement;
    expect(first.readOnly).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(first.readOnly).toBe(false);
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect(callsTo(calls, 'profile.update')[0]?.input).toEqual({ first_name: 'Augusta', last_name: 'Lovelace' });
    expect(callsTo(calls, 'auth.session').length).toBeGreaterThanOrEqual(2);
    expect(await screen.findByRole('heading', { name: 'Augusta Lovelace' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent! Please check your inbox.')).toBeTruthy();
    expect(callsTo(calls, 'auth.resendVerification')[0]?.input).toEqual({ email: sampleUser.email, captcha_token: '' });
  });

  it('cancel restores the saved values; a failed save says "Failed to update profile"', async () => {
    const { user } = renderApp('/profile', {
      user: sampleUser,
      handlers: {
        'profile.update': () => {
          throw new Error('down');
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const first = screen.getByLabelText('First name') as HTMLInputElement;
    await user.clear(first);
    await user.type(first, 'Zed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(first.value).toBe('Ada');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update profile')).toBeTruthy();
  });
});

describe('ApiDocsPage', () => {
  it('lists the public endpoints and shows "Copied!" for two seconds', async () => {
    const timers = watchTimers();
    const { user } = renderApp('/api-docs');
    expect(await screen.findByRole('heading', { name: 'API documentation' })).toBeTruthy();
    for (const path of ['signup', 'login', 'logout', 'verify-email', 'forgot-password', 'reset-password']) {
      expect(screen.getByText(`/public/api/v1/auth/${path}`)).toBeTruthy();
    }
    expect(screen.getAllByText('/public/api/v1/profile')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Copy Start the server script' }));
    expect(await navigator.clipboard.readText()).toContain('npm start');
    expect(await screen.findByText('Copied!')).toBeTruthy();
    expect(COPIED_HINT_MS).toBe(2000);
    timers.fire(COPIED_HINT_MS);
    expect(screen.queryByText('Copied!')).toBeNull();
  });
});

describe('LandingPage', () => {
  it('shows the beta badge, SLA, six features, three testimonials and the pricing toggle', async () => {
    const { user } = renderApp('/');
    expect(screen.getByText(/public beta/i)).toBeTruthy();
    expect(screen.getAllByText(/99\.9% uptime SLA/).length).toBeGreaterThan(0);
    expect(screen.getByText('$29')).toBeTruthy();
    expect(screen.getByText('Up to 1,000 monthly active users')).toBeTruthy();
    expect(screen.getByText('Unlimited monthly active users')).toBeTruthy();
    await user.click(screen.getByLabelText('Annually'));
    expect(screen.getByText('$290')).toBeTruthy();
    expect(screen.getByText('Custom')).toBeTruthy();
    await act(async () => {});
  });
});

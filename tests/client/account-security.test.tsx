import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { MESSAGES, VALIDATION } from '../../shared/messages';
import type { User } from '../../shared/schemas/user';
import { callsTo, currentPath, currentState, renderApp, sampleUser, stepUpRefusal, trpcError, type Handlers } from './utils';

// The screens are lazy-loaded: import them once up front, so a slow first import cannot outlast a findBy.
beforeAll(async () => {
  await Promise.all([import('../../client/pages/ProfilePage'), import('../../client/pages/SettingsPage'), import('../../client/pages/ConfirmEmailChangePage')]);
});

describe('Profile → change email', () => {
  async function openForm(handlers: Handlers) {
    const rendered = renderApp('/profile', { user: sampleUser, handlers });
    await rendered.user.click(await screen.findByRole('button', { name: 'Change email' }));
    return { ...rendered, form: screen.getByRole('form', { name: 'Change email' }) };
  }

  it('checks the address and the password before calling the server', async () => {
    const { user, calls, form } = await openForm({});
    await user.type(within(form).getByLabelText(/^New email/), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect(await within(form).findByText(VALIDATION.emailInvalid)).toBeTruthy();
    expect(within(form).getByText(VALIDATION.currentPasswordRequired)).toBeTruthy();
    expect(callsTo(calls, 'auth.changeEmail')).toHaveLength(0);
  });

  it('an account without a password asks for no password: it proves who it is in the step-up dialog when the server asks', async () => {
    let proved = false;
    const { user, calls, form } = await openForm({
      'social.identities': () => ({ identities: [], has_password: false, passkeys: 0, available: [] }),
      'auth.changeEmail': () => {
        if (!proved) throw stepUpRefusal(['totp']);
        return { message: MESSAGES.emailChangeRequested };
      },
      'auth.stepUp': () => {
        proved = true;
        return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
      },
    });
    await waitFor(() => expect(within(form).queryByLabelText(/^Current password/)).toBeNull());
    await user.type(within(form).getByLabelText(/^New email/), 'new@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.type(dialog.getByLabelText(/authenticator app/), '123456');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Check your new inbox')).toBeTruthy();
    expect(callsTo(calls, 'auth.stepUp')[0]?.input).toEqual({ code: '123456' });
    expect(callsTo(calls, 'auth.changeEmail').map((call) => call.input)).toEqual([{ new_email: 'new@example.com' }, { new_email: 'new@example.com' }]);
  });

  it('shows the server detail (wrong password), then "Check your new inbox" once the request is accepted', async () => {
    let attempts = 0;
    const { user, calls, form } = await openForm({
      'auth.changeEmail': () => {
        attempts += 1;
        if (attempts === 1) throw trpcError('UNAUTHORIZED', 'Incorrect password', 401);
        return { message: MESSAGES.emailChangeRequested };
      },
    });
    await user.type(within(form).getByLabelText(/^New email/), ' new@example.com ');
    await user.type(within(form).getByLabelText(/^Current password/), 'Wrong-Password-1');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Incorrect password');

    await user.clear(within(form).getByLabelText(/^Current password/));
    await user.type(within(form).getByLabelText(/^Current password/), 'Correct-Horse-42');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect(await screen.findByText('Check your new inbox')).toBeTruthy();
    expect(screen.getByText('new@example.com')).toBeTruthy();
    expect(callsTo(calls, 'auth.changeEmail').map((call) => call.input)).toEqual([
      { new_email: 'new@example.com', password: 'Wrong-Password-1' },
      { new_email: 'new@example.com', password: 'Correct-Horse-42' },
    ]);
    // The address shown is still the current one until the link is opened.
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(sampleUser.email);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('button', { name: 'Change email' })).toBeTruthy();
  });

  it('cancel closes the form without a call', async () => {
    const { user, calls, form } = await openForm({});
    await user.type(within(form).getByLabelText(/^New email/), 'new@example.com');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Change email' })).toBeNull();
    expect(callsTo(calls, 'auth.changeEmail')).toHaveLength(0);
  });
});

describe('ConfirmEmailChangePage', () => {
  it('without a token says the link is invalid and calls nothing', async () => {
    const { calls } = renderApp('/confirm-email-change');
    expect(await screen.findByText('Invalid email change link')).toBeTruthy();
    expect(screen.getByText('Invalid email change link. No token provided.')).toBeTruthy();
    expect(callsTo(calls, 'auth.confirmEmailChange')).toHaveLength(0);
  });

  it('signed out: confirms once and sends to sign in with a message', async () => {
    const { user, calls } = renderApp('/confirm-email-change?token=tok123', {
      handlers: { 'auth.confirmEmailChange': () => ({ message: MESSAGES.emailChanged }) },
    });
    expect(await screen.findByText('Email address changed')).toBeTruthy();
    expect(await screen.findByText(MESSAGES.emailChanged)).toBeTruthy();
    expect(callsTo(calls, 'auth.confirmEmailChange')).toEqual([{ path: 'auth.confirmEmailChange', input: { token: 'tok123' } }]);
    await user.click(screen.getByRole('link', { name: 'Continue to sign in' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toEqual({ message: 'Your email address has been changed. Sign in with the new address.' });
  });

  it('signed in: confirms with the session, reloads the user, and offers the profile', async () => {
    let current: User = sampleUser;
    const { calls } = renderApp('/confirm-email-change?token=tok123', {
      user: sampleUser,
      handlers: {
        'auth.session': () => ({ user: current }),
        'auth.confirmEmailChange': () => {
          current = { ...sampleUser, email: 'new@example.com' };
          return { message: MESSAGES.emailChanged };
        },
      },
    });
    expect(await screen.findByText('Email address changed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toBeTruthy();
    expect(callsTo(calls, 'auth.session').length).toBeGreaterThanOrEqual(2);
    expect(callsTo(calls, 'auth.confirmEmailChange')).toHaveLength(1);
  });

  it('shows the server detail when the link is used, expired or the address was taken', async () => {
    renderApp('/confirm-email-change?token=old', {
      handlers: {
        'auth.confirmEmailChange': () => {
          throw trpcError('CONFLICT', MESSAGES.emailTaken, 409);
        },
      },
    });
    expect(await screen.findByText('Email change failed')).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.emailTaken).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
  });
});

describe('Settings → mail preferences', () => {
  const prefsUser: User = { ...sampleUser, login_notifications: false, email_notifications: false, notify_security_alerts: false, notify_product_updates: true, notify_marketing: true };

  it("the Notifications tab shows the account's values and saves each switch through profile.update", async () => {
    const { user, calls } = renderApp('/settings', {
      user: prefsUser,
      handlers: { 'profile.update': (input) => ({ ...prefsUser, ...(input as object) }) },
    });
    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const switches = {
      'Email notifications': 'email_notifications',
      'Security alerts': 'notify_security_alerts',
      'Product updates': 'notify_product_updates',
      'Marketing emails': 'notify_marketing',
    } as const;
    for (const [name, field] of Object.entries(switches)) {
      expect((screen.getByRole('switch', { name }) as HTMLInputElement).checked, name).toBe(prefsUser[field]);
    }
    for (const name of Object.keys(switches)) await user.click(screen.getByRole('switch', { name }));
    await waitFor(() => expect(callsTo(calls, 'profile.update')).toHaveLength(4));
    expect(callsTo(calls, 'profile.update').map((call) => call.input)).toEqual([
      { email_notifications: true },
      { notify_security_alerts: true },
      { notify_product_updates: false },
      { notify_marketing: false },
    ]);
    expect((await screen.findAllByText('Notification settings updated')).length).toBeGreaterThan(0);
    expect((screen.getByRole('switch', { name: 'Marketing emails' }) as HTMLInputElement).checked).toBe(false);
  });

  it('a failed save puts the switch back and says so', async () => {
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'profile.update': () => {
          throw new Error('down');
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const marketing = screen.getByRole('switch', { name: 'Marketing emails' }) as HTMLInputElement;
    await user.click(marketing);
    expect(await screen.findByText('Failed to update notification settings')).toBeTruthy();
    await waitFor(() => expect(marketing.checked).toBe(false));
  });

  it('the Security tab\'s "Login notifications" switch reads the account and writes through profile.update; a failure reverts it', async () => {
    let fail = false;
    const { user, calls } = renderApp('/settings', {
      user: prefsUser,
      handlers: {
        'profile.update': (input) => {
          if (fail) throw trpcError('UNPROCESSABLE_CONTENT', 'login_notifications must be true or false', 422);
          return { ...prefsUser, ...(input as object) };
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    const loginNotes = screen.getByRole('switch', { name: 'Login notifications' }) as HTMLInputElement;
    expect(loginNotes.checked).toBe(false);
    await user.click(loginNotes);
    expect(await screen.findByText('Security settings updated')).toBeTruthy();
    expect(loginNotes.checked).toBe(true);
    expect(callsTo(calls, 'profile.update')[0]?.input).toEqual({ login_notifications: true });

    fail = true;
    await user.click(loginNotes);
    expect(await screen.findByText('login_notifications must be true or false')).toBeTruthy();
    await waitFor(() => expect(loginNotes.checked).toBe(true));
  });
});

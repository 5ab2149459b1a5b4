import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, renderApp, sampleUser, stepUpRefusal, trpcError } from './utils';

/**
 * An account that signs in with a provider only has no password to give: the danger zone and the change
 * of address ask for none, and the step-up dialog mails it a code instead (or it signs in again).
 */
const SOCIAL_ONLY = { identities: [{ id: 'i1', provider: 'google', name: 'Google', email: 'ada@example.com', created_at: '2026-01-01T00:00:00.000Z' }], has_password: false, passkeys: 0, available: [] };
const CODE_SENT = { message: 'sent', sent_to: 'ada@example.com', expires_at: '2030-01-01T00:00:00.000Z' };

/** profile.deleteAccount refuses until auth.stepUp took the right code, as the server does for a stale session. */
function staleSocialSession() {
  let proved = false;
  return {
    'social.identities': () => SOCIAL_ONLY,
    'profile.deleteAccount': () => {
      if (!proved) throw stepUpRefusal(['email']);
      return { message: 'Account deleted successfully' };
    },
    'auth.stepUpEmailCode': () => CODE_SENT,
    'auth.stepUp': (input: unknown) => {
      if ((input as { email_code?: string }).email_code !== '123456') throw trpcError('BAD_REQUEST', 'Incorrect code');
      proved = true;
      return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
    },
  };
}

async function openDangerZone(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Danger Zone' }));
  await user.click(screen.getByRole('button', { name: 'Delete account' }));
}

describe('the danger zone of an account without a password', () => {
  it('asks for no password, mails a code on request, takes it and deletes the account', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: staleSocialSession() });
    await openDangerZone(user);
    expect(await screen.findByText(/has no password: unless you signed in a moment ago, we will e-mail you a code/)).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(screen.getByRole('button', { name: 'Permanently delete account' }));

    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    expect(dialog.getByText('We will send a 6-digit code to your e-mail address.')).toBeTruthy();
    // Nothing is mailed until asked for.
    expect(callsTo(calls, 'auth.stepUpEmailCode')).toHaveLength(0);
    await user.click(dialog.getByRole('button', { name: 'E-mail me a code' }));
    expect(await dialog.findByText('We sent a confirmation code to ada@example.com. It is valid for 15 minutes.')).toBeTruthy();

    await user.type(dialog.getByLabelText('Code from the e-mail'), '000000');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Incorrect code');
    await user.clear(dialog.getByLabelText('Code from the e-mail'));
    await user.type(dialog.getByLabelText('Code from the e-mail'), '123456');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Account deleted successfully')).toBeTruthy();
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(callsTo(calls, 'auth.stepUp').map((call) => call.input)).toEqual([{ email_code: '000000' }, { email_code: '123456' }]);
    // Without a password field, the deletion is sent without one, before and after the proof.
    expect(callsTo(calls, 'profile.deleteAccount').map((call) => call.input)).toEqual([{}, {}]);
  });

  it('sends a new code on request, and offers signing in again with the provider instead', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: staleSocialSession() });
    await openDangerZone(user);
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(screen.getByRole('button', { name: 'Permanently delete account' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    expect(dialog.getByRole('button', { name: 'Or sign in again with your provider' })).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'E-mail me a code' }));
    await user.click(await dialog.findByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(callsTo(calls, 'auth.stepUpEmailCode')).toHaveLength(2));
  });

  it('shows the refusal to mail a code (too many asked for) in the dialog', async () => {
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        ...staleSocialSession(),
        'auth.stepUpEmailCode': () => {
          throw trpcError('TOO_MANY_REQUESTS', 'Too many codes asked for. Try again later.', 429);
        },
      },
    });
    await openDangerZone(user);
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(screen.getByRole('button', { name: 'Permanently delete account' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'E-mail me a code' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Too many codes asked for. Try again later.');
  });
});

describe('the danger zone of an account with a password', () => {
  it('still asks for the current password and sends it', async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: { 'social.identities': () => ({ ...SOCIAL_ONLY, has_password: true }), 'profile.deleteAccount': () => ({ message: 'Account deleted successfully' }) },
    });
    await openDangerZone(user);
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.type(await screen.findByLabelText('Current password'), 'Correct-Horse-42');
    await user.click(screen.getByRole('button', { name: 'Permanently delete account' }));
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(callsTo(calls, 'profile.deleteAccount').map((call) => call.input)).toEqual([{ password: 'Correct-Horse-42' }]);
    expect(callsTo(calls, 'auth.stepUpEmailCode')).toHaveLength(0);
  });
});

describe('Settings → Security of an account without a password', () => {
  it('sets a first password without asking for a current one, after the mailed code', async () => {
    let proved = false;
    let hasPassword = false;
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        ...staleSocialSession(),
        'social.identities': () => ({ ...SOCIAL_ONLY, has_password: hasPassword }),
        'auth.stepUp': () => {
          proved = true;
          return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
        },
        'auth.changePassword': () => {
          if (!proved) throw stepUpRefusal(['email']);
          hasPassword = true;
          return { message: 'Password changed successfully' };
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(await screen.findByRole('heading', { name: 'Set a password' })).toBeTruthy();
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    await user.type(screen.getByLabelText(/^New password/), 'First-Password-42');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'First-Password-42');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'E-mail me a code' }));
    await user.type(await dialog.findByLabelText('Code from the e-mail'), '123456');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(callsTo(calls, 'auth.changePassword').map((call) => call.input)).toEqual([{ new_password: 'First-Password-42' }, { new_password: 'First-Password-42' }]);
    // The account has a password now: the card asks for it next time.
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeTruthy();
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '../../shared/messages';
import { browser as navigation } from '../../client/lib/navigation';
import { callsTo, currentPath, currentState, recentProof, renderApp, sampleUser, stepUpRefusal, trpcError } from './utils';

// The browser's WebAuthn dialog, which jsdom does not have.
const webauthn = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const REGISTRATION = { id: 'cred-2', rawId: 'cred-2', type: 'public-key', response: { clientDataJSON: 'x', attestationObject: 'y' }, clientExtensionResults: {} };
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'x', authenticatorData: 'y', signature: 'z' }, clientExtensionResults: {} };
const CREATION_OPTIONS = { challenge: 'c1', rp: { id: window.location.hostname, name: 'AuthPlatform' }, user: { id: 'dQ', name: 'ada@example.com', displayName: 'Ada' } };
const REQUEST_OPTIONS = { challenge: 'c2', rpId: window.location.hostname, userVerification: 'required' };
const NEW_PASSKEY = { id: 'pk-2', name: 'Passkey 2', created_at: '2026-03-02T10:00:00.000Z', last_used_at: null };

beforeEach(() => {
  webauthn.browserSupportsWebAuthn.mockReturnValue(true);
  webauthn.startRegistration.mockReset().mockResolvedValue(REGISTRATION);
  webauthn.startAuthentication.mockReset().mockResolvedValue(ASSERTION);
});

async function securityTab(user: ReturnType<typeof renderApp>['user'], heading: string) {
  await user.click(await screen.findByRole('tab', { name: 'Security' }));
  return screen.getByRole('heading', { name: heading }).closest('.mantine-Card-root') as HTMLElement;
}

/** passkeys.registrationOptions refuses until auth.stepUp was called, as the server does for a stale session. */
function staleSessionHandlers(overrides: Record<string, (input: unknown) => unknown> = {}) {
  let proved = false;
  return {
    'passkeys.list': () => ({ passkeys: [] }),
    'passkeys.registrationOptions': () => {
      if (!proved) throw stepUpRefusal(['password', 'passkey']);
      return CREATION_OPTIONS;
    },
    'passkeys.register': () => ({ passkey: NEW_PASSKEY }),
    'auth.stepUp': (input: unknown) => {
      if ((input as { password?: string }).password === 'wrong') throw trpcError('BAD_REQUEST', 'Incorrect password');
      proved = true;
      return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
    },
    'auth.stepUpPasskeyOptions': () => REQUEST_OPTIONS,
    ...overrides,
  };
}

describe('step-up: a sensitive change asks who you are again', () => {
  it('asks for the password when adding a passkey is refused, shows a wrong one, then finishes the change', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: staleSessionHandlers() });
    const card = await securityTab(user, 'Passkeys');
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));

    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.type(dialog.getByLabelText('Password'), 'wrong');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Incorrect password');

    await user.clear(dialog.getByLabelText('Password'));
    await user.type(dialog.getByLabelText('Password'), 'Correct-Horse-42');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Passkey "Passkey 2" added')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull();
    expect(callsTo(calls, 'auth.stepUp').map((call) => call.input)).toEqual([{ password: 'wrong' }, { password: 'Correct-Horse-42' }]);
    // The refused call is made again after the proof, and the browser's dialog opens only then.
    expect(callsTo(calls, 'passkeys.registrationOptions')).toHaveLength(2);
    expect(webauthn.startRegistration).toHaveBeenCalledTimes(1);
  });

  it('takes one of the account\'s passkeys as the proof instead', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: staleSessionHandlers() });
    const card = await securityTab(user, 'Passkeys');
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'Use a passkey' }));
    await user.click(await dialog.findByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('Passkey "Passkey 2" added')).toBeTruthy();
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: REQUEST_OPTIONS });
    expect(callsTo(calls, 'auth.stepUp')[0]?.input).toEqual({ passkey_response: ASSERTION });
  });

  it('cancelling the dialog makes no change and shows no error', async () => {
    const { user, calls } = renderApp('/settings', { user: sampleUser, handlers: staleSessionHandlers() });
    const card = await securityTab(user, 'Passkeys');
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull());
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(callsTo(calls, 'passkeys.register')).toHaveLength(0);
    expect(webauthn.startRegistration).not.toHaveBeenCalled();
  });

  it('asks before connecting a provider when the session needs a proof, then starts the connection', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    let proved = false;
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'passkeys.list': () => ({ passkeys: [] }),
        'social.identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [{ id: 'google', name: 'Google' }] }),
        'auth.stepUpStatus': () => (proved ? recentProof() : { step_up_required: true, step_up_methods: ['password'], expires_at: null }),
        'auth.stepUp': () => {
          proved = true;
          return { message: 'Confirmed', expires_at: '2030-01-01T00:00:00.000Z' };
        },
      },
    });
    const card = await securityTab(user, 'Sign-in methods');
    await user.click(await within(card).findByRole('button', { name: 'Connect Google' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    expect(assign).not.toHaveBeenCalled();
    await user.type(dialog.getByLabelText('Password'), 'Correct-Horse-42');
    await user.click(dialog.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/v1/auth/oauth/google/authorize?intent=link&return_to=%2Fsettings'));
    expect(callsTo(calls, 'auth.stepUp')[0]?.input).toEqual({ password: 'Correct-Horse-42' });
  });

  it('an account with no proof to give here signs in again, and comes back to the page', async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: staleSessionHandlers({
        'passkeys.registrationOptions': () => {
          throw stepUpRefusal([]);
        },
        'auth.logOut': () => ({ message: MESSAGES.loggedOut }),
      }),
    });
    const card = await securityTab(user, 'Passkeys');
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Confirm it's you" }));
    await user.click(dialog.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toMatchObject({ from: { pathname: '/settings' }, message: 'Sign in again to confirm it is you, then make the change.' });
    expect(callsTo(calls, 'auth.logOut')).toHaveLength(1);
  });
});

describe('an unverified account', () => {
  const unverified = { ...sampleUser, is_verified: false };
  it('is told to verify its address instead of being offered a passkey, two factors or a provider', async () => {
    const { user } = renderApp('/settings', {
      user: unverified,
      handlers: {
        'passkeys.list': () => ({ passkeys: [] }),
        'social.identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [{ id: 'google', name: 'Google' }] }),
      },
    });
    for (const heading of ['Passkeys', 'Two-factor authentication', 'Sign-in methods']) {
      const card = heading === 'Passkeys' ? await securityTab(user, heading) : (screen.getByRole('heading', { name: heading }).closest('.mantine-Card-root') as HTMLElement);
      expect(await within(card).findByText(MESSAGES.verifyEmailFirst)).toBeTruthy();
    }
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Set up' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Connect Google' })).toBeNull();
  });
});

describe('the reset page', () => {
  it('removes the passkeys and connected sign-ins unless the owner ticks to keep them', async () => {
    const { user, calls } = renderApp('/reset-password?token=abc', { handlers: { 'auth.resetPassword': () => ({ message: 'ok' }) } });
    await user.type(await screen.findByLabelText(/^New password/), 'NewSecret1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'NewSecret1');
    const keep = screen.getByRole('checkbox', { name: 'Keep my passkeys and connected sign-ins' }) as HTMLInputElement;
    expect(keep.checked).toBe(false);
    await user.click(keep);
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(callsTo(calls, 'auth.resetPassword')[0]?.input).toEqual({ token: 'abc', new_password: 'NewSecret1', keep_sign_in_methods: true });
  });
});

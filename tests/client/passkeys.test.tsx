import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, renderApp, sampleUser, trpcError } from './utils';

// The browser's WebAuthn dialog, which jsdom does not have: the answers are what @simplewebauthn/browser hands back.
const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const REGISTRATION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'x', attestationObject: 'y' }, clientExtensionResults: {} };
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'x', authenticatorData: 'y', signature: 'z' }, clientExtensionResults: {} };
const CREATION_OPTIONS = { challenge: 'c1', rp: { id: window.location.hostname, name: 'AuthPlatform' }, user: { id: 'dQ', name: 'ada@example.com', displayName: 'Ada' } };
const REQUEST_OPTIONS = { challenge: 'c2', rpId: window.location.hostname, userVerification: 'required' };
const LAPTOP = { id: 'pk-1', name: 'Laptop', created_at: '2026-03-01T10:00:00.000Z', last_used_at: null };

beforeEach(() => {
  browser.browserSupportsWebAuthn.mockReturnValue(true);
  browser.startRegistration.mockReset().mockResolvedValue(REGISTRATION);
  browser.startAuthentication.mockReset().mockResolvedValue(ASSERTION);
});

async function openPasskeys(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Security' }));
  return screen.getByRole('heading', { name: 'Passkeys' }).closest('.mantine-Card-root') as HTMLElement;
}

describe('Settings → Passkeys', () => {
  it("adds a passkey through the browser's dialog and lists it", async () => {
    let passkeys = [LAPTOP];
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'passkeys.list': () => ({ passkeys }),
        'passkeys.registrationOptions': () => CREATION_OPTIONS,
        'passkeys.register': () => {
          const passkey = { id: 'pk-2', name: 'Passkey 2', created_at: '2026-03-02T10:00:00.000Z', last_used_at: null };
          passkeys = [...passkeys, passkey];
          return { passkey };
        },
      },
    });
    const card = await openPasskeys(user);
    expect(await within(card).findByText('Laptop')).toBeTruthy();
    expect(within(card).getByText(/Added .* · Last used Never/)).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByText('Passkey 2')).toBeTruthy();
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: CREATION_OPTIONS });
    expect(callsTo(calls, 'passkeys.register')[0]?.input).toEqual({ response: REGISTRATION });
    expect(await screen.findByText('Passkey "Passkey 2" added')).toBeTruthy();
  });

  it('a cancelled dialog registers nothing; a server refusal shows its detail', async () => {
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'passkeys.list': () => ({ passkeys: [] }),
        'passkeys.registrationOptions': () => CREATION_OPTIONS,
        'passkeys.register': () => {
          throw trpcError('BAD_REQUEST', 'This passkey could not be verified');
        },
      },
    });
    const card = await openPasskeys(user);
    expect(await within(card).findByText('No passkeys yet.')).toBeTruthy();
    browser.startRegistration.mockRejectedValueOnce(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Passkey request cancelled or timed out')).toBeTruthy();
    expect(callsTo(calls, 'passkeys.register')).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByText('This passkey could not be verified')).toBeTruthy();
  });

  it('says where passkeys work when the page is opened under another host name, without opening the dialog', async () => {
    const { user } = renderApp('/settings', {
      user: sampleUser,
      handlers: { 'passkeys.list': () => ({ passkeys: [] }), 'passkeys.registrationOptions': () => ({ ...CREATION_OPTIONS, rp: { id: 'auth.example.com', name: 'x' } }) },
    });
    const card = await openPasskeys(user);
    await user.click(await within(card).findByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByText('Passkeys for this app belong to auth.example.com: open it at that address to use them.')).toBeTruthy();
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });

  it('renames and removes a passkey', async () => {
    let passkeys = [LAPTOP];
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'passkeys.list': () => ({ passkeys }),
        'passkeys.rename': (input) => {
          const { name } = input as { name: string };
          passkeys = [{ ...LAPTOP, name }];
          return passkeys[0];
        },
        'passkeys.remove': () => {
          passkeys = [];
          return { message: 'Passkey removed' };
        },
      },
    });
    const card = await openPasskeys(user);
    await user.click(await within(card).findByRole('button', { name: 'Rename Laptop' }));
    const field = within(card).getByRole('textbox', { name: 'Passkey name' });
    await user.clear(field);
    await user.type(field, 'Work laptop');
    await user.click(within(card).getByRole('button', { name: 'Save name' }));
    expect(await within(card).findByText('Work laptop')).toBeTruthy();
    expect(callsTo(calls, 'passkeys.rename')[0]?.input).toEqual({ id: 'pk-1', name: 'Work laptop' });

    await user.click(within(card).getByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(card).findByText('No passkeys yet.')).toBeTruthy();
    expect(callsTo(calls, 'passkeys.remove')[0]?.input).toEqual({ id: 'pk-1' });
  });

  it('without WebAuthn in the browser, adding is off and says why', async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    const { user } = renderApp('/settings', { user: sampleUser, handlers: { 'passkeys.list': () => ({ passkeys: [] }) } });
    const card = await openPasskeys(user);
    expect((within(card).getByRole('button', { name: 'Add a passkey' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByText('This browser does not support passkeys.')).toBeTruthy();
  });
});

describe('signing in with a passkey', () => {
  it('"Sign in with a passkey" asks the browser, signs in and lands on /dashboard', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: { 'passkeys.loginOptions': () => REQUEST_OPTIONS, 'passkeys.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: REQUEST_OPTIONS });
    const [call] = callsTo(calls, 'passkeys.logIn');
    expect((call?.input as { response: unknown }).response).toEqual(ASSERTION);
  });

  it("shows the server's refusal and stays on /login", async () => {
    const { user } = renderApp('/login', {
      handlers: {
        'passkeys.loginOptions': () => REQUEST_OPTIONS,
        'passkeys.logIn': () => {
          throw trpcError('UNAUTHORIZED', 'This passkey could not be verified', 401);
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('This passkey could not be verified')).toBeTruthy();
    expect(currentPath()).toBe('/login');
  });

  it('offers "Use a passkey" at the second step only when the account has one, and finishes with it', async () => {
    let methods = ['totp', 'recovery_code'];
    const { user, calls } = renderApp('/login', {
      handlers: {
        'auth.logIn': () => ({ mfa_required: true, mfa_token: 'mfa-1', methods }),
        'passkeys.mfaOptions': () => REQUEST_OPTIONS,
        'auth.verifyMfa': () => ({ user: sampleUser, expires_in: 86400 }),
      },
    });
    const signInWithPassword = async () => {
      await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
      await user.type(screen.getByLabelText(/^Password/), 'Secret123');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await screen.findByText('Authentication code');
    };
    await screen.findByRole('button', { name: 'Sign in' });
    await signInWithPassword();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));

    methods = ['totp', 'recovery_code', 'passkey'];
    await user.clear(await screen.findByLabelText(/^Email/));
    await signInWithPassword();
    await user.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(callsTo(calls, 'passkeys.mfaOptions')[0]?.input).toEqual({ mfa_token: 'mfa-1' });
    expect(callsTo(calls, 'auth.verifyMfa')[0]?.input).toEqual({ mfa_token: 'mfa-1', passkey_response: ASSERTION });
  });
});

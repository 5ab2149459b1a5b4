import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, renderApp, sampleUser, trpcError } from './utils';

const SETUP = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/AuthPlatform:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=AuthPlatform' };
const CODES = Array.from({ length: 10 }, (_, i) => `aaaa${i}-bbbb${i}`);

async function openSecurityTab(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Security' }));
  return screen.getByRole('heading', { name: 'Two-factor authentication' }).closest('.mantine-Card-root') as HTMLElement;
}

describe('Settings → Two-factor authentication', () => {
  it('sets up an authenticator: QR code and key, a wrong code shows the detail, the right one shows the recovery codes once', async () => {
    let enabled = false;
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: {
        'auth.session': () => ({ user: { ...sampleUser, mfa_enabled: enabled } }),
        'mfa.setUpTotp': () => SETUP,
        'mfa.confirmTotp': (input) => {
          if ((input as { code: string }).code !== '123456') throw trpcError('BAD_REQUEST', 'Invalid code');
          enabled = true;
          return { recovery_codes: CODES };
        },
      },
    });
    const card = await openSecurityTab(user);
    expect(within(card).getByText('Off')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Set up' }));
    expect(await within(card).findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(within(card).getByText('Setup key')).toBeTruthy();
    expect(within(card).getByTestId('copy-value').textContent).toBe(SETUP.secret);

    await user.type(within(card).getByLabelText('2. Enter the code it shows'), '000000');
    await user.click(within(card).getByRole('button', { name: 'Turn on' }));
    expect(await within(card).findByText('Invalid code')).toBeTruthy();

    await user.clear(within(card).getByLabelText('2. Enter the code it shows'));
    await user.type(within(card).getByLabelText('2. Enter the code it shows'), '123456');
    await user.click(within(card).getByRole('button', { name: 'Turn on' }));
    const codes = await within(card).findByRole('region', { name: 'Recovery codes' });
    for (const code of CODES) expect(within(codes).getByText(code)).toBeTruthy();
    expect(callsTo(calls, 'mfa.confirmTotp').map((call) => call.input)).toEqual([{ code: '000000' }, { code: '123456' }]);

    await user.click(within(card).getByRole('button', { name: 'I have saved them' }));
    expect(within(card).queryByText(CODES[0]!)).toBeNull();
    expect(await within(card).findByText('On')).toBeTruthy();
  });

  it('turns two factors off with the password and a code, and makes new recovery codes with the password', async () => {
    const { user, calls } = renderApp('/settings', {
      user: { ...sampleUser, mfa_enabled: true },
      handlers: {
        'mfa.regenerateRecoveryCodes': () => ({ recovery_codes: CODES }),
        'mfa.disable': () => ({ message: 'Two-factor authentication is off.' }),
      },
    });
    const card = await openSecurityTab(user);
    expect(within(card).getByText('On')).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'New recovery codes' }));
    await user.type(within(card).getByLabelText('Current password'), 'Secret123');
    await user.click(within(card).getByRole('button', { name: 'Show new codes' }));
    expect(await within(card).findByText(CODES[3]!)).toBeTruthy();
    expect(callsTo(calls, 'mfa.regenerateRecoveryCodes')[0]?.input).toEqual({ password: 'Secret123' });
    await user.click(within(card).getByRole('button', { name: 'I have saved them' }));

    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    await user.type(within(card).getByLabelText('Current password'), 'Secret123');
    await user.type(within(card).getByLabelText('Code from your authenticator app, or a recovery code'), '654321');
    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(callsTo(calls, 'mfa.disable')).toHaveLength(1));
    expect(callsTo(calls, 'mfa.disable')[0]?.input).toEqual({ password: 'Secret123', code: '654321' });
  });
});

describe('LoginPage with two factors', () => {
  const challenge = { mfa_required: true, mfa_token: 'mfa-token-1', methods: ['totp', 'recovery_code'] };

  async function signInWithPassword(user: ReturnType<typeof renderApp>['user']) {
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('asks for the code after the password; a full code submits itself and lands on /dashboard', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: {
        'auth.logIn': () => challenge,
        'auth.verifyMfa': (input) => {
          if ((input as { code: string }).code !== '123456') throw trpcError('BAD_REQUEST', 'Invalid code');
          return { user: sampleUser, expires_in: 86400 };
        },
      },
    });
    await signInWithPassword(user);
    expect(await screen.findByText('Authentication code')).toBeTruthy();
    expect(currentPath()).toBe('/login');

    await user.type(screen.getByLabelText('Digit 1 of 6'), '111111');
    expect(await screen.findByText('Invalid code')).toBeTruthy();
    await user.type(screen.getByLabelText('Digit 1 of 6'), '123456');
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(callsTo(calls, 'auth.verifyMfa').map((call) => call.input)).toEqual([
      { mfa_token: 'mfa-token-1', code: '111111' },
      { mfa_token: 'mfa-token-1', code: '123456' },
    ]);
  });

  it('takes a recovery code instead, and "Back to sign in" returns to the password form', async () => {
    const { user, calls } = renderApp('/login', {
      handlers: { 'auth.logIn': () => challenge, 'auth.verifyMfa': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await signInWithPassword(user);
    await user.click(await screen.findByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');

    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText(/^Recovery code/), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(callsTo(calls, 'auth.verifyMfa')[0]?.input).toEqual({ mfa_token: 'mfa-token-1', code: 'abcde-12345' });
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { SOCIAL_ERRORS, SOCIAL_MESSAGES, type Identity } from '../../shared/schemas/social';
import { browser } from '../../client/lib/navigation';
import { callsTo, currentPath, recentProof, renderApp, sampleUser, stepUpRefusal, trpcError, vi } from './utils';

/** Sign-in with GitHub, Google, Microsoft or OpenID Connect on the platform's pages (the server is mocked). */

const providers = { providers: [{ id: 'github', name: 'GitHub' }, { id: 'oidc', name: 'Acme SSO' }] };

function watchNavigation() {
  return vi.spyOn(browser, 'assign').mockImplementation(() => {});
}

/** The start URL the browser was sent to, parsed. */
function startedAt(assign: ReturnType<typeof watchNavigation>, call = 0) {
  const url = new URL(String(assign.mock.calls[call]?.[0]), 'http://localhost');
  return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
}

describe('Login page: sign-in with a provider', () => {
  it('shows a "Continue with" button per configured provider; a click leaves for the start URL with the fingerprint and return_to', async () => {
    const assign = watchNavigation();
    const { user } = renderApp({ pathname: '/login', state: { from: { pathname: '/projects', search: '?page=2', hash: '' } } }, { handlers: { 'social.providers': () => providers } });
    expect(await screen.findByText('Or continue with')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Acme SSO' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue with GitHub' }));

    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const { path, params } = startedAt(assign);
    expect(path).toBe('/api/v1/auth/oauth/github/authorize');
    expect(params.return_to).toBe('/projects?page=2');
    expect(params.device_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // No captcha configured: no token to send.
    expect(params.captcha_token).toBeUndefined();
  });

  it('passes a safe ?return_to= on, and refuses one that leaves the site', async () => {
    const assign = watchNavigation();
    const { user, unmount } = renderApp('/login?return_to=%2Fsettings', { handlers: { 'social.providers': () => providers } });
    await user.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    await waitFor(() => expect(startedAt(assign).params.return_to).toBe('/settings'));
    unmount();

    const second = renderApp('/login?return_to=%2F%2Fevil.example%2Fx', { handlers: { 'social.providers': () => providers } });
    await second.user.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(2));
    expect(startedAt(assign, 1).params.return_to).toBe('/dashboard');
  });

  it("shows a known ?social_error= code's message, and nothing for an unknown code", async () => {
    const { unmount } = renderApp('/login?social_error=link_sent', { handlers: { 'social.providers': () => providers } });
    expect((await screen.findByRole('alert')).textContent).toContain(SOCIAL_ERRORS.link_sent);
    unmount();

    renderApp('/login?social_error=%3Cb%3Epwned%3C%2Fb%3E', { handlers: { 'social.providers': () => providers } });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryAllByText(/pwned/).filter((node) => node.dataset.testid !== 'location')).toHaveLength(0);
  });

  it('#mfa_token= opens the second-factor step, drops the fragment, and lands on return_to', async () => {
    const { user, calls } = renderApp('/login?return_to=%2Fprojects#mfa_token=mfa-social-1', {
      handlers: { 'social.providers': () => providers, 'auth.verifyMfa': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    expect(await screen.findByText('Authentication code')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    await user.type(screen.getByLabelText('Digit 1 of 6'), '123456');
    await waitFor(() => expect(currentPath()).toBe('/projects'));
    expect(callsTo(calls, 'auth.verifyMfa')[0]?.input).toEqual({ mfa_token: 'mfa-social-1', code: '123456' });
  });

  it('a password sign-in also goes to ?return_to=', async () => {
    const { user } = renderApp('/login?return_to=%2Fsettings', { handlers: { 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) } });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentPath()).toBe('/settings'));
  });
});

describe('Signup page: sign-up with a provider', () => {
  it('offers the buttons under "Or sign up with", and none when nothing is configured', async () => {
    const assign = watchNavigation();
    const { user, unmount } = renderApp('/signup', { handlers: { 'social.providers': () => providers } });
    expect(await screen.findByText('Or sign up with')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue with Acme SSO' }));
    await waitFor(() => expect(startedAt(assign).path).toBe('/api/v1/auth/oauth/oidc/authorize'));
    unmount();

    renderApp('/signup', { handlers: { 'social.providers': () => ({ providers: [] }) } });
    expect(await screen.findByRole('button', { name: 'Create account' })).toBeTruthy();
    expect(screen.queryByText('Or sign up with')).toBeNull();
    expect(screen.queryByRole('button', { name: /Continue with/ })).toBeNull();
  });
});

describe('Link account page', () => {
  it('connects with the mailed token once and offers to sign in', async () => {
    const { calls } = renderApp('/link-account?token=tok_1', { handlers: { 'social.confirmLink': () => ({ message: SOCIAL_MESSAGES.linked }) } });
    expect(await screen.findByText(SOCIAL_MESSAGES.linked)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(callsTo(calls, 'social.confirmLink').map((call) => call.input)).toEqual([{ token: 'tok_1' }]);
  });

  it("shows the server's refusal", async () => {
    renderApp('/link-account?token=used', { handlers: { 'social.confirmLink': () => { throw trpcError('BAD_REQUEST', SOCIAL_MESSAGES.linkUsed); } } });
    expect(await screen.findByText(SOCIAL_MESSAGES.linkUsed)).toBeTruthy();
    expect(screen.getByText('Could not connect')).toBeTruthy();
  });

  it('without a token, says the link is invalid and calls nothing', async () => {
    const { calls } = renderApp('/link-account');
    expect(await screen.findByText(SOCIAL_MESSAGES.linkInvalid)).toBeTruthy();
    expect(callsTo(calls, 'social.confirmLink')).toHaveLength(0);
  });
});

const identity: Identity = {
  id: 'id_1',
  provider: 'github',
  provider_name: 'GitHub',
  email: 'ada@users.noreply.example',
  created_at: '2025-03-04T10:00:00.000Z',
  last_used_at: null,
};

describe('Settings → Security → Sign-in methods', () => {
  const securityHandlers = (overrides: Record<string, (input: unknown) => unknown> = {}) => ({
    'auth.listSessions': () => ({ sessions: [] }),
    'passkeys.list': () => ({ passkeys: [] }),
    'social.identities': () => ({ identities: [identity], has_password: false, passkeys: 0, available: [{ id: 'google', name: 'Google' }] }),
    'auth.stepUpStatus': recentProof,
    ...overrides,
  });

  it('lists the connected providers with their dates, the no-password note, and connect buttons that start a link', async () => {
    const assign = watchNavigation();
    const { user } = renderApp('/settings', { user: sampleUser, handlers: securityHandlers() });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    const card = within(await screen.findByRole('list', { name: 'Connected services' }));
    expect(card.getByText('GitHub')).toBeTruthy();
    expect(card.getByText(/ada@users\.noreply\.example/)).toBeTruthy();
    expect(card.getByText('Connected March 4, 2025 · Last used Never')).toBeTruthy();
    expect(screen.getByText(/You sign in without a password/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password' }).getAttribute('href')).toBe('/forgot-password');

    await user.click(screen.getByRole('button', { name: 'Connect Google' }));
    expect(assign).toHaveBeenCalledWith('/api/v1/auth/oauth/google/authorize?intent=link&return_to=%2Fsettings');
  });

  it("asks before removing; the server's refusal of the last way to sign in stays in the dialog", async () => {
    let refuse = true;
    const { user, calls } = renderApp('/settings', {
      user: sampleUser,
      handlers: securityHandlers({
        'social.removeIdentity': () => {
          if (refuse) throw trpcError('CONFLICT', SOCIAL_MESSAGES.lastSignInMethod, 409);
          return { message: SOCIAL_MESSAGES.identityRemoved };
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(await screen.findByRole('button', { name: 'Remove GitHub' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove sign-in method' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(SOCIAL_MESSAGES.lastSignInMethod);

    refuse = false;
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SOCIAL_MESSAGES.identityRemoved)).toBeTruthy();
    expect(callsTo(calls, 'social.removeIdentity').map((call) => call.input)).toEqual([{ id: 'id_1' }, { id: 'id_1' }]);
  });

  it('back from connecting: ?social_linked= opens the Security tab with a notice; an error code shows its message', async () => {
    const { unmount } = renderApp('/settings?social_linked=github', { user: sampleUser, handlers: securityHandlers() });
    expect(await screen.findByText('GitHub connected')).toBeTruthy();
    expect(screen.getByText(SOCIAL_MESSAGES.linked)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Security', selected: true })).toBeTruthy();
    unmount();

    renderApp('/settings?social_error=already_linked', { user: sampleUser, handlers: securityHandlers() });
    expect(await screen.findByText(SOCIAL_ERRORS.already_linked)).toBeTruthy();
  });
});

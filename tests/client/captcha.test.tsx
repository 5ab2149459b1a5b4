import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { browser } from '../../client/lib/navigation';
import { callsTo, renderApp, sampleUser, stubHostedCaptcha, trpcError } from './utils';

// The real widget solves proof of work in workers; here it is an inert element the test drives by its events.
vi.mock('altcha', () => ({}));

const config = (provider: string) => () => ({ enabled: provider !== 'none', provider, site_key: provider === 'none' ? '' : 'site-key' });

async function fillLogin(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'Secret123');
}

describe('CaptchaField', () => {
  it('renders nothing when the captcha is disabled, and the form sends an empty token', async () => {
    const { user, calls, container } = renderApp('/login', {
      handlers: { 'captcha.config': config('none'), 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await waitFor(() => expect(callsTo(calls, 'captcha.config')).toHaveLength(1));
    expect(container.querySelector('altcha-widget')).toBeNull();
    expect(screen.queryByText('Captcha unavailable')).toBeNull();
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(callsTo(calls, 'auth.logIn')).toHaveLength(1));
    expect(callsTo(calls, 'auth.logIn')[0]?.input).toMatchObject({ captcha_token: '' });
  });

  it('renders nothing when the config cannot be read', async () => {
    const { container, calls } = renderApp('/forgot-password');
    await waitFor(() => expect(callsTo(calls, 'captcha.config')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeTruthy();
    expect(container.querySelector('altcha-widget')).toBeNull();
  });

  it('with ALTCHA shows the widget on the challenge URL and sends its solved payload', async () => {
    const { user, calls, container } = renderApp('/login', {
      handlers: { 'captcha.config': config('altcha'), 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await waitFor(() => expect(container.querySelector('altcha-widget')).not.toBeNull());
    const widget = container.querySelector('altcha-widget')!;
    expect(widget.getAttribute('challenge')).toBe('/api/v1/captcha/challenge');
    act(() => {
      widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'c29sdmVk' } }));
    });
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(callsTo(calls, 'auth.logIn')).toHaveLength(1));
    expect(callsTo(calls, 'auth.logIn')[0]?.input).toMatchObject({ captcha_token: 'c29sdmVk' });
  });

  it("with ALTCHA still submits without a token, and shows the server's refusal", async () => {
    const { user, calls, container } = renderApp('/signup', {
      handlers: {
        'captcha.config': config('altcha'),
        'auth.signUp': () => {
          throw trpcError('BAD_REQUEST', 'Captcha verification failed');
        },
      },
    });
    await waitFor(() => expect(container.querySelector('altcha-widget')).not.toBeNull());
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Captcha verification failed')).toBeTruthy();
    expect(callsTo(calls, 'auth.signUp')[0]?.input).toMatchObject({ captcha_token: '' });
  });

  it('with a hosted provider renders its widget with the site key and sends the token its callback gave', async () => {
    const captcha = stubHostedCaptcha('turnstile');
    const { user, calls } = renderApp('/login', {
      handlers: { 'captcha.config': config('turnstile'), 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    await waitFor(() => expect(captcha.siteKey()).toBe('site-key'));
    captcha.solve('turnstile-token-1');
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(callsTo(calls, 'auth.logIn')).toHaveLength(1));
    expect(callsTo(calls, 'auth.logIn')[0]?.input).toMatchObject({ captcha_token: 'turnstile-token-1' });
  });

  it('loads the hosted provider script from its own origin only when that provider is configured', async () => {
    renderApp('/forgot-password', { handlers: { 'captcha.config': config('hcaptcha') } });
    await waitFor(() => expect(document.head.querySelector('script[src^="https://js.hcaptcha.com/1/api.js"]')).not.toBeNull());
    expect(document.head.querySelector('script[src*="challenges.cloudflare.com"]')).toBeNull();
  });
});

describe('"Continue with …" and the captcha', () => {
  const providers = () => ({ providers: [{ id: 'github', name: 'GitHub' }] });
  const github = () => screen.getByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement;

  it('waits for a Turnstile widget to be solved, then starts with its token; held again once it expires', async () => {
    const captcha = stubHostedCaptcha('turnstile');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp('/signup', { handlers: { 'captcha.config': config('turnstile'), 'social.providers': providers } });
    await waitFor(() => expect(captcha.siteKey()).toBe('site-key'));
    await screen.findByRole('button', { name: 'Continue with GitHub' });
    expect(github().disabled).toBe(true);
    expect(screen.getByText('Complete the captcha above to continue with a provider.')).toBeTruthy();

    captcha.solve('turnstile-token-2');
    await waitFor(() => expect(github().disabled).toBe(false));
    expect(screen.queryByText('Complete the captcha above to continue with a provider.')).toBeNull();
    captcha.expire();
    await waitFor(() => expect(github().disabled).toBe(true));

    captcha.solve('turnstile-token-3');
    await waitFor(() => expect(github().disabled).toBe(false));
    await user.click(github());
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(new URL(String(assign.mock.calls[0]?.[0]), 'http://localhost').searchParams.get('captcha_token')).toBe('turnstile-token-3');
  });

  it('with ALTCHA (solved on demand) or no captcha, the buttons are ready at once', async () => {
    const { container, unmount } = renderApp('/login', { handlers: { 'captcha.config': config('altcha'), 'social.providers': providers } });
    await waitFor(() => expect(container.querySelector('altcha-widget')).not.toBeNull());
    expect(github().disabled).toBe(false);
    unmount();
    renderApp('/login', { handlers: { 'captcha.config': config('none'), 'social.providers': providers } });
    expect((await screen.findByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

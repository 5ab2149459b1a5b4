import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { browser } from '../../client/lib/navigation';
import { callsTo, renderApp, sampleUser } from './utils';

/**
 * A form used before its captcha is ready: the configuration still on its way, or ALTCHA's chunk still
 * loading. The token is asked for then and must be the solved one, not '' (which the server refuses:
 * "Continue with GitHub" came back with ?social_error=captcha_failed on a slow machine).
 */
const { deferred, chunk } = vi.hoisted(() => {
  /** A promise the test settles when it says. */
  function deferred<T>() {
    let settle = (_value: T) => {};
    const promise = new Promise<T>((resolve) => (settle = resolve));
    return { promise, settle };
  }
  return { deferred, chunk: deferred<void>() };
});

// ALTCHA's chunk arrives when the test says; its element solves on verify(), as the real one does in workers.
vi.mock('altcha', async () => {
  await chunk.promise;
  class SolvingWidget extends HTMLElement {
    getState() {
      return 'unverified';
    }
    verify() {
      return Promise.resolve({ payload: 'solved-payload' });
    }
  }
  if (!customElements.get('altcha-widget')) customElements.define('altcha-widget', SolvingWidget);
  return {};
});

const altcha = () => ({ enabled: true, provider: 'altcha', site_key: '' });
const providers = () => ({ providers: [{ id: 'github', name: 'GitHub' }] });

afterEach(() => vi.restoreAllMocks());

// One file, one chunk: the first test sees it loading, the later ones loaded (as a page does).
describe('a captcha that is not ready yet', () => {
  it('"Continue with GitHub" clicked while ALTCHA loads waits for it and starts with the solved token', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { user } = renderApp('/login', { handlers: { 'captcha.config': altcha, 'social.providers': providers } });
    const github = await screen.findByRole('button', { name: 'Continue with GitHub' });
    await waitFor(() => expect((github as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByRole('status', { name: 'Loading captcha' })).toBeTruthy();

    await user.click(github);
    expect(assign).not.toHaveBeenCalled();
    chunk.settle();
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(new URL(String(assign.mock.calls[0]?.[0]), 'http://localhost').searchParams.get('captcha_token')).toBe('solved-payload');
  });

  it('the buttons wait for the configuration, without the "complete the captcha" hint, and a sign-in sent meanwhile carries the token', async () => {
    const config = deferred<ReturnType<typeof altcha>>();
    const { user, calls } = renderApp('/login', {
      handlers: { 'captcha.config': () => config.promise, 'social.providers': providers, 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) },
    });
    const github = (await screen.findByRole('button', { name: 'Continue with GitHub' })) as HTMLButtonElement;
    await waitFor(() => expect(callsTo(calls, 'captcha.config')).toHaveLength(1));
    expect(github.disabled).toBe(true);
    expect(screen.queryByText('Complete the captcha above to continue with a provider.')).toBeNull();

    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(callsTo(calls, 'auth.logIn')).toHaveLength(0);

    config.settle(altcha());
    await waitFor(() => expect(callsTo(calls, 'auth.logIn')).toHaveLength(1));
    expect(callsTo(calls, 'auth.logIn')[0]?.input).toMatchObject({ captcha_token: 'solved-payload' });
    await waitFor(() => expect(github.disabled).toBe(false));
  });
});

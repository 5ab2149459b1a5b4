import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import { browser } from '../../client/lib/navigation';
import { currentPath, renderApp, sampleUser, vi } from './utils';

/**
 * An open redirect through the sign-in pages: a link to /login?return_to=… (or a hosted sign-in page)
 * that, once the visitor signs in, takes them to another site. Where the app navigates is read the way
 * the browser would read it (its URL parser drops tabs and newlines and reads `\` as `/`).
 */

const HOSTILE = ['//evil.example', '/\t/evil.example', '/%09/evil.example', '/\\evil.example', ' //evil.example', '/.//evil.example', 'https://evil.example/', 'javascript:alert(1)'];

/** Where a browser would be after the router went to the path the probe shows. */
const browserWouldBeAt = () => new URL(currentPath() ?? '', window.location.origin);

describe('platform sign-in page: return_to', () => {
  it.each(HOSTILE)('%j: a password sign-in lands on the dashboard', async (returnTo) => {
    const { user } = renderApp(`/login?return_to=${encodeURIComponent(returnTo)}`, { handlers: { 'auth.logIn': () => ({ user: sampleUser, expires_in: 86400 }) } });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(browserWouldBeAt().origin).toBe(window.location.origin);
  });

  it.each(HOSTILE)('%j: a visitor already signed in is sent to the dashboard', async (returnTo) => {
    renderApp(`/login?return_to=${encodeURIComponent(returnTo)}`, { user: sampleUser });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it("a guard's remembered location that is not a path of the site is dropped", async () => {
    renderApp({ pathname: '/login', state: { from: { pathname: '/\t/evil.example', search: '', hash: '' } } }, { user: sampleUser });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it('a path of the site is kept, with its query', async () => {
    renderApp(`/login?return_to=${encodeURIComponent('/projects?page=2')}`, { user: sampleUser });
    await waitFor(() => expect(currentPath()).toBe('/projects?page=2'));
  });
});

describe('hosted sign-in page: return_to', () => {
  const KEY = 'pk_demo';
  const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };
  const signedIn = { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, user: sampleUser };

  function mockHostedApi() {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(`/hosted/${KEY}/api/v1`, '');
      const answers: Record<string, unknown> = {
        'GET /project': project,
        'GET /captcha/config': { enabled: false, provider: 'none', site_key: '' },
        'GET /auth/oauth/providers': { providers: [] },
        'POST /auth/login': signedIn,
        'GET /profile': sampleUser,
      };
      const answer = answers[`${init?.method ?? 'GET'} ${path}`];
      return new Response(JSON.stringify(answer ?? { detail: 'Not Found' }), { status: answer ? 200 : 404, headers: { 'content-type': 'application/json' } });
    });
  }

  it.each([...HOSTILE, `/hosted/${KEY}/../other/account`, `/hosted/${KEY}/%2e%2e/other/account`, `/hosted/${KEY}/../../dashboard`])(
    "%j: a password sign-in stays on the project's pages",
    async (returnTo) => {
      mockHostedApi();
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      const { user } = renderApp(`/hosted/${KEY}/sign-in?return_to=${encodeURIComponent(returnTo)}`);
      await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
      await user.type(screen.getByLabelText(/^Password/), 'Secret123');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/account`));
      expect(assign).not.toHaveBeenCalled();
    },
  );
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callsTo, currentPath, currentState, renderApp, sampleUser, unauthorized } from './utils';
import type { User } from '../../shared/schemas/user';

describe('route guards', () => {
  it('shows a spinner while the session loads, then sends visitors to /login remembering "from"', async () => {
    let release: () => void = () => {};
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderApp('/settings?tab=security', {
      handlers: {
        'auth.session': async () => {
          await pending;
          throw Object.assign(new Error('x'), {});
        },
      },
    });
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    release();
    // A non-UNAUTHORIZED failure also leaves the visitor signed out.
    await waitFor(() => expect(currentPath()).not.toBe('/settings?tab=security'));
  });

  it('redirects a signed-out visitor from a protected page to /login with from', async () => {
    const { calls } = renderApp('/projects');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toMatchObject({ from: { pathname: '/projects' } });
    // The probe is auth.session, which answers a visitor without an error; auth.me would answer 401.
    expect(callsTo(calls, 'auth.session')).toHaveLength(1);
    expect(callsTo(calls, 'auth.me')).toHaveLength(0);
  });

  it('treats session cookies that no longer work (auth.session UNAUTHORIZED) as signed out', async () => {
    renderApp('/projects', {
      handlers: {
        'auth.session': () => {
          throw unauthorized();
        },
      },
    });
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(currentState()).toMatchObject({ from: { pathname: '/projects' } });
  });

  it.each(['/login', '/signup'])('sends a signed-in user away from %s to /dashboard', async (path) => {
    renderApp(path, { user: sampleUser });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
  });

  it('redirects unknown paths to /', async () => {
    renderApp('/no/such/page');
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it.each([
    ['/api-keys', 'API keys'],
    ['/analytics', 'Analytics'],
  ])('%s shows its own screen', async (path, heading) => {
    renderApp(path, { user: sampleUser, handlers: { 'projects.list': () => ({ projects: [] }) } });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(await screen.findByText('Create a project first')).toBeTruthy();
  });
});

describe('header', () => {
  it('shows Login and Sign Up to visitors', async () => {
    renderApp('/');
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(within(banner).getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    expect(within(banner).queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });

  it('shows Dashboard and Projects but not Admin to a user, labelled with the first name', async () => {
    renderApp('/dashboard', { user: sampleUser });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Projects' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Account menu for Ada' })).toBeTruthy();
  });

  it('shows the Admin link to admins and labels the menu with the e-mail when there is no first name', async () => {
    const admin: User = { ...sampleUser, role: 'admin', first_name: null };
    renderApp('/admin', { user: admin });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' })).toBeTruthy();
    expect(screen.getByRole('button', { name: `Account menu for ${admin.email}` })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeTruthy();
  });

  it('hides the Admin link and the admin area from an admin whose e-mail is not verified yet', async () => {
    renderApp('/admin', { user: { ...sampleUser, role: 'admin', is_verified: false } });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeTruthy();
  });

  it('tells a non-admin that the admin area is not for them', async () => {
    renderApp('/admin', { user: sampleUser });
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeTruthy();
  });

  it('mobile menu shows the full name and the e-mail, and closes when a link is chosen', async () => {
    const { user } = renderApp('/dashboard', { user: sampleUser });
    await user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const mobile = await screen.findByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(mobile).getByText('ada@example.com')).toBeTruthy();
    await user.click(within(mobile).getByRole('link', { name: 'Projects' }));
    await waitFor(() => expect(currentPath()).toBe('/projects'));
    expect(screen.getByRole('button', { name: 'Open navigation' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('sign out calls auth.logOut, toasts and goes to /login', async () => {
    const { user, calls } = renderApp('/dashboard', {
      user: sampleUser,
      handlers: { 'auth.logOut': () => ({ message: 'Logged out successfully' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Account menu for Ada' }));
    // hidden: true: the menu is display: none once floating-ui has placed it in jsdom (see tests/client/webhooks.test.tsx).
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out', hidden: true }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(callsTo(calls, 'auth.logOut')).toHaveLength(1);
    expect(await screen.findByText('Logged out successfully')).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeTruthy();
  });

  it('a failing logout is logged, clears the user and shows no message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/dashboard', {
      user: sampleUser,
      handlers: {
        'auth.logOut': () => {
          throw new Error('down');
        },
        // The dashboard's own figures load fine: any alert would be the logout's.
        'projects.dashboardStats': () => ({
          total_projects: 0,
          active_projects: 0,
          total_api_keys: 0,
          active_api_keys: 0,
          total_project_users: 0,
          total_api_requests_today: 0,
          total_api_requests_month: 0,
          api_requests_last_7_days: [],
        }),
        'projects.list': () => ({ projects: [] }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Account menu for Ada' }));
    // hidden: true: the menu is display: none once floating-ui has placed it in jsdom (see tests/client/webhooks.test.tsx).
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out', hidden: true }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(error).toHaveBeenCalled();
    expect(screen.queryByText('Logged out successfully')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('footer', () => {
  it('has the year, System Status, the documentation, the forgot-password link and the product sentence', async () => {
    renderApp('/');
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeTruthy();
    expect(within(footer).getByRole('link', { name: 'System Status' }).getAttribute('href')).toBe('/status');
    expect(within(footer).getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(within(footer).getByRole('link', { name: 'Documentation' }).getAttribute('href')).toBe('/api-docs');
    expect(within(footer).getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api-docs#api-reference');
    expect(within(footer).getByText(/authentication system with device fingerprinting and VPN detection/)).toBeTruthy();
  });

  it("links no legal page the operator has not given, and the ones it has (PRIVACY_URL, TERMS_URL)", async () => {
    const { unmount } = renderApp('/login');
    await screen.findByRole('button', { name: 'Sign in' });
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).queryByText('Legal')).toBeNull();
    expect(screen.queryByText(/you agree to our/)).toBeNull();
    unmount();

    const meta = withSiteMeta({ landingPage: true, privacyUrl: 'https://example.com/privacy', termsUrl: 'https://example.com/terms' });
    try {
      renderApp('/login');
      await screen.findByRole('button', { name: 'Sign in' });
      const legal = within(screen.getByRole('contentinfo'));
      expect(legal.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('https://example.com/privacy');
      expect(legal.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('https://example.com/terms');
      const notice = screen.getByText((_, element) => element?.tagName === 'P' && /^By signing in you agree to our Terms of Service and Privacy Policy\.$/.test(element.textContent ?? ''));
      expect(within(notice).getByRole('link', { name: 'Terms of Service' }).getAttribute('rel')).toBe('noopener noreferrer');
      expect(within(notice).getByRole('link', { name: 'Privacy Policy' })).toBeTruthy();
    } finally {
      meta.remove();
    }
  });
});

describe('the landing page', () => {
  it('is the sign-in when the operator turned it off (LANDING_PAGE=off)', async () => {
    const meta = withSiteMeta({ landingPage: false, privacyUrl: null, termsUrl: null });
    try {
      renderApp('/');
      await waitFor(() => expect(currentPath()).toBe('/login'));
      expect(screen.queryByText('$29')).toBeNull();
    } finally {
      meta.remove();
    }
  });
});

describe('System Status', () => {
  afterEach(() => vi.restoreAllMocks());

  function serveProbes(health: unknown, ready: unknown) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/health') return Response.json(health);
      if (url === '/ready') return Response.json(ready, { status: (ready as { status: string }).status === 'ready' ? 200 : 503 });
      throw new Error(`unexpected fetch ${url}`);
    });
  }

  it("says the server's probes in words", async () => {
    serveProbes({ status: 'ok', database: 'ok', version: '0.1.0', uptime_s: 7500 }, { status: 'ready', database: 'ok', migrations: 'ok', pending_migrations: [] });
    renderApp('/status');
    expect(await screen.findByText('All systems operational')).toBeTruthy();
    const components = within(screen.getByRole('table', { name: 'Components' }));
    expect(components.getByText('version 0.1.0, up 2 h 5 min')).toBeTruthy();
    expect(components.getByText('Up to date')).toBeTruthy();
  });

  it('says when the database is away or migrations are pending', async () => {
    serveProbes(
      { status: 'ok', database: 'ok', version: '0.1.0', uptime_s: 60 },
      { status: 'not_ready', database: 'ok', migrations: 'pending', pending_migrations: ['2026_11_26_0600_notify_lookup_changes'] },
    );
    renderApp('/status');
    expect(await screen.findByText('Degraded service')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText('2026_11_26_0600_notify_lookup_changes')).toBeTruthy();
  });
});

/** The meta tag the server writes into index.html (server/plugins/static-client.ts). */
function withSiteMeta(site: { landingPage: boolean; privacyUrl: string | null; termsUrl: string | null }) {
  const meta = document.createElement('meta');
  meta.name = 'authplatform-site';
  meta.content = JSON.stringify(site);
  document.head.append(meta);
  return meta;
}

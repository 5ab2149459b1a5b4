import type { ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { onTestFinished, vi } from 'vitest';
import type { AppRouter } from '../../server/trpc/router';
import type { ProjectSettings } from '../../shared/schemas/project-settings';
import type { Project } from '../../shared/schemas/projects';
import { AppProviders, createQueryClient } from '../../client/App';
import { SessionEvents } from '../../client/auth/AuthProvider';
import { createPlatformApiClient } from '../../client/lib/api-client';
import { createRefreshCoordinator } from '../../client/lib/session-refresh';
import { trpc } from '../../client/lib/trpc';
import { AppRoutes } from '../../client/routes';
import type { User } from '../../shared/schemas/user';

export type Handler = (input: unknown) => unknown;
export type Handlers = Record<string, Handler>;

/** A tRPC error as the server sends it: `.message` is the detail, `.data.code` the tRPC code. */
export function trpcError(code: string, message: string, httpStatus = 400) {
  return TRPCClientError.from({ error: { message, code: -32000, data: { code, httpStatus } } });
}

export const unauthorized = () => trpcError('UNAUTHORIZED', 'Not authenticated', 401);

/** The server's refusal of a sensitive change for want of a recent proof (its data says step_up_required). */
export function stepUpRefusal(methods: string[] = ['password']) {
  return TRPCClientError.from({
    error: { message: 'Confirm it is you to continue', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401, step_up_required: true, step_up_methods: methods } },
  });
}

/** auth.stepUpStatus of a session that signed in (or stepped up) a moment ago. */
export const recentProof = () => ({ step_up_required: false, step_up_methods: ['password'], expires_at: '2030-01-01T00:00:00.000Z' });

/** A terminating link that answers from `handlers` (path → function), recording every call. */
export function mockLink(handlers: Handlers, calls: { path: string; input: unknown }[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = handlers[op.path];
        Promise.resolve()
          .then(() => {
            if (!handler) throw trpcError('NOT_FOUND', `No handler for ${op.path}`, 404);
            return handler(op.input);
          })
          .then(
            (data) => {
              observer.next({ result: { type: 'data', data } });
              observer.complete();
            },
            (error: unknown) => observer.error(error instanceof TRPCClientError ? error : TRPCClientError.from(error as Error)),
          );
      });
}

export const sampleUser: User = {
  id: 'u_1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  company_name: 'Analytical Engines',
  website_url: null,
  role: 'user',
  is_active: true,
  is_verified: true,
  login_notifications: true,
  email_notifications: true,
  notify_security_alerts: true,
  notify_product_updates: false,
  notify_marketing: false,
  mfa_enabled: false,
  session_idle_timeout_minutes: null,
  locale: null,
  created_at: '2025-01-02T10:00:00.000Z',
  last_login: '2025-06-01T09:30:00.000Z',
};

export const sampleAdmin: User = { ...sampleUser, id: 'u_admin', email: 'root@example.com', role: 'admin' };

/** Monitoring figures of a realm with one user and no traffic yet. */
export const quietStats = {
  total_users: 1,
  active_users: 1,
  verified_users: 1,
  failed_logins: 0,
  successful_logins: 0,
  total_login_attempts: 0,
  blocked_vpn_attempts: 0,
  unique_devices: 0,
};

/** A project as projects.* answer it; the OpenID Connect fields follow the key, as the server builds them. */
export function sampleProject(overrides: Partial<Project> & Pick<Project, 'id' | 'name'>): Project {
  const projectKey = overrides.project_key ?? `pk_${overrides.id}`;
  return {
    description: null,
    website_url: null,
    environment: 'development',
    project_key: projectKey,
    is_active: true,
    total_users: 1,
    total_logins: 1,
    total_signups: 1,
    issuer: `http://localhost:3000/projects/${projectKey}`,
    redirect_uris: [],
    post_logout_redirect_uris: [],
    allowed_origins: [],
    logo_url: null,
    accent_color: null,
    hosted_pages_url: `http://localhost:3000/hosted/${projectKey}`,
    role: 'owner',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** projectSettings.get of a project that changed none of the platform's rules. */
export const sampleEndUserSettings: ProjectSettings = {
  project_id: 'p_1',
  password_min_length: 8,
  password_check_breached: true,
  access_token_ttl_s: 86_400,
  refresh_token_ttl_s: 604_800,
  captcha_provider: 'platform',
  captcha_site_key: null,
  captcha_secret_set: false,
  vpn_policy: 'allow',
  allow_unverified_sign_in: true,
  mail_sender_name: null,
  mail_product_name: null,
  mail_accent_color: null,
  mail_secured_by: true,
  mail_templates: { verification: null, password_reset: null, password_changed: null, magic_link: null, email_code: null },
  sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true, connections: {} },
  string_overrides: {},
  updated_at: null,
};

export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
      {location.search}
    </div>
  );
}

export function currentPath() {
  return screen.getByTestId('location').textContent;
}

export function currentState(): Record<string, unknown> | null {
  return JSON.parse(screen.getByTestId('location').getAttribute('data-state') ?? 'null');
}

/**
 * Renders the real route table at `route` with a mocked server. `user` null means a visitor without session
 * cookies: auth.session answers `{ user: null }`, as the server does.
 */
export function renderApp(
  route: string | { pathname: string; search?: string; state?: unknown },
  { handlers = {}, user = null, ui }: { handlers?: Handlers; user?: User | null; ui?: ReactElement } = {},
) {
  const calls: { path: string; input: unknown }[] = [];
  const all: Handlers = {
    'auth.session': () => ({ user }),
    ...handlers,
  };
  const sessionEvents = new SessionEvents();
  const queryClient = createQueryClient();
  // The refresh link has its own tests (refresh-link.test.tsx); here the server is answered directly.
  const trpcClient = trpc.createClient({ links: [mockLink(all, calls)] });
  // The REST client (a project's webhooks) refreshes through auth.refresh of the mocked server, as in the app.
  const sessionClient = createTRPCClient<AppRouter>({ links: [mockLink(all, calls)] });
  const platformApi = createPlatformApiClient(
    createRefreshCoordinator({ realm: 'platform', refresh: () => sessionClient.auth.refresh.mutate({}), onRefreshFailed: () => sessionEvents.emit(), tabs: { kind: 'none' } }),
  );
  const entry = route;
  // A data router as in the app (App.tsx), so screens may use useBlocker.
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <AppProviders trpcClient={trpcClient} platformApi={platformApi} queryClient={queryClient} sessionEvents={sessionEvents}>
            {ui ?? <AppRoutes />}
            <LocationProbe />
          </AppProviders>
        ),
      },
    ],
    { initialEntries: [entry] },
  );
  const result = render(<RouterProvider router={router} useTransitions={false} />);
  return { ...result, calls, user: userEvent.setup(), queryClient, router };
}

/**
 * Watches the page's timers (window.setTimeout, which still runs them for real) so a test can fire the one
 * a screen schedules for a hint or a redirect at once, inside act, instead of waiting out its seconds:
 * `fire(ms)` fails unless a timer of exactly `ms` was scheduled, so the delay stays part of what is tested.
 */
export function watchTimers() {
  const scheduled = vi.spyOn(window, 'setTimeout');
  return {
    fire(ms: number) {
      const call = scheduled.mock.calls.filter(([, delay]) => delay === ms).at(-1);
      if (!call) throw new Error(`no timer of ${ms} ms was scheduled`);
      act(() => (call[0] as () => void)());
    },
  };
}

/**
 * A stand-in for Turnstile's or hCaptcha's script (`window.turnstile`, `window.hcaptcha`) for one test: it keeps
 * the options the widget was rendered with, and the test solves or expires it through their callbacks.
 */
export function stubHostedCaptcha(provider: 'turnstile' | 'hcaptcha') {
  let options: Record<string, unknown> = {};
  const scripts = window as unknown as Record<string, unknown>;
  scripts[provider] = { render: vi.fn((_el: HTMLElement, given: Record<string, unknown>) => ((options = given), 'widget-1')), reset: vi.fn() };
  onTestFinished(() => {
    delete scripts[provider];
  });
  return {
    /** The site key the widget was rendered with; undefined until it is. */
    siteKey: () => options.sitekey,
    solve: (token: string) => act(() => (options.callback as (token: string) => void)(token)),
    expire: () => act(() => (options['expired-callback'] as () => void)()),
  };
}

export function callsTo(calls: { path: string; input: unknown }[], path: string) {
  return calls.filter((call) => call.path === path);
}

export { vi };

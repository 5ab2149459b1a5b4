import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, linkIn, seriousAxeViolations, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * axe-core on every screen, in both themes: no serious or critical violation of WCAG 2.1 A and AA
 * (contrast, names of controls, landmarks, ARIA). Minor and moderate findings are printed, not failed.
 */

const THEMES = ['light', 'dark'] as const;

const PUBLIC_SCREENS = [
  { path: '/', heading: /Authentication your users trust/ },
  { path: '/login', heading: 'Welcome back' },
  { path: '/signup', heading: 'Create your developer account' },
  { path: '/forgot-password', heading: 'Forgot your password?' },
  { path: '/reset-password', heading: 'Invalid Reset Link' },
  { path: '/verify-email', heading: 'Email verification' },
  { path: '/api-docs', heading: 'API documentation' },
  { path: '/status', heading: 'System status' },
];

const SIGNED_IN_SCREENS = [
  { path: '/dashboard', heading: 'Dashboard' },
  { path: '/projects', heading: 'Projects' },
  { path: '/monitoring', heading: 'Monitoring' },
  { path: '/profile', heading: 'Profile' },
  { path: '/settings', heading: 'Settings' },
  { path: '/settings?tab=security', heading: 'Settings' },
];

/**
 * Opens the screen and scans it in each theme. The dashboard and the hosted pages follow the system's colour scheme
 * until a person picks one, so the screen is switched the way a user's system switches it, without loading it again.
 */
async function scan(page: Page, path: string, heading: string | RegExp) {
  await page.emulateMedia({ colorScheme: THEMES[0] });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    expect(await seriousAxeViolations(page), `${path} in ${theme}`).toEqual([]);
  }
}

for (const screen of PUBLIC_SCREENS) {
  test(`${screen.path} has no serious accessibility violations (light and dark)`, async ({ page }) => {
    await scan(page, screen.path, screen.heading);
  });
}

test('signed-in screens have no serious accessibility violations (light and dark)', async ({ page }) => {
  test.slow();
  const email = uniqueEmail('axe');
  // Unverified first: the warning banner is one of the findings this guards.
  await signUpViaApi(page.request, { email, firstName: 'Ada', lastName: 'Lovelace' });
  expect((await page.request.post('/trpc/auth.logIn', { data: { email, password: PASSWORD, captcha_token: '', device_fingerprint: null } })).ok()).toBe(true);
  await scan(page, '/dashboard', 'Dashboard');
  await scan(page, '/profile', 'Profile');

  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  expect((await page.request.post('/trpc/auth.logIn', { data: { email, password: PASSWORD, captcha_token: '', device_fingerprint: null } })).ok()).toBe(true);
  for (const screen of SIGNED_IN_SCREENS) await scan(page, screen.path, screen.heading);

  // A project's screens, with a key and its settings.
  const project = await trpc<{ id: string; name: string }>(page, 'projects.create', { name: 'Axe', environment: 'development' });
  await trpc(page, 'projects.createApiKey', { id: project.id, name: 'backend' });
  for (const tab of ['', '/settings/general', '/settings/sign-in', '/settings/branding', '/settings/mails', '/settings/webhooks', '/settings/rules', '/settings/team', '/settings/danger', '?tab=organizations', '?tab=roles']) await scan(page, `/projects/${project.id}${tab}`, project.name);
  await scan(page, '/api-keys', 'API keys');
  await scan(page, '/analytics', 'Analytics');
  await scan(page, `/monitoring?project=${project.id}`, 'Monitoring');
});

test('the admin area has no serious accessibility violations (light and dark)', async ({ page }) => {
  test.slow();
  expect((await page.request.post('/trpc/auth.logIn', { data: { email: E2E.adminEmail, password: PASSWORD, captcha_token: '', device_fingerprint: null } })).ok()).toBe(true);
  for (const tab of ['', '?tab=users', '?tab=attempts', '?tab=devices', '?tab=sessions', '?tab=audit']) await scan(page, `/admin${tab}`, 'Admin');
});

test("a project's hosted pages have no serious accessibility violations (light and dark)", async ({ page }) => {
  test.slow();
  // A branded project (its accent on the buttons and links), as its end users see it.
  const developer = uniqueEmail('axe-hosted-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Dana' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page, 'auth.verifyEmail', { token });
  await trpc(page, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ project_key: string }>(page, 'projects.create', { name: 'Axe Notes', environment: 'development', accent_color: '#0ca678' });
  const hosted = `/hosted/${project.project_key}`;

  await scan(page, `${hosted}/sign-in`, /Sign in/);
  await scan(page, `${hosted}/sign-up`, /Create your account|Sign up/);
  await scan(page, `${hosted}/forgot-password`, /password/i);
  const endUser = uniqueEmail('axe-hosted-user');
  expect((await page.request.post(`${hosted}/api/v1/auth/signup`, { data: { email: endUser, password: PASSWORD, first_name: 'Ada' } })).ok()).toBe(true);
  expect((await page.request.post(`${hosted}/api/v1/auth/login`, { data: { email: endUser, password: PASSWORD } })).ok()).toBe(true);
  await scan(page, `${hosted}/account`, /Ada|account/i);
});

async function trpc<T>(page: Page, procedure: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

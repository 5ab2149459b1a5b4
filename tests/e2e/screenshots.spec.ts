import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail, visuallySettled, captureScreen } from './support';

/**
 * Screenshots of the main screens in both themes (and at 375 px) into E2E.screenshotDir, for review.
 * Each screen is checked for its heading before it is captured.
 */

const THEMES = ['light', 'dark'] as const;

const PUBLIC_SCREENS = [
  { name: 'landing', path: '/', heading: /Authentication your users trust/ },
  { name: 'login', path: '/login', heading: 'Welcome back' },
  { name: 'signup', path: '/signup', heading: 'Create your developer account' },
  { name: 'api-docs', path: '/api-docs', heading: 'API documentation' },
  { name: 'forgot-password', path: '/forgot-password', heading: 'Forgot your password?' },
  { name: 'reset-password-invalid', path: '/reset-password', heading: 'Invalid Reset Link' },
  { name: 'verify-email-invalid', path: '/verify-email', heading: 'Email verification' },
];

// Dashboard, projects, project detail, API keys and analytics: see "the project screens" below (they need data).
const PRIVATE_SCREENS = [
  { name: 'profile', path: '/profile', heading: 'Profile' },
  { name: 'settings', path: '/settings', heading: 'Settings' },
];

async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), theme);
}

/** Signs up, verifies (two factors and passkeys need it) and signs in through the API (no toast on the screenshots). */
async function signIn(page: Page, tag: string, email = uniqueEmail(tag)) {
  await signUpViaApi(page.request, { email, firstName: 'Jordan', lastName: 'Rivera' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  const response = await page.request.post('/trpc/auth.logIn', {
    data: { email, password: PASSWORD, captcha_token: '', device_fingerprint: null },
  });
  expect(response.ok()).toBe(true);
}

async function capture(page: Page, file: string, heading: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  // Half a second of quiet per screen buys a picture without a late avatar or chart; without pictures (CI), the heading will do.
  if (E2E.captureScreenshots) await page.waitForLoadState('networkidle');
  await captureScreen(page, file);
}

/** Settings → Security with the authenticator enrolment (QR code and setup key) open. */
async function openTwoFactorSetup(page: Page) {
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Set up' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
}

/** Settings → Security with a passkey added through Chromium's virtual authenticator. */
async function addPasskey(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('listitem', { name: 'Passkey 1' })).toBeVisible();
  await page.getByRole('alert').filter({ hasText: 'added' }).waitFor({ state: 'detached', timeout: 10_000 });
  await page.getByRole('heading', { name: 'Passkeys' }).scrollIntoViewIfNeeded();
}

/** Settings → Danger Zone with the confirmation (password) form open. */
async function openDangerZone(page: Page) {
  await page.getByRole('tab', { name: 'Danger Zone' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('textbox', { name: 'Current password' })).toBeVisible();
}

/** A developer with an authenticator app, signed out, at the second step of the login page. */
async function reachSecondFactorStep(page: Page, tag: string) {
  const email = uniqueEmail(tag);
  await signIn(page, tag, email);
  const setup = await trpcMutation<{ secret: string }>(page, 'mfa.setUpTotp', {});
  await trpcMutation(page, 'mfa.confirmTotp', { code: new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate() });
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toBeFocused();
}

for (const theme of THEMES) {
  test(`screenshots of the second-factor step (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    await reachSecondFactorStep(page, `shots-2fa-${theme}`);
    await capture(page, `login-second-factor-${theme}`, 'Two-factor authentication');
  });

  test(`screenshots of the public screens (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    for (const screen of PUBLIC_SCREENS) {
      await page.goto(screen.path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await capture(page, `${screen.name}-${theme}`, screen.heading);
    }
  });

  test(`screenshots of the signed-in screens (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    await signIn(page, `shots-${theme}`);
    for (const screen of PRIVATE_SCREENS) {
      await page.goto(screen.path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await capture(page, `${screen.name}-${theme}`, screen.heading);
    }
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Security' }).click();
    await capture(page, `settings-security-${theme}`, 'Settings');
    await openTwoFactorSetup(page);
    await capture(page, `settings-2fa-setup-${theme}`, 'Settings');
    await addPasskey(page);
    await capture(page, `settings-passkeys-${theme}`, 'Settings');
    await openDangerZone(page);
    await capture(page, `settings-danger-${theme}`, 'Settings');
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('screenshots of the mobile layout', async ({ page }) => {
    await useTheme(page, 'light');
    await page.goto('/');
    await capture(page, 'landing-mobile-light', /Authentication your users trust/);
    await page.goto('/signup');
    await capture(page, 'signup-mobile-light', 'Create your developer account');

    await signIn(page, 'shots-mobile');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    await captureScreen(page, 'menu-mobile-light', { fullPage: false });
  });

  test('screenshots of the mobile layout (dark)', async ({ page }) => {
    await useTheme(page, 'dark');
    await signIn(page, 'shots-mobile-dark');
    await page.goto('/settings');
    await capture(page, 'settings-mobile-dark', 'Settings');
    await openTwoFactorSetup(page);
    await capture(page, 'settings-2fa-setup-mobile-dark', 'Settings');
    await expectNoSidewaysScroll(page);
    await addPasskey(page);
    await capture(page, 'settings-passkeys-mobile-dark', 'Settings');
    await expectNoSidewaysScroll(page);
    await openDangerZone(page);
    await capture(page, 'settings-danger-mobile-dark', 'Settings');
    await expectNoSidewaysScroll(page);
  });

  test('screenshot of the second-factor step at 375 px', async ({ page }) => {
    await useTheme(page, 'light');
    await reachSecondFactorStep(page, 'shots-2fa-mobile');
    await capture(page, 'login-second-factor-mobile-light', 'Two-factor authentication');
    await expectNoSidewaysScroll(page);
  });
});

/* ---------------------------------------------------------------------------------------------------------
 * The project screens (dashboard, projects, project detail, API keys, analytics) on real data: a verified
 * developer with three projects, keys (one revoked) and some end-user traffic through the public API today.
 * ------------------------------------------------------------------------------------------------------- */

async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/trpc/${path}`, { data: input });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

const SHOPPER_NAMES = ['Maya Chen', 'Liam Ortiz', 'Sofia Rossi', 'Noah Patel', 'Emma Larsen'];

/** A verified developer, signed in through the API, with projects, keys and traffic. Returns the main project's id. */
async function seedDeveloper(page: Page, tag: string): Promise<{ projectId: string }> {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Jordan', lastName: 'Rivera' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  expect((await page.request.post('/trpc/auth.logIn', { data: { email, password: PASSWORD, captcha_token: '', device_fingerprint: null } })).ok()).toBe(true);

  const internal = await trpcMutation<{ id: string }>(page, 'projects.create', {
    name: 'Internal Tools',
    description: 'Development sandbox for the internal admin tools.',
    website_url: null,
    environment: 'development',
  });
  await trpcMutation(page, 'projects.update', { id: internal.id, is_active: false });
  const banking = await trpcMutation<{ id: string }>(page, 'projects.create', {
    name: 'Mobile Banking Beta',
    description: 'Staging for the mobile banking app: step-up auth and VPN detection.',
    website_url: 'https://beta.bank.example',
    environment: 'staging',
  });
  const store = await trpcMutation<{ id: string }>(page, 'projects.create', {
    name: 'Acme Storefront',
    description: 'Customer sign-in for the Acme online store, with device checks.',
    website_url: 'https://shop.acme.example',
    environment: 'production',
  });

  const old = await trpcMutation<{ id: string }>(page, 'projects.createApiKey', { id: store.id, name: 'Old laptop script' });
  await trpcMutation(page, 'projects.revokeApiKey', { id: store.id, key_id: old.id });
  const live = await trpcMutation<{ secret: string }>(page, 'projects.createApiKey', { id: store.id, name: 'Production backend' });
  const beta = await trpcMutation<{ secret: string }>(page, 'projects.createApiKey', { id: banking.id, name: 'Staging worker' });

  const call = async (key: string, path: string, data: object, status: number) => {
    const response = await page.request.post(`/public/api/v1${path}`, { headers: { 'X-API-Key': key }, data });
    expect(response.status(), await response.text()).toBe(status);
  };
  const shoppers = Array.from({ length: 5 }, (_, i) => uniqueEmail(`shopper${i}`));
  for (const [i, shopper] of shoppers.entries()) {
    const [first_name, last_name] = SHOPPER_NAMES[i]!.split(' ');
    await call(live.secret, '/auth/signup', { email: shopper, password: PASSWORD, first_name, last_name }, 201);
  }
  for (const shopper of [...shoppers, ...shoppers.slice(0, 3)]) await call(live.secret, '/auth/login', { email: shopper, password: PASSWORD }, 200);
  for (const shopper of shoppers.slice(0, 2)) await call(live.secret, '/auth/login', { email: shopper, password: 'Wrong-Horse-00' }, 401);
  const tester = uniqueEmail('tester');
  await call(beta.secret, '/auth/signup', { email: tester, password: PASSWORD }, 201);
  await call(beta.secret, '/auth/login', { email: tester, password: PASSWORD }, 200);
  return { projectId: store.id };
}

/** On /api-keys: a new key in the UI, with the one-time secret modal open (its toast dismissed). */
async function openSecretModal(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'Key name' }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('dialog', { name: 'Your new API key' })).toBeVisible();
  await page.getByRole('alert').filter({ hasText: 'API key created' }).getByRole('button').click();
  await expect(page.getByRole('alert').filter({ hasText: 'API key created' })).toHaveCount(0);
  await visuallySettled(page);
}

/** Phones: nothing on the project screens may be wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function captureProjectScreens(page: Page, suffix: string, projectId: string) {
  const check = suffix.startsWith('mobile') ? () => expectNoSidewaysScroll(page) : async () => {};
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Total users' }).getByTestId('stat-value')).toHaveText('6');
  await capture(page, `dashboard-${suffix}`, 'Dashboard');
  await check();

  await page.goto('/projects');
  await expect(page.getByRole('article', { name: 'Acme Storefront' })).toBeVisible();
  await capture(page, `projects-${suffix}`, 'Projects');
  await check();

  await page.goto(`/projects/${projectId}`);
  await expect(page.getByRole('region', { name: 'Monthly active users' })).toBeVisible();
  await capture(page, `project-detail-${suffix}`, 'Acme Storefront');
  await check();
  await page.goto(`/projects/${projectId}/settings/general`);
  await capture(page, `project-settings-${suffix}`, 'Acme Storefront');
  await check();
  await page.goto(`/projects/${projectId}/settings/branding`);
  await expect(page.getByRole('img', { name: /hosted sign-in page/ })).toBeVisible();
  await capture(page, `project-settings-branding-${suffix}`, 'Acme Storefront');
  await check();

  // Settings in sections: the mails section's kinds stay readable at 375 px.
  await page.goto(`/projects/${projectId}/settings/mails`);
  await expect(page.getByRole('radiogroup', { name: 'Mail' })).toBeVisible();
  await capture(page, `project-settings-mails-${suffix}`, 'Acme Storefront');
  await check();

  // Monitoring's tabs (at 375 px with the hint that there are more), then a page per user.
  await page.goto(`/monitoring?project=${projectId}&tab=users`);
  // A table at 1280 px, a list of cards on a phone.
  const maya = page.getByRole('main').getByRole('link', { name: SHOPPER_NAMES[0] });
  await expect(maya).toBeVisible();
  await capture(page, `monitoring-users-${suffix}`, 'Monitoring');
  await check();
  await maya.click();
  await expect(page).toHaveURL(/\/monitoring\/users\//);
  await expect(page.getByRole('table', { name: 'Recent login attempts' }).getByText('Success').first()).toBeVisible();
  await capture(page, `user-page-${suffix}`, SHOPPER_NAMES[0]!);
  await check();

  await page.goto(`/api-keys?project=${projectId}`);
  await expect(page.getByRole('listitem', { name: 'Production backend' })).toBeVisible();
  await capture(page, `api-keys-${suffix}`, 'API keys');
  await check();
  await openSecretModal(page, 'CI runner');
  await captureScreen(page, `api-keys-secret-${suffix}`, { fullPage: false });

  await page.goto(`/analytics?project=${projectId}`);
  await expect(page.getByRole('region', { name: 'Signups and logins per day' }).locator('.recharts-surface')).toBeVisible();
  await capture(page, `analytics-${suffix}`, 'Analytics');
  await check();
}

for (const theme of THEMES) {
  test(`screenshots of the project screens (${theme})`, async ({ page }) => {
    test.setTimeout(180_000);
    await useTheme(page, theme);
    const { projectId } = await seedDeveloper(page, `shots-projects-${theme}`);
    await captureProjectScreens(page, theme, projectId);
  });
}

test.describe('project screens at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  for (const theme of THEMES) {
    test(`screenshots of the project screens on a phone (${theme})`, async ({ page }) => {
      test.setTimeout(180_000);
      await useTheme(page, theme);
      const { projectId } = await seedDeveloper(page, `shots-projects-mobile-${theme}`);
      await captureProjectScreens(page, `mobile-${theme}`, projectId);
      await page.goto('/api-docs');
      await capture(page, `api-docs-mobile-${theme}`, 'API documentation');
    });
  }
});

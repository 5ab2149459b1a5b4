import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, expectTableFits, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail, captureScreen } from './support';

/**
 * Per-project monitoring: a developer watches (and acts on) the end users their app signs up through the
 * public API with the project's key.
 */

async function trpcMutation<T>(request: APIRequestContext, procedure: string, input: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data: input });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** A verified developer signed in (cookies in the page's context) with one project and one API key. */
async function developerWithProject(page: Page, tag: string, projectName: string) {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Dana', lastName: 'Developer' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpcMutation(page.request, 'auth.verifyEmail', { token });
  await trpcMutation(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpcMutation<{ id: string }>(page.request, 'projects.create', {
    name: projectName,
    description: 'Sign-in for the mobile app',
    website_url: null,
    environment: 'production',
  });
  const key = await trpcMutation<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  return { email, projectId: project.id, apiKey: key.secret };
}

/** The developer's backend calling the public API for one of its end users. */
function endUserApi(request: APIRequestContext, apiKey: string, ip?: string) {
  const headers = { 'x-api-key': apiKey, ...(ip ? { 'x-end-user-ip': ip, 'x-end-user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148' } : {}) };
  return {
    signUp: (email: string, firstName: string, lastName: string) =>
      request.post('/public/api/v1/auth/signup', {
        headers,
        data: { email, password: PASSWORD, first_name: firstName, last_name: lastName, company_name: null, website_url: null, captcha_token: '', device_fingerprint: null },
      }),
    logIn: (email: string, password = PASSWORD, fingerprint: string | null = null) =>
      request.post('/public/api/v1/auth/login', { headers, data: { email, password, captcha_token: '', device_fingerprint: fingerprint } }),
    profile: (accessToken: string) => request.get('/public/api/v1/profile', { headers: { ...headers, authorization: `Bearer ${accessToken}` } }),
  };
}

test('a developer sees an end user of their project on /monitoring and deactivates them', async ({ page, request }) => {
  const dev = await developerWithProject(page, 'monitor-dev', 'Mobile app');
  const api = endUserApi(request, dev.apiKey);
  const endUser = uniqueEmail('end-user');
  expect((await api.signUp(endUser, 'Eve', 'Enduser')).status()).toBe(201);
  const login = await api.logIn(endUser);
  expect(login.status(), await login.text()).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  expect((await api.profile(access_token)).status()).toBe(200);

  // Reached from the header, with the project chosen in the address.
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Monitoring' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/monitoring\\?project=${dev.projectId}$`));
  await expect(page.getByRole('textbox', { name: 'Project' })).toHaveValue('Mobile app');
  await expect(page.getByRole('group', { name: 'Total Users' })).toContainText('1');

  await page.getByRole('tab', { name: 'Users' }).click();
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: endUser });
  await expect(row).toContainText('Eve Enduser');
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(toast(page, 'User status updated')).toBeVisible();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Active Users' })).toContainText('0');

  // The end user is out at once: their token is refused and they cannot sign in again.
  expect((await api.profile(access_token)).status()).toBe(401);
  const again = await api.logIn(endUser);
  expect(again.status()).toBe(403);
  expect(((await again.json()) as { detail: string }).detail).toBe('This account has been deactivated');

  // Their sign-ins are listed too; the platform's admin area is not where they show up.
  await page.getByRole('tab', { name: 'Login Attempts' }).click();
  const attempts = page.getByRole('table', { name: 'Login attempts' }).getByRole('row').filter({ hasText: endUser });
  await expect(attempts.filter({ hasText: 'Success' })).toHaveCount(1);
  await expect(attempts.filter({ hasText: 'Account deactivated' })).toHaveCount(1);
});

test("a developer revokes an end user's session and blocks their device", async ({ page, request }) => {
  const dev = await developerWithProject(page, 'monitor-dev-2', 'Web shop');
  const api = endUserApi(request, dev.apiKey, '81.2.69.142');
  const endUser = uniqueEmail('shopper');
  expect((await api.signUp(endUser, 'Sam', 'Shopper')).status()).toBe(201);
  const fingerprint = `e2e-device-${Date.now().toString(16)}-shopper`;
  const { access_token } = (await (await api.logIn(endUser, PASSWORD, fingerprint)).json()) as { access_token: string };

  await page.goto(`/monitoring?project=${dev.projectId}&tab=sessions`);
  const session = page.getByRole('table', { name: 'Active sessions' }).getByRole('row').filter({ hasText: endUser });
  await expect(session).toContainText(fingerprint.slice(-12));
  await expect(session).toContainText('81.2.69.142');
  await session.getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page, 'Session revoked')).toBeVisible();
  await expect(session).toHaveCount(0);
  expect((await api.profile(access_token)).status()).toBe(401);

  await page.getByRole('tab', { name: 'Devices' }).click();
  const device = page.getByRole('table', { name: 'Devices' }).getByRole('row').filter({ hasText: endUser });
  await device.getByRole('button', { name: 'Block' }).click();
  await expect(toast(page, 'Device status updated')).toBeVisible();
  await expect(device.getByText('Blocked', { exact: true })).toBeVisible();
  const refused = await api.logIn(endUser, PASSWORD, fingerprint);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { detail: string }).detail).toBe('This device has been blocked');
});

test('at 1280 px the sessions table of a project fits the page: Revoke is on screen', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const dev = await developerWithProject(page, 'monitor-dev-wide', 'Wide table');
  const api = endUserApi(request, dev.apiKey, '2001:db8:85a3:0:0:8a2e:370:7334');
  const endUser = uniqueEmail('end-user-with-a-rather-long-address');
  expect((await api.signUp(endUser, 'Wanda', 'Wide')).status()).toBe(201);
  expect((await api.logIn(endUser, PASSWORD, `e2e-device-${Date.now().toString(16)}-wide`)).status()).toBe(200);

  await page.goto(`/monitoring?project=${dev.projectId}&tab=sessions`);
  await expect(page.getByRole('table', { name: 'Active sessions' }).getByRole('row').filter({ hasText: endUser })).toBeVisible();
  await expectTableFits(page, 'Active sessions', 'Revoke');
});

test('another developer cannot open a project that is not theirs', async ({ page, browser }) => {
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  const dev = await developerWithProject(ownerPage, 'monitor-owner', 'Private');
  await owner.close();

  const email = uniqueEmail('monitor-other');
  await signUpViaApi(page.request, { email });
  await trpcMutation(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  await page.goto(`/monitoring?project=${dev.projectId}`);
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to projects' })).toHaveAttribute('href', '/projects');
});

test.describe('screenshots', () => {
  async function seed(page: Page, theme: string) {
    const dev = await developerWithProject(page, `shots-monitor-${theme}`, 'Mobile app');
    const people = [
      { ip: '91.0.0.1', first: 'Mia', last: 'Schneider' },
      { ip: '81.2.69.142', first: 'Oliver', last: 'Smith' },
      { ip: '159.89.0.1', first: 'Lena', last: 'Fischer' },
    ];
    for (const [i, person] of people.entries()) {
      const api = endUserApi(page.request, dev.apiKey, person.ip);
      const email = uniqueEmail(person.first.toLowerCase());
      await api.signUp(email, person.first, person.last);
      if (i === 1) await api.logIn(email, 'Wrong-Password-1');
      await api.logIn(email, PASSWORD, randomBytes(32).toString('hex'));
    }
    return dev;
  }

  async function capture(page: Page, file: string) {
    await expect(page.getByRole('heading', { level: 1, name: 'Monitoring' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await captureScreen(page, file);
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`of the monitoring screen (${theme})`, async ({ page }) => {
      await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), theme);
      const dev = await seed(page, theme);
      await page.goto(`/monitoring?project=${dev.projectId}`);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await expect(page.getByRole('group', { name: 'Total Users' })).toContainText('3');
      await capture(page, `monitoring-overview-${theme}`);
      await page.getByRole('tab', { name: 'Login Attempts' }).click();
      await expect(page.getByRole('table', { name: 'Login attempts' })).toBeVisible();
      await capture(page, `monitoring-attempts-${theme}`);
      await page.getByRole('tab', { name: 'Devices' }).click();
      await expect(page.getByRole('table', { name: 'Devices' })).toBeVisible();
      await capture(page, `monitoring-devices-${theme}`);
    });
  }

  test.describe('at 375 px', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('of the monitoring screen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('color-theme', 'dark'));
      const dev = await seed(page, 'mobile');
      await page.goto(`/monitoring?project=${dev.projectId}&tab=users`);
      await expect(page.getByRole('list', { name: 'Users' })).toBeVisible();
      await capture(page, 'monitoring-users-mobile-dark');
      await page.getByRole('tab', { name: 'Devices' }).click();
      await expect(page.getByRole('list', { name: 'Devices' })).toBeVisible();
      await capture(page, 'monitoring-devices-mobile-dark');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});

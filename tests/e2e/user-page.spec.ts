import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, linkIn, seriousAxeViolations, signUpViaApi, toast, uniqueEmail, captureScreen, waitForMail } from './support';

/**
 * A page for each user (issue 32): opened from Admin → Users and from a project's Monitoring → Users,
 * with its sessions, devices, login attempts and audit entries, and its actions.
 */

async function trpcMutation<T>(request: APIRequestContext, procedure: string, input: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data: input });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function adminPage(browser: Browser, options: { theme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = await context.newPage();
  if (options.theme) await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), options.theme);
  await trpcMutation(page.request, 'auth.logIn', { email: E2E.adminEmail, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return page;
}

async function developerWithProject(page: Page, tag: string) {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Dana', lastName: 'Developer' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpcMutation(page.request, 'auth.verifyEmail', { token });
  await trpcMutation(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpcMutation<{ id: string }>(page.request, 'projects.create', { name: 'User page app', description: null, website_url: null, environment: 'production' });
  const key = await trpcMutation<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  return { projectId: project.id, apiKey: key.secret };
}

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// Each test signs up, verifies and loads two screens on demand: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

async function shoot(page: Page, name: string) {
  await captureScreen(page, name);
}

test('an admin opens a developer from Admin → Users and mails them a password reset', async ({ browser }) => {
  const email = uniqueEmail('page-dev');
  const admin = await adminPage(browser);
  await signUpViaApi(admin.request, { email, firstName: 'Paige', lastName: 'Person' });

  await admin.goto('/admin?tab=users');
  await admin.getByLabel('Search users').fill(email, { timeout: 20_000 });
  await admin.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email }).getByRole('link', { name: 'Paige Person' }).click({ timeout: 20_000 });
  await expect(admin).toHaveURL(/\/admin\/users\//);
  await expect(admin.getByRole('heading', { level: 1, name: 'Paige Person' })).toBeVisible();
  await expect(admin.getByRole('group', { name: 'Status' }).getByText('Unverified')).toBeVisible();

  await admin.getByRole('button', { name: 'Send password reset' }).click();
  await expect(toast(admin, 'Password reset email sent')).toBeVisible();
  await waitForMail(email, /reset/i);
  await expect(admin.getByRole('table', { name: 'Audit entries' }).getByText('User password reset sent')).toBeVisible();

  await admin.getByRole('link', { name: 'Users' }).first().click();
  await expect(admin).toHaveURL(/\/admin\?tab=users/);
  await admin.context().close();
});

test("a developer opens an end user from Monitoring → Users, signs them out everywhere and deletes them", async ({ page, request }) => {
  const dev = await developerWithProject(page, 'page-owner');
  const endUser = uniqueEmail('page-end-user');
  const headers = { 'x-api-key': dev.apiKey, 'x-end-user-ip': '203.0.113.77', 'x-end-user-agent': CHROME_ON_LINUX };
  const signUp = await request.post('/public/api/v1/auth/signup', {
    headers,
    data: { email: endUser, password: PASSWORD, first_name: 'Eve', last_name: 'Enduser', captcha_token: '', device_fingerprint: null },
  });
  expect(signUp.status()).toBe(201);
  const login = await request.post('/public/api/v1/auth/login', { headers, data: { email: endUser, password: PASSWORD, captcha_token: '', device_fingerprint: 'e2e-user-page-laptop' } });
  expect(login.status(), await login.text()).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };

  await page.goto(`/monitoring?project=${dev.projectId}&tab=users`);
  const open = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: endUser }).getByRole('link', { name: 'Eve Enduser' });
  // The monitoring screen loads on demand; a busy machine takes a while.
  await expect(open).toBeVisible({ timeout: 20_000 });
  await open.click();
  await expect(page).toHaveURL(/\/monitoring\/users\/.+project=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Eve Enduser' })).toBeVisible();
  const sessions = page.getByRole('table', { name: 'Sessions' });
  await expect(sessions.getByText('Chrome on Linux')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Devices' }).getByText('Chrome on Linux')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recent login attempts' }).getByText('Success')).toBeVisible();

  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => window.localStorage.setItem('color-theme', value), theme);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Eve Enduser' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The user page (the admin area's is the same screen) with its sessions, devices and attempts.
    expect(await seriousAxeViolations(page), theme).toEqual([]);
    await shoot(page, `user-page-${theme}`);
  }
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'user-page-375');
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(width.scroll, 'the page scrolls sideways at 375 px').toBeLessThanOrEqual(width.client);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(toast(page, 'Signed out everywhere')).toBeVisible();
  await expect(page.getByText('No live sessions.')).toBeVisible();
  expect((await request.get('/public/api/v1/profile', { headers: { ...headers, authorization: `Bearer ${access_token}` } })).status()).toBe(401);
  await expect(page.getByRole('table', { name: 'Audit entries' }).getByText('User signed out')).toBeVisible();

  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete user' });
  const confirm = dialog.getByRole('button', { name: 'Delete user' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${endUser} to confirm`).fill(endUser);
  await confirm.click();
  await expect(toast(page, 'User deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/monitoring\?project=.*tab=users/);
  await expect(page.getByRole('table', { name: 'Users' }).or(page.getByText('No users yet.'))).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: endUser })).toHaveCount(0);
});

test('a developer creates an end user without a password, marked verified, and lands on their page', async ({ page }) => {
  const dev = await developerWithProject(page, 'page-creator');
  const email = uniqueEmail('page-made');
  await page.goto(`/monitoring?project=${dev.projectId}&tab=users`);
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create user' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('First name').fill('Made');
  await dialog.getByText('No password').click();
  await dialog.getByLabel('Mark the address as verified').check();
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(toast(page, 'User created')).toBeVisible();
  await expect(page).toHaveURL(/\/monitoring\/users\//);
  await expect(page.getByRole('heading', { level: 1, name: 'Made' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Profile' }).getByText(email)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Status' }).getByText('Verified')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sign-in methods' }).getByText('Password').locator('..')).toContainText('None');
  await expect(page.getByRole('table', { name: 'Audit entries' }).getByText('User created')).toBeVisible();
});

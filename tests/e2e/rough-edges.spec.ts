import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, signedInUser, uniqueEmail, waitForMail } from './support';

/**
 * Rough edges of issue 32, as a person meets them: a sign-in from a hosting network says "Hosting" (not
 * "VPN"), login attempts show how they signed in on screen and in the CSV, and the API docs page's
 * PowerShell block is the README's quick start and points at the SDK.
 */

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

test.describe.configure({ timeout: 90_000 });

test('a sign-in from a hosting network reads "Hosting" with its method, on screen and in the CSV', async ({ page }) => {
  const developer = uniqueEmail('edges-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Eddie' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Edges', environment: 'production' });
  const { secret } = await trpc<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });

  // An end user signs up and in through the app's backend, from an address of a cloud provider.
  const endUser = uniqueEmail('from-cloud');
  const headers = { 'x-api-key': secret, 'x-end-user-ip': '3.80.12.34' };
  expect((await page.request.post('/public/api/v1/auth/signup', { headers, data: { email: endUser, password: PASSWORD } })).status()).toBe(201);
  const login = await page.request.post('/public/api/v1/auth/login', { headers, data: { email: endUser, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);

  await page.goto(`/monitoring?project=${project.id}&tab=attempts`);
  const table = page.getByRole('table', { name: 'Login attempts' });
  const row = table.getByRole('row').filter({ hasText: endUser }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText('Hosting', { exact: true })).toBeVisible();
  await expect(row.getByText('VPN', { exact: true })).toHaveCount(0);
  await expect(row.getByText('Password', { exact: true })).toBeVisible();

  const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  const csv = await (await page.request.get(href!)).text();
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  const columns = header!.split(',');
  const line = lines.find((candidate) => candidate.includes(endUser))!.split(',');
  expect(line[columns.indexOf('method')]).toBe('password');
});

test("the API docs page's PowerShell block is the README's quick start and names the SDK", async ({ page }) => {
  await page.goto('/api-docs');
  await expect(page.getByRole('heading', { name: 'Run it yourself (PowerShell)' })).toBeVisible({ timeout: 20_000 });
  const scripts = page.locator('pre, code').filter({ hasText: 'npm start' });
  await expect(scripts.first()).toContainText('npm ci');
  await expect(page.getByText("from '@authplatform/api'").first()).toBeVisible();
});

test('while the session check is pending the header shows a placeholder, then the account menu; a visitor then gets Login', async ({ page }) => {
  // The session check is held until the test lets it go: in between, the corner is neither empty nor wrong.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await signedInUser(page, 'edges-pending', { firstName: 'Penny' });
  await page.route(/\/trpc\/[^?]*auth\.session/, async (route) => {
    await released;
    await route.continue();
  });
  await page.reload();
  const banner = page.getByRole('banner');
  const placeholder = banner.getByRole('status', { name: 'Checking your session…' });
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toHaveAttribute('aria-busy', 'true');
  await expect(banner.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(banner.getByRole('button', { name: /^Account menu/ })).toHaveCount(0);
  release();
  await expect(banner.getByRole('button', { name: 'Account menu for Penny' })).toBeVisible();
  await expect(placeholder).toHaveCount(0);

  // A visitor: the same placeholder gives way to Login and Sign Up.
  await page.context().clearCookies();
  await page.goto('/api-docs');
  await expect(banner.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Sign Up' })).toBeVisible();
  await expect(placeholder).toHaveCount(0);
});

import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext } from '@playwright/test';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, logInViaUi, signUpViaApi, signedInUser, uniqueEmail, waitForMail } from './support';

/**
 * Rough edges of issue 32, as a person meets them: a sign-in from a hosting network says "Hosting" (not
 * "VPN"), login attempts show how they signed in on screen and in the CSV, and the API docs page's
 * PowerShell block is the README's quick start and points at the SDK; the header while the session
 * check is pending; signing out the session in use clears its cookies; the new-sign-in mail's device;
 * a project's live sessions and the idle timeout.
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

test("signing out the session one is using (DELETE /api/v1/auth/sessions/{id}) clears this browser's cookies", async ({ page, context }) => {
  await signedInUser(page, 'edges-own-session');
  const names = async () => (await context.cookies()).map((cookie) => cookie.name).filter((name) => name === 'access_token' || name === 'refresh_token').sort();
  expect(await names()).toEqual(['access_token', 'refresh_token']);
  const listed = await page.request.get('/api/v1/auth/sessions');
  expect(listed.ok(), await listed.text()).toBe(true);
  const current = ((await listed.json()) as { sessions: Array<{ id: string; current: boolean }> }).sessions.find((session) => session.current)!;

  const revoked = await page.request.delete(`/api/v1/auth/sessions/${current.id}`);
  expect(revoked.status(), await revoked.text()).toBe(200);
  expect(await names()).toEqual([]);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
});

test('the new-sign-in mail names the device as Settings does ("Chrome on Linux"), not by its raw user agent', async ({ page }) => {
  const email = uniqueEmail('edges-new-device');
  await signUpViaApi(page.request, { email, firstName: 'Nina' });
  // A first sign-in from another device: the browser's own is new afterwards.
  await trpc(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: 'e2e-first-device' });
  await page.context().clearCookies();
  await page.goto('/login');
  await logInViaUi(page, email);

  const mail = await waitForMail(email, /new sign-in/i);
  expect(mail.text).toContain('Device: Chrome on Linux');
  expect(mail.html).toContain('Chrome on Linux');
  expect(`${mail.text}\n${mail.html}`).not.toContain('Mozilla/5.0');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByRole('list', { name: 'Your sessions' }).getByRole('listitem').filter({ hasText: 'This device' })).toContainText('Chrome on Linux');
});

test("a project's live sessions leave out one idle past its account's timeout", async ({ page }) => {
  const developer = uniqueEmail('edges-idle-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Ida' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Idle shop', environment: 'production' });
  const { secret } = await trpc<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  const headers = { 'x-api-key': secret };
  const signUpAndIn = async (tag: string) => {
    const email = uniqueEmail(tag);
    expect((await page.request.post('/public/api/v1/auth/signup', { headers, data: { email, password: PASSWORD } })).status()).toBe(201);
    const login = await page.request.post('/public/api/v1/auth/login', { headers, data: { email, password: PASSWORD } });
    expect(login.status(), await login.text()).toBe(200);
    return { email, accessToken: ((await login.json()) as { access_token: string }).access_token };
  };
  const careful = await signUpAndIn('edges-idle-careful');
  const relaxed = await signUpAndIn('edges-idle-relaxed');
  const set = await page.request.put('/public/api/v1/profile', { headers: { ...headers, authorization: `Bearer ${careful.accessToken}` }, data: { session_idle_timeout_minutes: 15 } });
  expect(set.status(), await set.text()).toBe(200);

  const table = page.getByRole('table', { name: 'Active sessions' });
  await page.goto(`/monitoring?project=${project.id}&tab=sessions`);
  await expect(table.getByRole('row').filter({ hasText: careful.email })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: relaxed.email })).toBeVisible();

  // Both last used 20 minutes ago: past the careful account's 15 minutes, within the other's (no timeout).
  const db = new Database(path.join(E2E.workDir, 'main', 'e2e.sqlite'));
  try {
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60 * 1000).toISOString();
    db.prepare('update sessions set last_used_at = ? where user_id in (select id from users where project_id = ?)').run(twentyMinutesAgo, project.id);
  } finally {
    db.close();
  }
  await page.reload();
  await expect(table.getByRole('row').filter({ hasText: relaxed.email })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: careful.email })).toHaveCount(0);
  expect((await page.request.get('/public/api/v1/profile', { headers: { ...headers, authorization: `Bearer ${careful.accessToken}` } })).status()).toBe(401);
});

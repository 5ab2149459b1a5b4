import type { Page } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * Issue 32: one end user signed in from two clients (the project's hosted pages and the developer's
 * backend through the public API) shows two sessions a developer tells apart by their Client column.
 */

const { shoot } = screenshots('session-clients');

async function developerWithProject(page: Page) {
  const developer = uniqueEmail('clients-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Cli' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'Acme Clients', environment: 'development' });
  const key = await trpc<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  return { ...project, apiKey: key.secret };
}

test("a project's Sessions label each session with the client it signed in through", async ({ page }) => {
  const project = await developerWithProject(page);
  const shopper = uniqueEmail('two-clients');
  const hosted = `/hosted/${project.project_key}/api/v1`;
  expect((await page.request.post(`${hosted}/auth/signup`, { data: { email: shopper, password: PASSWORD } })).ok()).toBe(true);
  expect((await page.request.post(`${hosted}/auth/login`, { data: { email: shopper, password: PASSWORD } })).ok()).toBe(true);
  const viaApi = await page.request.post('/public/api/v1/auth/login', { headers: { 'x-api-key': project.apiKey }, data: { email: shopper, password: PASSWORD } });
  expect(viaApi.ok()).toBe(true);

  await page.goto(`/monitoring?project=${project.id}&tab=sessions`);
  const table = page.getByRole('table', { name: 'Active sessions' });
  await expect(table.getByRole('columnheader', { name: 'Client' })).toBeVisible();
  const rows = table.getByRole('row', { name: new RegExp(shopper.replace(/[.+]/g, '\\$&')) });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Hosted pages' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Public API' })).toHaveCount(1);
  await shoot(page, 'project-sessions-light', table);
  await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await shoot(page, 'project-sessions-dark', table);
});

import bcrypt from 'bcrypt';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, captureScreen, linkIn, seriousAxeViolations, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * Monitoring → Users → Import users (issue 30): a developer checks a file with a dry run, imports it, reads
 * the failed line by its number, and the imported user signs in on the public API with their old password.
 */

async function trpcMutation<T>(request: APIRequestContext, procedure: string, input: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data: input });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function developerWithProject(page: Page) {
  const email = uniqueEmail('import-dev');
  await signUpViaApi(page.request, { email, firstName: 'Ines', lastName: 'Importer' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpcMutation(page.request, 'auth.verifyEmail', { token });
  await trpcMutation(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpcMutation<{ id: string }>(page.request, 'projects.create', { name: 'Moving in', description: null, website_url: null, environment: 'production' });
  const key = await trpcMutation<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  return { projectId: project.id, apiKey: key.secret };
}

test.describe.configure({ timeout: 90_000 });

test('a developer dry-runs a file, imports it, reads the failed line, and the imported user signs in with their old password', async ({ page }) => {
  const dev = await developerWithProject(page);
  const moved = uniqueEmail('imported');
  const lines = [
    { email: moved, email_verified: true, first_name: 'Mona', last_name: 'Moved', password: await bcrypt.hash('Old-Password-42', 4) },
    { email: 'not-an-address' },
    { email: uniqueEmail('imported-second'), first_name: 'Sam' },
  ];
  const file = { name: 'users.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n') + '\n') };

  await page.goto(`/monitoring?project=${dev.projectId}&tab=users`);
  await page.getByRole('button', { name: 'Import users' }).click({ timeout: 20_000 });
  const dialog = page.getByRole('dialog', { name: 'Import users' });
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await expect(dialog.getByRole('checkbox', { name: 'Dry run: check every line and import nothing' })).toBeChecked();
  await captureScreen(page, 'user-import-form-light', { fullPage: false });
  await dialog.getByRole('button', { name: 'Check the file' }).click();

  await expect(dialog.getByText('3 lines read · 2 users would be created · 1 failed')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Failed lines' }).getByRole('row').filter({ hasText: /^2/ })).toContainText('email');
  await expect(page.getByRole('table', { name: 'Users' }).getByText(moved)).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Back to import' }).click();
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await dialog.getByRole('checkbox', { name: 'Dry run: check every line and import nothing' }).uncheck();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText('3 lines read · 2 users created · 1 failed')).toBeVisible();
  expect(await seriousAxeViolations(page, '[role="dialog"]')).toEqual([]);
  await captureScreen(page, 'user-import-result', { fullPage: false });
  await dialog.getByRole('button', { name: 'Back to users' }).click();

  await expect(page.getByRole('table', { name: 'Users' }).getByText(moved)).toBeVisible();
  const signIn = await page.request.post('/public/api/v1/auth/login', {
    headers: { 'x-api-key': dev.apiKey, 'x-end-user-ip': '203.0.113.30' },
    data: { email: moved, password: 'Old-Password-42' },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
});

for (const look of [
  { theme: 'dark' as const, viewport: { width: 1280, height: 800 }, name: 'user-import-result-dark' },
  { theme: 'light' as const, viewport: { width: 375, height: 812 }, name: 'user-import-result-375-light' },
]) {
  test(`the import's result reads in the ${look.theme} theme at ${look.viewport.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: look.viewport });
    const page = await context.newPage();
    await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), look.theme);
    const dev = await developerWithProject(page);
    const body = [{ email: uniqueEmail('look') }, { email: 'broken' }].map((line) => JSON.stringify(line)).join('\n') + '\n';
    await page.goto(`/monitoring?project=${dev.projectId}&tab=users`);
    await page.getByRole('button', { name: 'Import users' }).click({ timeout: 20_000 });
    const dialog = page.getByRole('dialog', { name: 'Import users' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'users.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(body) });
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await expect(dialog.getByText('2 lines read · 1 users would be created · 1 failed')).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(look.viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(look.viewport.width);
    expect(await seriousAxeViolations(page, '[role="dialog"]')).toEqual([]);
    await captureScreen(page, look.name, { fullPage: false });
    await context.close();
  });
}

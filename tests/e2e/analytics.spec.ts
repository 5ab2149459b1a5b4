import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshots, trpc } from './screenshots-support';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail, seriousAxeViolations } from './support';

/**
 * The analytics screen against the real server: reached from the header and from a project's page, its
 * period picker asks for other days (today's sign-ins are in "7 days", not in a week that ended
 * yesterday), and its breakdowns count the end users' real sign-ins by method, country and reason.
 */

/** A verified developer, signed in, with a project and a key. */
async function developerWithProject(page: Page, tag: string) {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Ana', lastName: 'Lytics' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Acme Storefront', environment: 'production' });
  const key = await trpc<{ secret: string }>(page.request, 'projects.createApiKey', { id: project.id, name: 'Backend' });
  return { projectId: project.id, apiKey: key.secret };
}

/** End users signing up and in through the developer's backend: three good sign-ins, two wrong passwords, one unknown address. */
async function endUserTraffic(request: APIRequestContext, apiKey: string) {
  const fromGermany = { 'x-api-key': apiKey, 'x-end-user-ip': '79.192.20.30' };
  const unplaced = { 'x-api-key': apiKey };
  const post = async (path: string, headers: Record<string, string>, data: object, status: number) => {
    const response = await request.post(`/public/api/v1/auth/${path}`, { headers, data: { captcha_token: '', device_fingerprint: null, ...data } });
    expect(response.status(), await response.text()).toBe(status);
  };
  const shoppers = [uniqueEmail('shopper-a'), uniqueEmail('shopper-b')];
  for (const email of shoppers) await post('signup', fromGermany, { email, password: PASSWORD }, 201);
  await post('login', fromGermany, { email: shoppers[0], password: PASSWORD }, 200);
  await post('login', fromGermany, { email: shoppers[1], password: PASSWORD }, 200);
  await post('login', unplaced, { email: shoppers[0], password: PASSWORD }, 200);
  await post('login', fromGermany, { email: shoppers[1], password: 'Wrong-Horse-00' }, 401);
  await post('login', unplaced, { email: shoppers[1], password: 'Wrong-Horse-00' }, 401);
  await post('login', unplaced, { email: uniqueEmail('nobody'), password: PASSWORD }, 401);
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const daysBefore = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) - count * 86_400_000).toISOString().slice(0, 10);

test('the analytics screen: reached from the header and a project, its period changes the figures, breakdowns by method, country and reason', async ({ page }) => {
  test.slow();
  const dev = await developerWithProject(page, 'analytics-dev');
  await endUserTraffic(page.request, dev.apiKey);

  // From the header.
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/\/analytics/);
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();

  // From the project's page, with the project chosen.
  await page.goto(`/projects/${dev.projectId}`);
  await page.getByRole('main').getByRole('link', { name: 'Analytics', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/analytics\\?project=${dev.projectId}`));

  const logins = page.getByRole('region', { name: 'Logins', exact: true });
  const methods = page.getByRole('region', { name: 'Sign-ins by method' });
  const countries = page.getByRole('region', { name: 'Sign-ins by country' });
  const reasons = page.getByRole('region', { name: 'Failures by reason' });
  await expect(logins.getByText('3', { exact: true })).toBeVisible();
  await expect(methods.getByRole('listitem')).toHaveText(['Password3 signed in · 3 failed']);
  await expect(countries.getByRole('listitem')).toHaveText(['Germany (DE)2 signed in · 1 failed', 'Unknown1 signed in · 2 failed']);
  await expect(reasons.getByRole('listitem')).toHaveText(['Wrong password2', 'Unknown e-mail1']);

  // Signups and logins are equal on most days (none of either): the signups line is dashed over the solid logins line, so both show.
  const lines = page.getByRole('region', { name: 'Signups and logins per day' }).locator('path.recharts-line-curve');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).not.toHaveAttribute('stroke-dasharray', /\d/);
  await expect(lines.nth(1)).toHaveAttribute('stroke-dasharray', '6 4');
  expect(await seriousAxeViolations(page), 'light').toEqual([]);
  const shots = screenshots('analytics');
  await shots.shootThemes(page, 'screen');

  // A custom week that ended yesterday has none of today's sign-ins.
  await page.getByText('Custom', { exact: true }).click();
  const end = yesterday();
  await page.getByLabel('To', { exact: true }).fill(end);
  await page.getByLabel('From', { exact: true }).fill(daysBefore(end, 6));
  await expect(page).toHaveURL(new RegExp(`from=${daysBefore(end, 6)}&to=${end}`));
  await expect(methods.getByText('No sign-in attempts in this period.')).toBeVisible();
  await expect(logins.getByText('0', { exact: true })).toBeVisible();

  // A start after the end is refused in words, and the figures stay those of the last good period.
  await page.getByLabel('From', { exact: true }).fill(daysBefore(end, -3));
  await expect(page.getByRole('alert').filter({ hasText: 'The start must be on or before the end' })).toBeVisible();
  await expect(methods.getByText('No sign-in attempts in this period.')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 812 });
  await shots.shoot(page, 'custom-refused-375', page.getByRole('main'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await seriousAxeViolations(page), 'dark, with the refused range').toEqual([]);

  // Back to a preset that holds today, and the period survives a reload.
  await page.getByText('7 days', { exact: true }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(methods.getByRole('listitem')).toHaveText(['Password3 signed in · 3 failed']);
  await page.reload();
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();
  await expect(logins.getByText('3', { exact: true })).toBeVisible();
});

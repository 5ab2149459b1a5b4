import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { screenshots, trpc } from './screenshots-support';
import { PASSWORD, field, linkIn, logInViaUi, signUpViaApi, toast, uniqueEmail, waitForMail, seriousAxeViolations } from './support';

/**
 * The project quickstart (issue 32): a developer creates a project and lands on its quickstart, copies
 * the values as the server serves them, and runs "Test sign-in": the project's hosted sign-in through
 * its OpenID Connect provider (code + PKCE) and back to the dashboard, which shows the tokens' claims.
 */

const { shootThemes } = screenshots('quickstart');

/** No serious or critical axe-core violation (WCAG 2.1 A and AA) in the light theme, then the dark; leaves it light. */
async function expectAccessibleInBothThemes(page: Page) {
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    expect(await seriousAxeViolations(page), theme).toEqual([]);
  }
  await page.getByRole('button', { name: 'Switch to light mode' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
}

async function verifiedDeveloper(page: Page) {
  const email = uniqueEmail('quickstart-dev');
  await signUpViaApi(page.request, { email, firstName: 'Quinn' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  await page.goto('/login');
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** An end user of the project, signed up and verified through the public API with a key of the project. */
async function endUserOf(page: Page, projectId: string): Promise<string> {
  const { secret } = await trpc<{ secret: string }>(page.request, 'projects.createApiKey', { id: projectId, name: 'quickstart test' });
  const email = uniqueEmail('quickstart-user');
  const headers = { 'x-api-key': secret };
  const signup = await page.request.post('/public/api/v1/auth/signup', { headers, data: { email, password: PASSWORD, first_name: 'Ada' } });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/public/api/v1/auth/verify-email', { headers, data: { token } })).ok()).toBe(true);
  return email;
}

test('a new project opens on its quickstart, and Test sign-in runs the hosted sign-in and shows the claims', async ({ page }) => {
  test.setTimeout(180_000);
  await verifiedDeveloper(page);

  await page.goto('/projects');
  await page.getByRole('button', { name: 'Create project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create project' });
  await dialog.getByRole('textbox', { name: 'Project name' }).fill('Quickstart demo');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(toast(page, 'Project created successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/projects\/[^/?]+$/);
  const projectId = new URL(page.url()).pathname.split('/').at(-1)!;

  const quickstart = page.getByRole('region', { name: 'Quickstart' });
  await expect(quickstart).toBeVisible();
  const env = quickstart.getByRole('region', { name: 'Environment variables' });
  await expect(env).toContainText(new RegExp(`VITE_AUTHPLATFORM_ISSUER=${E2E.baseURL}/projects/pk_[\\w-]+`));
  const projectKey = /VITE_AUTHPLATFORM_CLIENT_ID=(pk_[\w-]+)/.exec((await env.textContent()) ?? '')![1]!;
  await expect(env).toContainText(`VITE_AUTHPLATFORM_JWKS_URL=${E2E.baseURL}/public/api/v1/projects/${projectKey}/jwks.json`);
  await expect(env).toContainText(`VITE_AUTHPLATFORM_SIGN_IN_URL=${E2E.baseURL}/hosted/${projectKey}/sign-in`);
  // The values are what the server serves: its discovery document names the same issuer and keys.
  const discovery = await (await page.request.get(`/projects/${projectKey}/.well-known/openid-configuration`)).json();
  expect(discovery).toMatchObject({ issuer: `${E2E.baseURL}/projects/${projectKey}`, jwks_uri: `${E2E.baseURL}/public/api/v1/projects/${projectKey}/jwks.json` });

  // Another kind of app, remembered across a reload.
  await quickstart.getByText('Backend only').click();
  await expect(env).toContainText('AUTHPLATFORM_API_KEY=sk_test_...');
  await expect(quickstart.getByRole('list', { name: 'Steps' })).toContainText('createPublicApiClient');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Quickstart' }).getByRole('radio', { name: 'Backend only' })).toBeChecked();
  await page.getByRole('region', { name: 'Quickstart' }).getByText('Single-page app').click();
  await expectAccessibleInBothThemes(page);
  await shootThemes(page, 'overview');

  const email = await endUserOf(page, projectId);
  await page.getByRole('button', { name: 'Test sign-in' }).click();
  await expect(page).toHaveURL(new RegExp(`/hosted/${projectKey}/sign-in\\?interaction=`));
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page).toHaveURL(/\/test-sign-in\/callback$/);
  await expect(page.getByRole('status').filter({ hasText: 'Signed in' })).toContainText(email);
  const idToken = page.getByTestId('ID token claims');
  await expect(idToken).toContainText(`"email": "${email}"`);
  await expect(idToken).toContainText(/"sub": "[^"]+"/);
  await expect(idToken).toContainText(`"iss": "${E2E.baseURL}/projects/${projectKey}"`);
  await expect(page.getByTestId('Access token claims')).toContainText(`"aud": "${projectKey}"`);
  // The test leaves no app session behind: only the hosted pages' own session of that sign-in is live.
  const sessions = await page.request.get(`/api/v1/projects/${projectId}/sessions?q=${encodeURIComponent(email)}`);
  expect(sessions.ok(), await sessions.text()).toBe(true);
  expect((await sessions.json()).sessions).toHaveLength(1);
  await expectAccessibleInBothThemes(page);
  await shootThemes(page, 'test-sign-in');

  // The code was spent and left the address bar: a reload cannot run the exchange again.
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('This browser did not start this test sign-in');
  await page.getByRole('link', { name: 'Back to projects' }).click();
  await expect(page).toHaveURL(/\/projects$/);
});

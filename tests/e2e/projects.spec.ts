import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, field, keepFocused, linkIn, logInViaUi, signUpViaApi, signedInUser, toast, uniqueEmail, waitForMail } from './support';

/**
 * Projects, API keys, the public API and the figures they move, against the real server: a verified
 * developer works in the UI while "their backend" (this test, from Node) calls /public/api/v1 with the key.
 */

/** Signs up, follows the verification mail, and signs in through the UI: a developer who may create projects. */
async function verifiedDeveloper(page: Page, tag: string, firstName = 'Vera') {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  const verified = await page.request.post('/trpc/auth.verifyEmail', { data: { token } });
  expect(verified.ok(), await verified.text()).toBe(true);
  await page.goto('/login');
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email };
}

async function createProjectInUi(page: Page, values: { name: string; description?: string; website?: string; environment?: string }) {
  await page.goto('/projects');
  await page.getByRole('button', { name: 'Create project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create project' });
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(values.name);
  if (values.description) await dialog.getByRole('textbox', { name: 'Description' }).fill(values.description);
  if (values.website) await dialog.getByRole('textbox', { name: 'Website URL' }).fill(values.website);
  if (values.environment) {
    await dialog.getByRole('textbox', { name: 'Environment' }).click();
    await page.getByRole('option', { name: values.environment }).click();
  }
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(toast(page, 'Project created successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  // A new project opens on its Overview (the quickstart); back to the list, where the card is.
  await expect(page).toHaveURL(/\/projects\/[^/?]+$/);
  await expect(page.getByRole('region', { name: 'Quickstart' })).toBeVisible();
  await page.goto('/projects');
  return page.getByRole('article', { name: values.name });
}

/** On /api-keys: creates a key in the UI and reads its secret from the one-time modal. */
async function createKeyInUi(page: Page, name: string): Promise<string> {
  await page.getByRole('textbox', { name: 'Key name' }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(dialog.getByText('It will not be shown again.', { exact: false })).toBeVisible();
  const secret = (await dialog.getByTestId('copy-value').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^sk_(test|live)_\S{20,}$/);
  return secret;
}

function publicCall(request: APIRequestContext, key: string, path: string, data: object) {
  return request.post(`/public/api/v1${path}`, { headers: { 'X-API-Key': key }, data });
}

function statValue(page: Page, label: string) {
  return page.getByRole('region', { name: label }).getByTestId('stat-value');
}

test('a verified developer creates a project and a key; public calls move the figures; revoking stops the key', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await keepFocused(page);
  await verifiedDeveloper(page, 'proj-flow');

  // The dashboard starts empty.
  await expect(statValue(page, 'Total projects')).toHaveText('0');
  await expect(page.getByText('No projects yet')).toBeVisible();

  // Create: the rules first, then a real project.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('button', { name: 'Create project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create project' });
  await dialog.getByRole('textbox', { name: 'Project name' }).fill('   ');
  await dialog.getByRole('textbox', { name: 'Website URL' }).fill('not a url');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog.getByText('Project name is required')).toBeVisible();
  await expect(dialog.getByText('Please enter a valid URL')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Environment' })).toHaveValue('Development');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const card = await createProjectInUi(page, { name: 'Orbit', description: 'Launch control', website: 'https://orbit.example', environment: 'Staging' });
  await expect(card.getByText('staging')).toBeVisible();
  await expect(card.getByText('Launch control')).toBeVisible();
  await expect(card.getByRole('group', { name: 'Users: 0' })).toBeVisible();
  const projectKey = (await card.getByTestId('copy-value').textContent())?.trim();
  expect(projectKey).toMatch(/^pk_/);

  // API Keys → this project's keys; make one and copy it.
  await card.getByRole('link', { name: 'API Keys' }).click();
  await expect(page).toHaveURL(/\/api-keys\?project=[^&]+$/);
  const projectId = new URL(page.url()).searchParams.get('project')!;
  await expect(page.getByRole('textbox', { name: 'Project' })).toHaveValue('Orbit');
  await expect(page.getByText('No API keys yet')).toBeVisible();
  const secret = await createKeyInUi(page, 'Backend');
  const modal = page.getByRole('dialog', { name: 'Your new API key' });
  await modal.getByRole('button', { name: 'Copy API key' }).click();
  await expect(modal.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(modal.getByText('Copied!')).toBeHidden({ timeout: 3500 });
  await modal.getByRole('button', { name: 'I have copied the key' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);
  const keyRow = page.getByRole('listitem', { name: 'Backend' });
  await expect(keyRow.getByText(`${secret.slice(0, 12)}…`)).toBeVisible();
  await expect(keyRow.getByText('Never')).toBeVisible();

  // "Their backend": two end users sign up, then three logins (five API requests).
  const alice = uniqueEmail('end-alice');
  const bob = uniqueEmail('end-bob');
  for (const email of [alice, bob]) {
    const response = await publicCall(request, secret, '/auth/signup', { email, password: PASSWORD, first_name: 'End' });
    expect(response.status(), await response.text()).toBe(201);
  }
  for (const email of [alice, bob, alice]) {
    const response = await publicCall(request, secret, '/auth/login', { email, password: PASSWORD });
    expect(response.status(), await response.text()).toBe(200);
    expect(await response.json()).toHaveProperty('access_token');
  }

  // The dashboard's figures follow.
  await page.goto('/dashboard');
  await page.reload();
  await expect(statValue(page, 'Total projects')).toHaveText('1');
  await expect(statValue(page, 'API keys')).toHaveText('1');
  await expect(statValue(page, 'Total users')).toHaveText('2');
  await expect(statValue(page, 'API requests today')).toHaveText('5');
  const usage = page.getByRole('region', { name: 'API usage' });
  await expect(usage.getByRole('img', { name: /API requests over the last 7 days: .* 5$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Orbit, staging, Active' })).toBeVisible();

  // The project card counts its users, logins and signups.
  await page.goto('/projects');
  const counted = page.getByRole('article', { name: 'Orbit' });
  await expect(counted.getByRole('group', { name: 'Users: 2' })).toBeVisible();
  await expect(counted.getByRole('group', { name: 'Logins: 3' })).toBeVisible();
  await expect(counted.getByRole('group', { name: 'Signups: 2' })).toBeVisible();

  // Analytics of today.
  await page.goto(`/analytics?project=${projectId}`);
  await expect(page.getByRole('region', { name: 'Monthly active users' })).toContainText('2');
  await expect(page.getByRole('region', { name: 'Signups', exact: true })).toContainText('2');
  await expect(page.getByRole('region', { name: 'Logins', exact: true })).toContainText('3');
  await expect(page.getByRole('region', { name: 'API requests', exact: true })).toContainText('5');
  await expect(page.getByRole('region', { name: 'Signups and logins per day' }).locator('.recharts-surface')).toBeVisible();

  // The key list shows its use; revoking it stops the next call.
  await page.goto(`/api-keys?project=${projectId}`);
  await expect(keyRow.getByText('Never')).toHaveCount(0);
  await expect(keyRow).toContainText('Requests today5');
  // The app's own dialog: the key's name typed before Revoke works.
  await keyRow.getByRole('button', { name: 'Revoke Backend' }).click();
  const revokeDialog = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(revokeDialog).toContainText('Revoke this API key?');
  await expect(revokeDialog.getByRole('button', { name: 'Revoke key' })).toBeDisabled();
  await revokeDialog.getByRole('textbox', { name: 'Type Backend to confirm' }).fill('Backend');
  await revokeDialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();
  await expect(keyRow.getByText('Revoked', { exact: true })).toBeVisible();

  const refused = await publicCall(request, secret, '/auth/login', { email: alice, password: PASSWORD });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ detail: 'Invalid API key' });
});

test('project detail: key facts, JWKS, settings (rename, deactivate), then delete with confirmation', async ({ page, request }) => {
  test.setTimeout(180_000);
  await verifiedDeveloper(page, 'proj-detail');
  const card = await createProjectInUi(page, { name: 'Nebula', website: 'https://nebula.example' });
  const projectKey = (await card.getByTestId('copy-value').textContent())!.trim();

  await card.getByRole('link', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/projects\/[^/?]+$/);
  const projectId = page.url().split('/projects/')[1]!;
  await expect(page.getByRole('heading', { level: 1, name: 'Nebula' })).toBeVisible();
  const jwksPath = `/public/api/v1/projects/${projectKey}/jwks.json`;
  await expect(page.getByRole('region', { name: 'Integration' }).getByText(jwksPath, { exact: false })).toBeVisible();
  const jwks = await request.get(jwksPath);
  expect(jwks.ok()).toBe(true);
  expect((await jwks.json()).keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256' });
  await expect(page.getByRole('link', { name: 'Monitor users' })).toHaveAttribute('href', `/monitoring?project=${projectId}`);
  await expect(page.getByText('No activity yet.', { exact: false })).toBeVisible();

  // A key to show that deactivation refuses the public API.
  await page.getByRole('link', { name: 'API keys' }).click();
  const secret = await createKeyInUi(page, 'Probe');
  await page.getByRole('button', { name: 'I have copied the key' }).click();

  await page.goto(`/projects/${projectId}/settings/general`);
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await field(page, 'Project name').fill('Nebula Prime');
  await field(page, 'Website URL').fill('nebula');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Please enter a valid URL')).toBeVisible();
  await field(page, 'Website URL').fill('https://prime.example');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Project updated successfully')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Nebula Prime' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Danger zone' }).click();
  await page.getByRole('button', { name: 'Deactivate project' }).click();
  await expect(toast(page, 'Project deactivated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate project' })).toBeVisible();
  const inactive = await publicCall(request, secret, '/auth/signup', { email: uniqueEmail('end-inactive'), password: PASSWORD });
  expect(inactive.status()).toBe(403);
  expect(await inactive.json()).toEqual({ detail: 'This project is inactive' });

  await page.getByRole('button', { name: 'Activate project' }).click();
  await expect(toast(page, 'Project activated')).toBeVisible();

  // Delete from the list, after the confirmation.
  await page.goto('/projects');
  const renamed = page.getByRole('article', { name: 'Nebula Prime' });
  await expect(renamed.getByRole('img', { name: 'Active' })).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete Nebula Prime' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete project' });
  await expect(dialog).toContainText('Are you sure you want to delete this project? This action cannot be undone.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete Nebula Prime' }).click();
  await dialog.getByRole('textbox', { name: 'Type Nebula Prime to confirm' }).fill('Nebula Prime');
  await dialog.getByRole('button', { name: 'Delete project' }).click();
  await expect(toast(page, 'Project deleted successfully')).toBeVisible();
  await expect(renamed).toHaveCount(0);
  await expect(page.getByText('No projects yet')).toBeVisible();
});

test('an unverified developer is told that creating projects needs a verified e-mail', async ({ page }) => {
  await signedInUser(page, 'proj-unverified');
  await page.goto('/projects');
  await expect(page.getByText('Verify your e-mail to create projects')).toBeVisible();
  await expect(page.getByText('Creating projects needs a verified e-mail address.', { exact: false })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create project' }).first();
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await create.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Create project' })).toHaveCount(0);

  // The server agrees: a direct call is refused with its own words.
  const refused = await page.request.post('/trpc/projects.create', { data: { name: 'Sneaky', environment: 'development' } });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain('Please verify your email first');

  await page.goto('/api-keys');
  await expect(page.getByText('Create a project first')).toBeVisible();
});

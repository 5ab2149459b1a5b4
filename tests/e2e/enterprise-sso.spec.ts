import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { idpMetadataXml } from '../helpers/identity-providers/saml';
import { expect, test } from './fixtures';
import { PASSWORD, captureScreen, linkIn, seriousAxeViolations, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * Project → Settings → Enterprise SSO (issue 29): a developer adds a SAML connection for an organization
 * by pasting the IdP's metadata, reads the values to give the IdP and the domain's TXT record, and makes
 * a SCIM token, shown once. The screen in both themes and at 375 px.
 */

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function developerWithOrganization(request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('sso-dev');
  await signUpViaApi(request, { email, firstName: 'Sam' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(request, 'projects.create', { name: 'B2B Suite', environment: 'production' });
  await trpc(request, 'organizations.create', { id: project.id, name: 'Initech' });
  return project.id;
}

async function addSamlConnection(page: Page, domain: string) {
  await page.getByRole('button', { name: 'Add connection' }).click({ timeout: 20_000 });
  const dialog = page.getByRole('dialog', { name: 'Add SSO connection' });
  // The project's only organization is chosen already.
  await expect(dialog.getByRole('textbox', { name: 'Organization' })).toHaveValue('Initech');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Initech Okta');
  await dialog.getByRole('textbox', { name: 'IdP metadata XML' }).fill(idpMetadataXml());
  await dialog.getByRole('textbox', { name: 'Domains' }).fill(domain);
  await dialog.getByRole('textbox', { name: 'Domains' }).press('Enter');
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('listitem', { name: 'Initech Okta' })).toBeVisible();
}

test.describe.configure({ timeout: 90_000 });

test('a developer adds a SAML connection, reads what the IdP needs and the TXT record, and makes a SCIM token shown once', async ({ page }) => {
  const projectId = await developerWithOrganization(page.request);
  const domain = `initech-${Date.now()}.example`;
  await page.goto(`/projects/${projectId}/settings/enterprise-sso`);
  await addSamlConnection(page, domain);

  const connection = page.getByRole('listitem', { name: 'Initech Okta' });
  await expect(connection.getByText(`${domain} · unverified`)).toBeVisible();
  await expect(connection.getByText(/\/sso\/saml\/[^/]+\/acs/).first()).toBeVisible();
  await expect(connection.getByTitle(`_authplatform-verification.${domain}`)).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await captureScreen(page, 'enterprise-sso-light');

  await connection.getByRole('button', { name: 'Create SCIM token' }).click();
  const tokenDialog = page.getByRole('dialog', { name: 'Your SCIM token' });
  await expect(tokenDialog.getByText('Shown only once')).toBeVisible();
  await expect(tokenDialog.getByText(/^scim_/)).toBeVisible();
  await captureScreen(page, 'enterprise-sso-scim-token', { fullPage: false });
  await tokenDialog.getByRole('button', { name: 'I have copied the token' }).click();
  await expect(tokenDialog).toBeHidden();
  await expect(page.getByText(/^scim_/)).toHaveCount(0);
  await expect(connection.getByRole('button', { name: 'Rotate' })).toBeVisible();
});

async function lookAt(browser: Browser, theme: 'light' | 'dark', viewport: { width: number; height: number }, name: string) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), theme);
  const projectId = await developerWithOrganization(page.request);
  await page.goto(`/projects/${projectId}/settings/enterprise-sso`);
  await addSamlConnection(page, `look-${Date.now()}.example`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  // Nothing in the connection is cut off: its details button and its domains' status are whole.
  const row = page.getByRole('listitem', { name: 'Initech Okta' });
  const toggle = row.getByRole('button', { name: /details of Initech Okta$/ });
  const [rowBox, toggleBox] = [await row.boundingBox(), await toggle.boundingBox()];
  expect(toggleBox!.x + toggleBox!.width).toBeLessThanOrEqual(rowBox!.x + rowBox!.width);
  await expect(row.getByText(/· unverified$/)).toBeVisible();
  expect(await row.getByText(/· unverified$/).evaluate((label) => label.scrollWidth <= label.clientWidth + 1)).toBe(true);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await captureScreen(page, name);
  await context.close();
}

test('the Enterprise SSO section reads in the dark theme', async ({ browser }) => {
  await lookAt(browser, 'dark', { width: 1280, height: 900 }, 'enterprise-sso-dark');
});

test('the Enterprise SSO section fits 375 px', async ({ browser }) => {
  await lookAt(browser, 'light', { width: 375, height: 812 }, 'enterprise-sso-375-light');
});

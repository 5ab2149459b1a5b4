import type { APIRequestContext } from '@playwright/test';
import { idpMetadataXml } from '../helpers/identity-providers/saml';
import { expect, test } from './fixtures';
import { PASSWORD, captureScreen, linkIn, seriousAxeViolations, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * The self-serve setup portal of enterprise SSO (issue 29): a developer makes a setup link on the
 * Enterprise SSO screen; the customer's IT admin opens it in another browser (no account), follows the
 * Okta guide with its values to copy, adds the SAML connection by pasting the IdP's metadata, checks the
 * domain's DNS record and makes the SCIM token, shown once. The portal at 375 px too. The e2e server
 * checks DNS for real (SSO_DOMAIN_VERIFICATION=dns), so the domain of a test stays unverified here: the
 * API tests verify domains (tests/api/sso-admin-portal.test.ts).
 */

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function developerWithOrganization(request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('portal-dev');
  await signUpViaApi(request, { email, firstName: 'Sam' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(request, 'projects.create', { name: 'B2B Suite', environment: 'production' });
  await trpc(request, 'organizations.create', { id: project.id, name: 'Initech' });
  return project.id;
}

test.describe.configure({ timeout: 120_000 });

test('a developer makes a setup link; the IT admin opens it once, follows the Okta guide, adds the SAML connection, checks the domain and makes a SCIM token', async ({ page, browser }) => {
  const projectId = await developerWithOrganization(page.request);
  await page.goto(`/projects/${projectId}/settings/enterprise-sso`);
  await page.getByRole('button', { name: 'Create setup link' }).click({ timeout: 20_000 });
  const dialog = page.getByRole('dialog', { name: 'Create setup link' });
  await expect(dialog.getByRole('textbox', { name: 'Organization' })).toHaveValue('Initech');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByText('Shown only once')).toBeVisible();
  const url = (await dialog.getByText(/\/portal\/[A-Za-z0-9_-]+$/).textContent())!.trim();
  await expect(dialog.getByRole('button', { name: /Copy the setup link/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'I have copied the link' }).click();
  await expect(dialog).toBeHidden();

  // The IT admin: another browser, no account.
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const portal = await admin.newPage();
  const errors: string[] = [];
  portal.on('pageerror', (error) => errors.push(error.message));
  await portal.goto(url);
  await portal.getByRole('button', { name: 'Start the setup' }).click();
  await expect(portal.getByRole('heading', { name: 'Single sign-on for Initech' })).toBeVisible();
  await expect(portal).toHaveURL(/\/portal$/);
  // No dashboard chrome.
  await expect(portal.getByRole('link', { name: /Projects|Dashboard/ })).toHaveCount(0);

  // The Okta guide, with the values to paste into Okta.
  await portal.getByRole('radio', { name: 'Okta' }).last().check({ force: true });
  const steps = portal.getByRole('list', { name: 'Okta steps' });
  await expect(steps.getByText(/Create App Integration/)).toBeVisible();
  await expect(steps.getByText(/\/sso\/saml\/[^/]+\/acs$/)).toBeVisible();
  await expect(steps.getByRole('button', { name: /Copy ACS URL/ }).first()).toBeVisible();
  await expect(steps.getByRole('button', { name: /Copy SP entity ID/ }).first()).toBeVisible();
  const acsUrl = (await steps.getByText(/\/sso\/saml\/[^/]+\/acs$/).textContent())!.trim();
  expect(await seriousAxeViolations(portal)).toEqual([]);
  await captureScreen(portal, 'sso-admin-portal-okta-guide');

  const domain = `initech-${Date.now()}.example`;
  await portal.getByRole('textbox', { name: 'Name' }).fill('Initech Okta');
  await portal.getByRole('textbox', { name: 'IdP metadata XML' }).fill(idpMetadataXml());
  await portal.getByRole('textbox', { name: 'Domains' }).fill(domain);
  await portal.getByRole('textbox', { name: 'Domains' }).press('Enter');
  await portal.getByRole('button', { name: 'Add connection' }).click();

  const connection = portal.getByRole('region', { name: 'Initech Okta' });
  await expect(connection).toBeVisible();
  // The connection has the ACS URL the guide showed before it existed.
  await expect(connection.getByText(acsUrl)).toBeVisible();
  await expect(connection.getByText(`_authplatform-verification.${domain}`)).toBeVisible();
  await expect(connection.getByRole('button', { name: `Copy the TXT record value of ${domain}` })).toBeVisible();
  await connection.getByRole('button', { name: 'Check the DNS records' }).click();
  await expect(connection.getByRole('status')).toContainText(`The TXT record was not found yet for ${domain}`);

  await connection.getByRole('button', { name: 'Create a SCIM token' }).click();
  await expect(connection.getByText('Your SCIM token, shown only once')).toBeVisible();
  await expect(connection.getByText(/^scim_/)).toBeVisible();
  await expect(connection.getByText(/\/scim\/v2\//)).toBeVisible();

  // At 375 px: nothing wider than the screen, the buttons whole.
  await portal.setViewportSize({ width: 375, height: 800 });
  expect(await portal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const check = await connection.getByRole('button', { name: 'Check the DNS records' }).boundingBox();
  expect(check!.x + check!.width).toBeLessThanOrEqual(375);
  await captureScreen(portal, 'sso-admin-portal-375');

  // The link opened once: in yet another browser it is refused, in words.
  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(url);
  await again.getByRole('button', { name: 'Start the setup' }).click();
  await expect(again.getByRole('alert')).toContainText('already opened');
  await other.close();
  expect(errors).toEqual([]);
  await admin.close();
});

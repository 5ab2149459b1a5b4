import type { APIRequestContext } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * Machine and device clients of a project's OpenID Connect provider, end to end: a TV asks for a
 * device code, its user types the code on the hosted device page, signs in there and approves, and
 * the TV's next poll gets the tokens; a developer adds a machine client in the project's settings and
 * its secret, shown once, gets a client-credentials token.
 */

const { shoot, shootThemes } = screenshots('device-flow');
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

async function developerProject(request: APIRequestContext, name: string) {
  const email = uniqueEmail('device-dev');
  await signUpViaApi(request, { email, firstName: 'Dana' });
  await trpc(request, 'auth.verifyEmail', { token: linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token') });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return trpc<{ id: string; project_key: string; issuer: string }>(request, 'projects.create', { name, environment: 'development' });
}

test('a TV signs in with a device code its user approves on the hosted device page', async ({ page, request, playwright }) => {
  test.setTimeout(120_000);
  const project = await developerProject(request, 'Acme TV');
  const key = project.project_key;
  const email = uniqueEmail('device-viewer');
  const api = `/hosted/${key}/api/v1`;
  const signup = await request.post(`${api}/auth/signup`, { data: { email, password: PASSWORD, first_name: 'Grace', last_name: 'Hopper', captcha_token: '', device_fingerprint: null } });
  expect(signup.ok(), await signup.text()).toBe(true);
  const verified = await request.post(`${api}/auth/verify-email`, { data: { token: linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token'), device_fingerprint: null } });
  expect(verified.ok(), await verified.text()).toBe(true);

  // The TV: a context of its own, without the browser's cookies.
  const tv = await playwright.request.newContext({ baseURL: E2E.baseURL });
  const started = await tv.post(`/projects/${key}/oauth/device_authorization`, { form: { client_id: key, scope: 'openid email offline_access' } });
  expect(started.ok(), await started.text()).toBe(true);
  const codes = (await started.json()) as { device_code: string; user_code: string; verification_uri: string };
  const poll = () => tv.post(`/projects/${key}/oauth/token`, { form: { grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: key } });
  expect(((await (await poll()).json()) as { error: string }).error).toBe('authorization_pending');

  // The user opens the address the TV shows and types the code.
  await page.goto(new URL(codes.verification_uri).pathname);
  await expect(page.getByRole('heading', { name: 'Connect a device' })).toBeVisible({ timeout: 30_000 });
  await shootThemes(page, 'hosted-code');
  await page.getByRole('textbox', { name: 'Code' }).fill(codes.user_code.toLowerCase().replace('-', ''));
  await expect(page.getByRole('textbox', { name: 'Code' })).toHaveValue(codes.user_code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Acme TV wants to sign in on a device')).toBeVisible();
  await expect(page.getByText(`your device shows ${codes.user_code}`)).toBeVisible();
  await expect(page.getByText('See your e-mail address')).toBeVisible();
  await shootThemes(page, 'hosted-request-signed-out');

  // Signed out: sign in, and come back to the request.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible({ timeout: 15_000 });
  await shootThemes(page, 'hosted-request');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device connected')).toBeVisible();
  await shoot(page, 'hosted-approved');

  // The TV's next poll gets the tokens, once. A poll within its interval hears slow_down (10 s from then on): the retry keeps to it.
  await expect(async () => {
    const answer = await poll();
    const body = (await answer.json()) as { access_token?: string; refresh_token?: string; error?: string };
    expect(body.error ?? null, JSON.stringify(body)).toBeNull();
    expect(body.access_token).toBeTruthy();
    expect(body.refresh_token).toBeTruthy();
  }).toPass({ timeout: 40_000, intervals: [11_000] });
  expect(((await (await poll()).json()) as { error: string }).error).toBe('invalid_grant');
  await tv.dispose();
});

test('a developer adds a machine client and its secret, shown once, gets a token', async ({ page }) => {
  test.setTimeout(120_000);
  const project = await developerProject(page.request, 'Acme Jobs');
  await page.goto(`/projects/${project.id}/settings/machine-clients`);
  await expect(page.getByRole('heading', { name: 'Machine clients', level: 3 })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Add machine client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add machine client' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Nightly billing');
  await dialog.getByRole('textbox', { name: 'Allowed scopes' }).fill('invoices:read');
  await dialog.getByRole('textbox', { name: 'Allowed scopes' }).press('Enter');
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await shoot(page, 'machine-client-dialog', dialog);
  await dialog.getByRole('button', { name: 'Create client' }).click();

  const shown = page.getByRole('dialog', { name: "Your machine client's secret" });
  await expect(shown.getByText('Shown only once')).toBeVisible();
  await shoot(page, 'machine-client-secret', shown);
  const values = await shown.getByTestId('copy-value').allTextContents();
  const [clientId, secret] = values as [string, string];
  expect(clientId).toMatch(/^mc_/);
  expect(secret).toMatch(/^mcs_/);
  const token = await page.request.post(`/projects/${project.project_key}/oauth/token`, {
    form: { grant_type: 'client_credentials', scope: 'invoices:read' },
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  });
  expect(token.ok(), await token.text()).toBe(true);
  expect(((await token.json()) as { scope: string }).scope).toBe('invoices:read');

  await shown.getByRole('button', { name: 'I have copied the secret' }).click();
  const list = page.getByRole('list', { name: 'Machine clients' });
  await expect(list.getByRole('listitem', { name: 'Nightly billing' })).toContainText('invoices:read');
  await expect(page.getByText(secret)).toHaveCount(0);
  await shootThemes(page, 'machine-clients', () => page.getByRole('region', { name: 'Machine clients' }));
});

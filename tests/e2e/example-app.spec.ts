import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { screenshots } from './screenshots-support';
import { PASSWORD, field, linkIn, signUpViaApi, uniqueEmail, waitForMail } from './support';
import { freePort } from '../helpers/tcp-probe';

/**
 * The example app (examples/node-app) against the real server: it sends the user to the project's
 * hosted sign-in page with openid-client, comes back with tokens, and its own API verifies the access
 * token with the SDK. Issue 25: a sign-in that goes through the mailbox (sign-up and verification,
 * forgot password and reset) ends back at the app signed in, whether the mailed link is opened in a
 * new tab or in another browser.
 */

const root = path.resolve(import.meta.dirname, '../..');
// Each hosted step of the journey, in light and dark and at 375 px (README, "The end user's journey").
const { shootThemes } = screenshots('journey');

test.describe.configure({ mode: 'serial' });

let example: ChildProcess | undefined;
let exampleUrl = '';
let projectKey = '';
let apiKey = '';

async function startExample(key: string, port: number): Promise<void> {
  example = spawn(path.join(root, 'node_modules/.bin/tsx'), ['examples/node-app/server.ts'], {
    cwd: root,
    env: { ...process.env, AUTH_URL: E2E.baseURL, PROJECT_KEY: key, PORT: String(port), APP_URL: `http://${E2E.host}:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  example.stdout!.on('data', (chunk) => (output += chunk));
  example.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 20_000;
  while (!output.includes('Example app on')) {
    if (Date.now() > deadline || example.exitCode !== null) throw new Error(`the example app did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A verified developer with a project named "Example shop" that registers the example's addresses. */
async function createProject(request: APIRequestContext): Promise<void> {
  const developer = uniqueEmail('example-dev');
  await signUpViaApi(request, { email: developer });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  expect((await request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  const login = await request.post('/trpc/auth.logIn', { data: { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null } });
  expect(login.ok(), await login.text()).toBe(true);
  const created = await request.post('/trpc/projects.create', {
    data: { name: 'Example shop', redirect_uris: [`${exampleUrl}/callback`], post_logout_redirect_uris: [`${exampleUrl}/`] },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const project = (await created.json()).result.data as { id: string; project_key: string };
  const key = await request.post('/trpc/projects.createApiKey', { data: { id: project.id, name: 'backend' } });
  expect(key.ok(), await key.text()).toBe(true);
  projectKey = project.project_key;
  apiKey = (await key.json()).result.data.secret as string;
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  exampleUrl = `http://${E2E.host}:${await freePort()}`;
  const request = await playwright.request.newContext({ baseURL: E2E.baseURL });
  await createProject(request);
  await request.dispose();
  await startExample(projectKey, Number(new URL(exampleUrl).port));
});

test.afterAll(() => {
  example?.kill();
});

/** The app's "Sign in": the browser lands on the project's hosted sign-in page, holding the app's request. */
async function startAtTheApp(page: Page): Promise<void> {
  await page.goto(exampleUrl);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/hosted/${projectKey}/sign-in\\?interaction=`));
}

async function expectSignedInAtTheApp(page: Page, name: string, email: string): Promise<void> {
  await expect(page).toHaveURL(`${exampleUrl}/`);
  await expect(page.getByText(`Signed in as ${name} (${email})`)).toBeVisible();
  await expect(page.getByTestId('api-answer')).toContainText('200 {"message":"Hello, ');
}

/** Signs up on the hosted page of the app's sign-in, up to "check your e-mail"; answers the verification link. */
async function signUpOnTheHostedPage(page: Page, email: string): Promise<string> {
  await page.getByRole('link', { name: 'Sign up' }).click();
  await field(page, 'First name').fill('Grace');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();
  return linkIn(await waitForMail(email, /verify/i), '/verify-email').href;
}

async function newBrowser(browser: Browser) {
  const context = await browser.newContext({ baseURL: E2E.baseURL });
  return { context, page: await context.newPage() };
}

test('the example app signs a user in through the hosted pages and its API verifies the token', async ({ page }) => {
  // An end user of the project, signed up and verified through the public API.
  const endUser = uniqueEmail('example-user');
  const headers = { 'x-api-key': apiKey };
  expect((await page.request.post('/public/api/v1/auth/signup', { headers, data: { email: endUser, password: PASSWORD, first_name: 'Grace' } })).status()).toBe(201);
  const verifyToken = linkIn(await waitForMail(endUser, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/public/api/v1/auth/verify-email', { headers, data: { token: verifyToken } })).ok()).toBe(true);

  await startAtTheApp(page);
  await field(page, 'Email').fill(endUser);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectSignedInAtTheApp(page, 'Grace', endUser);

  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${exampleUrl}/`);
  await expect(page.getByText('You are not signed in.')).toBeVisible();

  // Signed in on the hosted pages themselves, the account page leads back to the app.
  await page.goto(`/hosted/${projectKey}/sign-in`);
  await field(page, 'Email').fill(endUser);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Example shop' })).toHaveAttribute('href', `${exampleUrl}/`);
  await shootThemes(page, 'account');
});

test('a new user signs up during the app sign-in and opens the verification link in a new tab: back at the app, signed in', async ({ page, context }) => {
  const email = uniqueEmail('example-new-tab');
  await startAtTheApp(page);
  const link = await signUpOnTheHostedPage(page, email);
  await shootThemes(page, 'check-email');

  const tab = await context.newPage();
  await tab.goto(link);
  await expect(tab.getByText('Email verified!')).toBeVisible();
  await shootThemes(tab, 'verified');
  // The browser that signed up holds the app's sign-in: no password again.
  await tab.getByRole('button', { name: 'Continue to Example shop' }).click();
  await expectSignedInAtTheApp(tab, 'Grace', email);
});

test('a new user opens the verification link in another browser: signs in there and is back at the app', async ({ page, browser }) => {
  const email = uniqueEmail('example-other-browser');
  await startAtTheApp(page);
  const link = await signUpOnTheHostedPage(page, email);

  const other = await newBrowser(browser);
  try {
    await other.page.goto(link);
    await expect(other.page.getByText('Email verified!')).toBeVisible();
    await shootThemes(other.page, 'verified-elsewhere');
    await other.page.getByRole('link', { name: 'Sign in to continue to Example shop' }).click();
    await expect(field(other.page, 'Email')).toHaveValue(email);
    await field(other.page, 'Password').fill(PASSWORD);
    await other.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectSignedInAtTheApp(other.page, 'Grace', email);
  } finally {
    await other.context.close();
  }
});

for (const where of ['a new tab', 'another browser'] as const) {
  test(`forgot password during the app sign-in, reset from ${where}: back at the app, signed in`, async ({ page, context, browser }) => {
    const email = uniqueEmail('example-reset');
    const headers = { 'x-api-key': apiKey };
    expect((await page.request.post('/public/api/v1/auth/signup', { headers, data: { email, password: PASSWORD, first_name: 'Ada' } })).status()).toBe(201);

    await startAtTheApp(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await field(page, 'Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    const link = linkIn(await waitForMail(email, /reset/i), '/reset-password').href;

    const other = where === 'a new tab' ? { context, page: await context.newPage() } : await newBrowser(browser);
    try {
      await other.page.goto(link);
      await field(other.page, 'New password').fill('Another-Horse-43');
      await field(other.page, 'Confirm new password').fill('Another-Horse-43');
      await other.page.getByRole('button', { name: 'Reset password' }).click();
      await expect(other.page.getByText('Your password was reset')).toBeVisible();
      if (where === 'another browser') await shootThemes(other.page, 'reset');
      await other.page.getByRole('button', { name: 'Continue to Example shop' }).click();
      await expectSignedInAtTheApp(other.page, 'Ada', email);
    } finally {
      if (other.context !== context) await other.context.close();
    }
  });
}

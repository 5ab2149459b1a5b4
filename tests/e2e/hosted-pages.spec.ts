import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail, captureScreen } from './support';

/**
 * A project's hosted pages against the real server: a developer makes a project (branded, with an app's
 * redirect addresses); an end user signs up on the hosted pages, follows the verification mail, signs in,
 * edits the account and signs out; then an app sends them through the OpenID Connect round trip.
 */

const APP = `${E2E.baseURL}/e2e-app`;
const CALLBACK = `${APP}/callback`;
const SIGNED_OUT = `${APP}/signed-out`;

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** A verified developer (signed in on `request`) and their project: green accent, the app's favicon as logo, no website (mail links come here). */
async function developerProject(request: APIRequestContext): Promise<{ key: string; name: string }> {
  const email = uniqueEmail('hosted-dev');
  await signUpViaApi(request, { email, firstName: 'Dana' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const name = 'Acme Notes';
  const project = await trpc<{ project_key: string }>(request, 'projects.create', {
    name,
    environment: 'development',
    logo_url: `${E2E.baseURL}/favicon.svg`,
    accent_color: '#0ca678',
    redirect_uris: [CALLBACK],
    post_logout_redirect_uris: [SIGNED_OUT],
  });
  return { key: project.project_key, name };
}

/**
 * Stands in for the app: its callback and signed-out pages answer a plain page. Playwright does not
 * route a request reached by a redirect, so the tests read where the provider sent the browser from
 * the request itself (waitForRequest), never from the page's URL afterwards.
 */
async function fakeApp(page: Page) {
  await page.route(`${APP}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><h1>Back in the app</h1>' }));
}

/** Waits until the browser has loaded the page it was sent to outside the hosted pages, so the next goto is not cut short. */
async function leftTheHostedPages(page: Page) {
  await page.waitForURL((url) => !url.pathname.startsWith('/hosted/'));
}

async function shoot(page: Page, name: string) {
  await captureScreen(page, `hosted-${name}`);
}

/** Light, dark (through the page's own toggle) and 375 px wide; leaves the page light at 1280 px. */
async function shootThemes(page: Page, name: string) {
  await shoot(page, `${name}-light`);
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await shoot(page, `${name}-dark`);
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, `${name}-375-dark`);
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await shoot(page, `${name}-375-light`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('hosted pages: sign up, verify from the mail, sign in, edit the account, sign out, and the OpenID Connect round trip', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { key, name } = await developerProject(request);
  const hosted = `/hosted/${key}`;
  await fakeApp(page);

  // Sign up on the hosted page.
  const email = uniqueEmail('hosted-user');
  await page.goto(`${hosted}/sign-up`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await field(page, 'First name').fill('Grace');
  await field(page, 'Last name').fill('Hopper');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await shoot(page, 'sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The project has no website: its verification link opens the hosted page.
  const link = linkIn(await waitForMail(email, /verif/i), '/verify-email');
  expect(link.pathname).toBe(`${hosted}/verify-email`);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByText('Email verified!')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to sign in' }).click();

  // Sign in: the platform login's labels, in the project's colours.
  await expect(page).toHaveURL(new RegExp(`${hosted}/sign-in$`));
  await expect(page.getByRole('img', { name: `${name} logo` })).toBeVisible();
  await expect(page).toHaveTitle(`Sign in · ${name}`);
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn).toHaveCSS('background-color', 'rgb(12, 166, 120)');
  await shootThemes(page, 'sign-in');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('Wrong-Password-1');
  await signIn.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password' })).toBeVisible();
  await field(page, 'Password').fill(PASSWORD);
  await signIn.click();

  // The account page: the names, this session; change a name.
  await expect(page).toHaveURL(new RegExp(`${hosted}/account$`));
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  const sessions = page.getByRole('list', { name: 'Your sessions' });
  await expect(sessions.getByRole('listitem', { name: /this device$/ })).toBeVisible();
  await expect(sessions.getByText('Active now')).toBeVisible();
  await expect(field(page, 'First name')).toHaveValue('Grace');
  await shootThemes(page, 'account');
  await field(page, 'First name').fill('Amazing Grace');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await page.reload();
  await expect(field(page, 'First name')).toHaveValue('Amazing Grace');

  // An app signs the user out without proof: the hosted page asks first, then the provider returns to the app.
  const logout = new URLSearchParams({ client_id: key, post_logout_redirect_uri: SIGNED_OUT, state: 'bye-1' });
  await page.goto(`${hosted}/logout?${logout}`);
  await expect(page.getByRole('heading', { name: `Sign out of ${name}?` })).toBeVisible();
  await shoot(page, 'sign-out');
  const backInApp = page.waitForRequest((sent) => sent.url().startsWith(SIGNED_OUT));
  await page.getByRole('button', { name: 'Sign out' }).click();
  expect((await backInApp).url()).toBe(`${SIGNED_OUT}?state=bye-1`);
  await leftTheHostedPages(page);
  await page.goto(`${hosted}/account`);
  await expect(page).toHaveURL(new RegExp(`${hosted}/sign-in$`));

  // An app asks for a sign-in (code + PKCE): the provider opens the hosted sign-in, which hands back to it.
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URLSearchParams({
    response_type: 'code',
    client_id: key,
    redirect_uri: CALLBACK,
    scope: 'openid email profile',
    state: 'st-1',
    nonce: 'n-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: email,
  });
  await page.goto(`${hosted}/authorize?${authorize}`);
  await expect(page).toHaveURL(new RegExp(`${hosted}/sign-in\\?interaction=`));
  await expect(field(page, 'Email')).toHaveValue(email);
  await field(page, 'Password').fill(PASSWORD);
  const callbackRequest = page.waitForRequest((sent) => sent.url().startsWith(CALLBACK));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const callback = new URL((await callbackRequest).url());
  await leftTheHostedPages(page);
  expect(callback.searchParams.get('state')).toBe('st-1');
  expect(callback.searchParams.get('code')).toBeTruthy();

  // Signing out from the account page ends on the signed-out page.
  await page.goto(`${hosted}/account`);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await shoot(page, 'signed-out');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/sign-in$`));
});

test('hosted pages: an unknown project says so', async ({ page }) => {
  await page.goto('/hosted/pk_does_not_exist/sign-in');
  await expect(page.getByRole('heading', { name: 'Unknown application' })).toBeVisible();
  await shoot(page, 'unknown-project');
});

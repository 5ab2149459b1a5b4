import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { startTestGitHub, type TestGitHub } from '../helpers/identity-providers';
import { freePort } from '../helpers/tcp-probe';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { serverCommand } from './server-bundle';
import { PASSWORD, field, linkIn, uniqueEmail, waitForMail } from './support';

/**
 * Issue 32's rough edges that need an operator's settings, on a server of their own: the marketing page
 * turned off (LANDING_PAGE=off: `/` is the sign-in), the operator's legal pages (PRIVACY_URL, TERMS_URL),
 * and the platform's captcha (self-hosted ALTCHA, no third party), which a project's hosted pages show
 * unless the project chose `none`. It also signs in with its own GitHub stand-in, whose one user's
 * account (no password) may be deleted here: the main server's is shared with other specs.
 */
const root = path.resolve(import.meta.dirname, '../..');
const operatorUrl = `http://${E2E.host}:${E2E.operatorPort}`;
const PRIVACY_URL = 'https://operator.example/privacy';
const TERMS_URL = 'https://operator.example/terms';
let server: ChildProcess | null = null;
let github: TestGitHub | null = null;
const octocat = { id: 5151, login: 'e2e-operator-octocat', name: 'Op Octocat', email: 'e2e-operator-octocat@example.com' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = path.join(E2E.workDir, 'operator');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(E2E.workDir, 'operator.log');
  github = await startTestGitHub({
    port: await freePort(),
    acceptAnyClient: true,
    defaultUserId: octocat.id,
    users: [{ id: octocat.id, login: octocat.login, name: octocat.name, emails: [{ email: octocat.email, primary: true, verified: true }] }],
  });
  const [command, args] = serverCommand();
  server = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', fs.openSync(logFile, 'w'), fs.openSync(logFile, 'a')],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(E2E.operatorPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: path.join(dataDir, 'e2e.sqlite'),
      SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
      APP_URL: operatorUrl,
      BCRYPT_COST: '10',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      LANDING_PAGE: 'off',
      PRIVACY_URL,
      TERMS_URL,
      CAPTCHA_PROVIDER: 'altcha',
      GITHUB_CLIENT_ID: 'operator-github-client',
      GITHUB_CLIENT_SECRET: 'operator-github-secret',
      GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      GITHUB_TOKEN_URL: github.tokenUrl,
      GITHUB_API_URL: github.apiBaseUrl,
    },
  });
  // A bound, not a wait: it ends when /health answers.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the operator's server exited:\n${fs.readFileSync(logFile, 'utf8')}`);
    if (await fetch(`http://127.0.0.1:${E2E.operatorPort}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`the operator's server did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await github?.close();
});

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`${operatorUrl}/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** The hosted sign-in page once its captcha configuration has been answered (so "no widget" means none, not "not yet"). */
async function openHostedSignIn(page: Page, projectKey: string) {
  const config = page.waitForResponse((response) => response.url().endsWith(`/hosted/${projectKey}/api/v1/captcha/config`));
  await page.goto(`${operatorUrl}/hosted/${projectKey}/sign-in`);
  const answer = (await (await config).json()) as { enabled: boolean; provider: string };
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  return answer;
}

test('with LANDING_PAGE=off, / is the sign-in, and the footer and the form link only the legal pages the operator gave', async ({ page }) => {
  await page.goto(`${operatorUrl}/`);
  await expect(page).toHaveURL(`${operatorUrl}/login`);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  // No marketing: no pricing, no testimonials.
  await expect(page.getByLabel('Pro plan')).toHaveCount(0);
  await expect(page.getByText(/public beta/i)).toHaveCount(0);

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', PRIVACY_URL);
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', TERMS_URL);
  await expect(footer.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/api-docs');
  const notice = page.getByText('By signing in you agree to our');
  await expect(notice).toContainText('By signing in you agree to our Terms of Service and Privacy Policy.');
  await expect(notice.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', TERMS_URL);

  // System Status is a screen in words, not the probe's raw JSON.
  await footer.getByRole('link', { name: 'System Status' }).click();
  await expect(page).toHaveURL(`${operatorUrl}/status`);
  await expect(page.getByText('All systems operational')).toBeVisible();
});

test("the platform's captcha is on its own forms and a project's hosted pages, unless the project chose none", async ({ page }) => {
  test.setTimeout(180_000);
  // A developer signs up and in through the forms: the platform's ALTCHA widget solves on submit.
  const email = uniqueEmail('operator-dev');
  await page.goto(`${operatorUrl}/signup`);
  await expect(page.getByTestId('altcha-widget')).toBeVisible();
  await field(page, 'First name').fill('Opal');
  await field(page, 'Last name').fill('Rator');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 60_000 });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await expect(page.getByTestId('altcha-widget')).toBeVisible();
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
  // Signed in, / (no landing page) leads to the dashboard.
  await page.goto(`${operatorUrl}/`);
  await expect(page).toHaveURL(/\/dashboard$/);

  const inherits = await trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'Follows the platform', environment: 'development' });
  const none = await trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'No captcha', environment: 'development' });
  const chosen = await page.request.patch(`${operatorUrl}/api/v1/projects/${none.id}/settings`, { data: { captcha_provider: 'none' } });
  expect(chosen.ok(), await chosen.text()).toBe(true);
  expect(((await chosen.json()) as { captcha_provider: string }).captcha_provider).toBe('none');

  await page.context().clearCookies();
  expect(await openHostedSignIn(page, inherits.project_key)).toMatchObject({ enabled: true, provider: 'altcha' });
  await expect(page.getByTestId('altcha-widget')).toBeVisible();

  expect(await openHostedSignIn(page, none.project_key)).toMatchObject({ enabled: false, provider: 'none' });
  await expect(page.getByTestId('altcha-widget')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Loading captcha' })).toHaveCount(0);
  await page.goto(`${operatorUrl}/hosted/${none.project_key}/sign-up`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByTestId('altcha-widget')).toHaveCount(0);
});

test('a GitHub-only developer with a passkey (no password) deletes the account, confirming with the passkey', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${operatorUrl}/login`);
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A passkey, through Chromium's virtual authenticator (just signed in: no step-up yet).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto(`${operatorUrl}/settings`);
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('listitem', { name: 'Passkey 1' })).toBeVisible();

  // The sign-in an hour back, past the step-up window.
  const file = path.join(E2E.workDir, 'operator', 'e2e.sqlite');
  const db = new Database(file);
  try {
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    db.prepare('update sessions set created_at = ?, authenticated_at = ?, reauthenticated_at = null where user_id in (select id from users where email = ? and project_id is null)').run(hourAgo, hourAgo, octocat.email);
  } finally {
    db.close();
  }

  await page.getByRole('tab', { name: 'Danger Zone' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('Type DELETE to confirm').fill('DELETE');
  await page.getByRole('button', { name: 'Permanently delete account' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/\/settings$/);

  const after = new Database(file, { readonly: true });
  try {
    expect(after.prepare('select count(*) as n from users where email = ? and project_id is null').get(octocat.email)).toEqual({ n: 0 });
  } finally {
    after.close();
  }
});

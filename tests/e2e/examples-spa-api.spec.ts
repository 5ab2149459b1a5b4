import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, field, linkIn, logInViaUi, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';
import { freePort } from '../helpers/tcp-probe';

/**
 * examples/react-spa (@authplatform/react) served by examples/express-api (@authplatform/node's requireAuth), against
 * the real server, as `npm run example:spa` runs them: sign in through the hosted pages in one tab, a second tab of the
 * app is signed in too, both call the API, the two tabs share exactly one refresh per access token, and signing out
 * in one tab signs out the other; a session revoked from the dashboard is refused by the API within 5 s and both tabs
 * show why they are signed out. The project's access tokens live 60 s (the shortest a project may set), so the
 * client refreshes after 30 s (half the lifetime): the tabs' clock is moved on to that point instead of waited out.
 */

const root = path.resolve(import.meta.dirname, '../..');
const ACCESS_TOKEN_TTL_S = 60;

test.describe.configure({ mode: 'serial' });

let api: ChildProcess | undefined;
let appUrl = '';
let endUser = '';
let developer = '';
let projectId = '';

function waitForOutput(child: ChildProcess, text: string, what: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not finish in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!output.includes(text)) reject(new Error(`${what} exited (${code}):\n${output}`));
    });
  });
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  const port = await freePort();
  appUrl = `http://${E2E.host}:${port}`;
  const spaDir = path.join(root, `test-results/e2e-react-spa-${E2E.port}`);

  // The SPA builds while the project is made.
  const build = spawn(path.join(root, 'node_modules/.bin/vite'), ['build', '--config', 'examples/react-spa/vite.config.ts', '--outDir', spaDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const built = waitForOutput(build, 'built in', 'vite build of examples/react-spa', 180_000);

  const request = await playwright.request.newContext({ baseURL: E2E.baseURL });
  developer = uniqueEmail('spa-dev');
  await signUpViaApi(request, { email: developer });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  expect((await request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  const login = await request.post('/trpc/auth.logIn', { data: { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null } });
  expect(login.ok(), await login.text()).toBe(true);
  const created = await request.post('/trpc/projects.create', {
    data: { name: 'Example SPA', redirect_uris: [`${appUrl}/callback`], post_logout_redirect_uris: [`${appUrl}/`], allowed_origins: [appUrl] },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const project = (await created.json()).result.data as { id: string; project_key: string };
  projectId = project.id;
  const settings = await request.post('/trpc/projectSettings.update', { data: { id: project.id, access_token_ttl_s: ACCESS_TOKEN_TTL_S } });
  expect(settings.ok(), await settings.text()).toBe(true);
  const key = await request.post('/trpc/projects.createApiKey', { data: { id: project.id, name: 'example-api' } });
  expect(key.ok(), await key.text()).toBe(true);
  const apiKey = (await key.json()).result.data.secret as string;

  // An end user of the project, signed up and verified through the public API.
  endUser = uniqueEmail('spa-user');
  const headers = { 'x-api-key': apiKey };
  expect((await request.post('/public/api/v1/auth/signup', { headers, data: { email: endUser, password: PASSWORD, first_name: 'Lin' } })).status()).toBe(201);
  const verifyToken = linkIn(await waitForMail(endUser, /verif/i), '/verify-email').searchParams.get('token');
  expect((await request.post('/public/api/v1/auth/verify-email', { headers, data: { token: verifyToken } })).ok()).toBe(true);
  await request.dispose();

  await built;
  api = spawn(path.join(root, 'node_modules/.bin/tsx'), ['examples/express-api/server.ts'], {
    cwd: root,
    env: { ...process.env, AUTH_URL: E2E.baseURL, PROJECT_KEY: project.project_key, AUTH_API_KEY: apiKey, PORT: String(port), SPA_DIR: spaDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(api, 'Example API and SPA on', 'examples/express-api', 60_000);
});

test.afterAll(() => {
  api?.kill();
});

/** The token endpoint's refresh grants, in order: the refresh token each presented and the one it got back. */
interface Refresh {
  presented: string;
  issued?: string;
}

function isTokenCall(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/oauth/token');
}

async function callTheApi(page: Page): Promise<{ userId: string; sessionId: string; tokenIssuedAt: number }> {
  const answer = page.getByTestId('api-answer');
  const before = (await answer.count()) ? await answer.textContent() : null;
  await page.getByRole('button', { name: 'Call the API' }).click();
  await expect(answer).toContainText(/^200 /);
  if (before !== null) await expect(answer).not.toHaveText(before);
  return JSON.parse((await answer.textContent())!.slice(4));
}

test('two tabs of the React SPA: one sign-in, one refresh per token for both, the API answers both, sign-out reaches both', async ({ context }) => {
  test.setTimeout(180_000);
  let codeExchange: Promise<string> | undefined;
  const refreshes: Refresh[] = [];
  context.on('request', (request) => {
    if (!isTokenCall(request)) return;
    const form = new URLSearchParams(request.postData() ?? '');
    if (form.get('grant_type') === 'authorization_code') {
      codeExchange = request.response().then(async (response) => ((await response!.json()) as { refresh_token: string }).refresh_token);
    } else if (form.get('grant_type') === 'refresh_token') {
      const refresh: Refresh = { presented: form.get('refresh_token')! };
      refreshes.push(refresh);
      void request.response().then(async (response) => (refresh.issued = ((await response?.json()) as { refresh_token?: string } | undefined)?.refresh_token));
    }
  });

  // The tabs' timers and Date run on a clock the test can move on; it runs in real time until then.
  await context.clock.install();
  const first = await context.newPage();
  await first.goto(appUrl);
  await first.getByRole('button', { name: 'Sign in' }).click();
  await expect(first).toHaveURL(/\/hosted\/pk_[^/]+\/sign-in\?interaction=/);
  await field(first, 'Email').fill(endUser);
  await field(first, 'Password').fill(PASSWORD);
  await first.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(first).toHaveURL(`${appUrl}/`);
  await expect(first.getByText(`Signed in as ${endUser}`)).toBeVisible();

  // A second tab of the app takes the session of the first: no sign-in, no token call of its own.
  const tokenCallsBefore = refreshes.length;
  const second = await context.newPage();
  await second.goto(appUrl);
  await expect(second.getByText(`Signed in as ${endUser}`)).toBeVisible();

  const [fromFirst, fromSecond] = [await callTheApi(first), await callTheApi(second)];
  expect(fromSecond.sessionId).toBe(fromFirst.sessionId);
  expect(fromSecond.tokenIssuedAt).toBe(fromFirst.tokenIssuedAt);
  expect(refreshes.length).toBe(tokenCallsBefore);

  // The access token nears its expiry: one tab refreshes, and both show the new token's expiry.
  // The refreshed token is issued at least a second (its iat's unit) after the first, so the two tell apart.
  const expiry = await first.getByTestId('token-expiry').textContent();
  await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(fromFirst.tokenIssuedAt);
  await context.clock.fastForward((ACCESS_TOKEN_TTL_S / 2) * 1000);
  await expect(first.getByTestId('token-expiry')).not.toHaveText(expiry!);
  const refreshed = await first.getByTestId('token-expiry').textContent();
  await expect(second.getByTestId('token-expiry')).toHaveText(refreshed!);
  const [afterFirst, afterSecond] = [await callTheApi(first), await callTheApi(second)];
  expect(afterFirst.tokenIssuedAt).toBeGreaterThan(fromFirst.tokenIssuedAt);
  expect(afterSecond.tokenIssuedAt).toBe(afterFirst.tokenIssuedAt);

  // Exactly one refresh per token for both tabs: the sign-in's refresh token was spent once, and every later refresh
  // spent the one before it gave (two tabs refreshing the same session would present one refresh token twice).
  await expect.poll(() => refreshes.every((refresh) => refresh.issued)).toBe(true);
  expect(refreshes.length).toBeGreaterThanOrEqual(1);
  expect(refreshes[0]!.presented).toBe(await codeExchange);
  for (const [index, refresh] of refreshes.entries()) {
    if (index > 0) expect(refresh.presented).toBe(refreshes[index - 1]!.issued);
  }
  expect(new Set(refreshes.map((refresh) => refresh.presented)).size).toBe(refreshes.length);

  // Signing out in one tab signs out the other.
  await second.getByRole('button', { name: 'Sign out' }).click();
  await expect(second).toHaveURL(`${appUrl}/`);
  await expect(second.getByText(/You are signed out/)).toBeVisible();
  await expect(first.getByText(/You are signed out/)).toBeVisible();
  await expect(first.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(first.getByRole('button', { name: 'Call the API' })).toHaveCount(0);
});

test('a session revoked from the dashboard: the API refuses it within 5 s and both tabs show they were signed out (revoked)', async ({ context, browser }) => {
  const first = await context.newPage();
  await first.goto(appUrl);
  await first.getByRole('button', { name: 'Sign in' }).click();
  await field(first, 'Email').fill(endUser);
  await field(first, 'Password').fill(PASSWORD);
  await first.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(first.getByText(`Signed in as ${endUser}`)).toBeVisible();
  const second = await context.newPage();
  await second.goto(appUrl);
  await expect(second.getByText(`Signed in as ${endUser}`)).toBeVisible();
  const { sessionId } = await callTheApi(first);
  expect((await callTheApi(second)).sessionId).toBe(sessionId);

  // The developer revokes the session in Monitoring → Sessions.
  const team = await browser.newContext({ baseURL: E2E.baseURL });
  try {
    const dashboard = await team.newPage();
    await dashboard.goto('/login');
    await logInViaUi(dashboard, developer);
    await dashboard.goto(`/monitoring?project=${projectId}&tab=sessions`);
    // The app's session (its client named), not the hosted pages' own one of the same sign-in.
    const row = dashboard.getByRole('table', { name: 'Active sessions' }).getByRole('row').filter({ hasText: endUser }).filter({ hasText: 'OpenID Connect: Example SPA' });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(dashboard, 'Session revoked')).toBeVisible();
  } finally {
    await team.close();
  }

  // The access token has not expired, yet the API refuses it: the app's next call finds out, and the client signs
  // both tabs out with the reason.
  const signedOut = (page: Page) => page.getByText('You are signed out (revoked).');
  await expect(async () => {
    if (await signedOut(first).isVisible()) return;
    await first.getByRole('button', { name: 'Call the API' }).click({ timeout: 1_000 });
    await expect(signedOut(first)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 5_000 });
  await expect(signedOut(second)).toBeVisible();
  await expect(second.getByRole('button', { name: 'Call the API' })).toHaveCount(0);
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, field, linkIn, signUpViaApi, uniqueEmail, waitForMail } from './support';
import { freePort } from '../helpers/tcp-probe';

/**
 * The example app (examples/node-app) against the real server: it sends the user to the project's
 * hosted sign-in page with openid-client, comes back with tokens, and its own API verifies the access
 * token with the SDK.
 */

const root = path.resolve(import.meta.dirname, '../..');
let example: ChildProcess | undefined;

async function startExample(projectKey: string, port: number): Promise<void> {
  example = spawn(path.join(root, 'node_modules/.bin/tsx'), ['examples/node-app/server.ts'], {
    cwd: root,
    env: { ...process.env, AUTH_URL: E2E.baseURL, PROJECT_KEY: projectKey, PORT: String(port), APP_URL: `http://${E2E.host}:${port}` },
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

test.afterAll(() => {
  example?.kill();
});

test('the example app signs a user in through the hosted pages and its API verifies the token', async ({ page }) => {
  test.setTimeout(60_000);
  const port = await freePort();
  const exampleUrl = `http://${E2E.host}:${port}`;

  // A verified developer with a project that registers the example's addresses.
  const developer = uniqueEmail('example-dev');
  await signUpViaApi(page.request, { email: developer });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/trpc/auth.verifyEmail', { data: { token } })).ok()).toBe(true);
  const login = await page.request.post('/trpc/auth.logIn', { data: { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null } });
  expect(login.ok(), await login.text()).toBe(true);
  const created = await page.request.post('/trpc/projects.create', {
    data: { name: 'Example shop', redirect_uris: [`${exampleUrl}/callback`], post_logout_redirect_uris: [`${exampleUrl}/`] },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const project = (await created.json()).result.data as { id: string; project_key: string };
  const key = await page.request.post('/trpc/projects.createApiKey', { data: { projectId: project.id, name: 'backend' } });
  expect(key.ok(), await key.text()).toBe(true);
  const apiKey = (await key.json()).result.data.secret as string;

  // An end user of the project, signed up and verified through the public API.
  const endUser = uniqueEmail('example-user');
  const headers = { 'x-api-key': apiKey };
  expect((await page.request.post('/public/api/v1/auth/signup', { headers, data: { email: endUser, password: PASSWORD, first_name: 'Grace' } })).status()).toBe(201);
  const verifyToken = linkIn(await waitForMail(endUser, /verif/i), '/verify-email').searchParams.get('token');
  expect((await page.request.post('/public/api/v1/auth/verify-email', { headers, data: { token: verifyToken } })).ok()).toBe(true);
  await page.context().clearCookies();

  await startExample(project.project_key, port);
  await page.goto(exampleUrl);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/hosted/${project.project_key}/sign-in`));
  await field(page, 'Email').fill(endUser);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page).toHaveURL(`${exampleUrl}/`);
  await expect(page.getByText(`Signed in as Grace (${endUser})`)).toBeVisible();
  await expect(page.getByTestId('api-answer')).toContainText('200 {"message":"Hello, ');

  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${exampleUrl}/`);
  await expect(page.getByText('You are not signed in.')).toBeVisible();
});

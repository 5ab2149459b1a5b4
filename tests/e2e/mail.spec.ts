import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { serverCommand } from './server-bundle';
import { PASSWORD, field, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

/**
 * Issue 26's mail screens in the browser: the one-minute local demo (no SMTP_URL) where a new developer
 * finds the verification link on the Mail page without a terminal, and the admin area's Mail tab.
 */
const root = path.resolve(import.meta.dirname, '../..');
const { demoPort } = E2E;
const demoUrl = `http://${E2E.host}:${demoPort}`;
let demo: ChildProcess | null = null;

// Its own server: only the worker that runs this test starts it.
test.describe('local demo', () => {
  test.beforeAll(async () => {
    // A first start of the server takes a while on a loaded machine.
    test.setTimeout(180_000);
    const dataDir = path.join(E2E.workDir, 'mail-demo');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', PORT: String(demoPort), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_URL: demoUrl, BCRYPT_COST: '10', LOG_LEVEL: 'warn' };
    delete env.SMTP_URL;
    delete env.DATABASE_URL;
    const log = fs.openSync(path.join(E2E.workDir, 'mail-demo.log'), 'w');
    const [command, args] = serverCommand();
    demo = spawn(command, args, { cwd: root, stdio: ['ignore', log, log], env });
    // A bound, not a wait (it ends when /health answers): at a load average of 23 a start took 50 s, so 60 s was missed.
    const deadline = Date.now() + 150_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${demoPort}/health`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > deadline) throw new Error(`the demo server did not start:\n${fs.readFileSync(path.join(E2E.workDir, 'mail-demo.log'), 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  test.afterAll(() => {
    demo?.kill('SIGTERM');
  });

  test('local demo without SMTP_URL: a new developer signs up and opens the verification link from the Mail page', async ({ page }) => {
    const email = uniqueEmail('demo');
    await page.goto(`${demoUrl}/signup`);
    await field(page, 'First name').fill('Dee');
    await field(page, 'Last name').fill('Mo');
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill(PASSWORD);
    await field(page, 'Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByRole('note').getByRole('link', { name: 'Open Mail' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mail' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: email })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /verify/i })).toBeVisible();
    // The HTML part renders in its sandboxed frame, with the button of the mail.
    await expect(page.frameLocator('iframe[title^="HTML of"]').getByRole('link').first()).toBeVisible();

    await page.getByLabel('Links in this mail').getByRole('link', { name: /\/verify-email\?token=/ }).click();
    await expect(page.getByText('Email verified!', { exact: true })).toBeVisible();
  });
});

test('admin area: the Mail tab lists a new account’s verification mail as sent, and resends it', async ({ page, browser }) => {
  const email = uniqueEmail('mail-tab');
  await signUpViaApi(page.request, { email });
  await waitForMail(email, /verif/i);

  const context = await browser.newContext();
  const admin = await context.newPage();
  const login = await admin.request.post('/trpc/auth.logIn', { data: { email: E2E.adminEmail, password: PASSWORD, captcha_token: '', device_fingerprint: null } });
  expect(login.ok(), await login.text()).toBe(true);
  await admin.goto('/admin?tab=mail');
  const row = admin.getByRole('table', { name: 'Mail' }).getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Sent');
  await expect(row).toContainText('Verification');
  await row.getByRole('button', { name: 'Resend' }).click();
  await expect(toast(admin, 'Mail queued again')).toBeVisible();
  await expect(async () => {
    const files = fs.readdirSync(E2E.mailDir).filter((f) => f.endsWith('.json'));
    const to = files.map((f) => JSON.parse(fs.readFileSync(path.join(E2E.mailDir, f), 'utf8')) as { to: string[] }).filter((m) => m.to.includes(email));
    expect(to).toHaveLength(2);
  }).toPass({ timeout: 10_000 });
  await context.close();
});

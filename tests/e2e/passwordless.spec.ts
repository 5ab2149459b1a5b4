import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, captureScreen, linkIn, seriousAxeViolations, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * Passwordless sign-in on a project's hosted pages (issue 30): the project turns on e-mail codes and
 * magic links; an end user signs in with a mailed 6-digit code, and with a mailed link, which signs in
 * at once in the browser that asked and asks to confirm in any other.
 */

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** A verified developer's project with e-mail codes and magic links turned on beside the password. */
async function passwordlessProject(request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('pwless-dev');
  await signUpViaApi(request, { email, firstName: 'Dana' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string; project_key: string }>(request, 'projects.create', { name: 'No Passwords', environment: 'development' });
  await trpc(request, 'projectSettings.update', { id: project.id, sign_in_methods: { email_code: true, magic_link: true } });
  return project.project_key;
}

test.describe.configure({ timeout: 90_000 });

test('an end user signs in with a mailed code, then with a mailed link; the link opened in another browser asks first', async ({ page, browser, request }) => {
  const key = await passwordlessProject(request);
  const email = uniqueEmail('no-password');

  // A code: a new account, verified by the code itself.
  await page.goto(`/hosted/${key}/sign-in`);
  await page.getByRole('button', { name: 'Sign in with a code or link by email' }).click({ timeout: 20_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  const code = /\b(\d{6})\b/.exec((await waitForMail(email, /sign-in code/i)).text)![1]!;
  expect(await seriousAxeViolations(page)).toEqual([]);
  await captureScreen(page, 'hosted-email-code', { fullPage: false });
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(code);
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();

  // A link, asked for in a fresh browser and opened there: signed in at once.
  const asking = await browser.newContext();
  const asker = await asking.newPage();
  await asker.goto(`/hosted/${key}/sign-in`);
  await asker.getByRole('button', { name: 'Sign in with a code or link by email' }).click({ timeout: 20_000 });
  await asker.getByLabel('Email').fill(email);
  const before = new Date().toISOString();
  await asker.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(asker.getByText(`We sent a sign-in link to ${email}`)).toBeVisible();
  const mailed = await waitForMailAfter(email, /sign-in link/i, before);
  const link = linkIn(mailed, `/hosted/${key}/magic-link`);

  // Opened elsewhere first (a mail scanner, another device): it asks, and signs in only when confirmed.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(link.pathname + link.search);
  const confirm = other.getByRole('button', { name: `Continue as ${email}` });
  await expect(confirm).toBeVisible({ timeout: 20_000 });
  // The whole address is readable on the button: it wraps instead of being cut off.
  expect(await confirm.evaluate((button) => [...button.querySelectorAll('*')].every((inner) => inner.scrollWidth <= inner.clientWidth + 1))).toBe(true);
  await captureScreen(other, 'hosted-magic-link-confirm', { fullPage: false });
  await elsewhere.close();

  await asker.goto(link.pathname + link.search);
  await expect(asker.getByText('You are signed in').first()).toBeVisible({ timeout: 20_000 });
  await captureScreen(asker, 'hosted-magic-link-signed-in', { fullPage: false });
  await asking.close();
});

test('a developer signs in to the dashboard with a code mailed to them', async ({ page, request }) => {
  const email = uniqueEmail('dev-code');
  await signUpViaApi(request, { email, firstName: 'Dora' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });

  await page.goto('/login');
  // The password form is still there; the code is offered beside it.
  await expect(page.getByRole('textbox', { name: 'Password' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click({ timeout: 20_000 });
  await page.getByLabel('Email').fill(email);
  const before = new Date().toISOString();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/a code is on its way/)).toBeVisible();
  const code = /\b(\d{6})\b/.exec((await waitForMailAfter(email, /sign-in code/i, before)).text)![1]!;
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByLabel('Code digit 1 of 6').click();
  await page.keyboard.type(code);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  await expect(page.getByText('Login successful!')).toBeVisible();
});

/** The newest mail to the address with that subject received after `after` (the code mail came first). */
async function waitForMailAfter(to: string, subject: RegExp, after: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = await waitForMail(to, subject, 20_000);
    if (mail.receivedAt >= after) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} after ${after}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

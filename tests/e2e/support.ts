import fs from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E } from './env';
import type { CaughtMail } from './mail-catcher';

export const PASSWORD = 'Correct-Horse-42';

let counter = 0;

/** A fresh address per test (each test makes its own user). */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`.toLowerCase();
}

/** Waits for the newest mail to `to` whose subject matches, as caught by the loopback SMTP server. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  const address = to.toLowerCase();
  while (Date.now() < deadline) {
    const files = (await fs.readdir(E2E.mailDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
    for (const file of files.reverse()) {
      const mail = JSON.parse(await fs.readFile(path.join(E2E.mailDir, file), 'utf8')) as CaughtMail;
      if (mail.to.includes(address) && subject.test(mail.subject)) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** The first link in a mail that points at `pathname` on the app. */
export function linkIn(mail: CaughtMail, pathname: string): URL {
  const match = `${mail.text}\n${mail.html}`.match(new RegExp(`https?://[^\\s"'<>]+${pathname.replace('/', '\\/')}\\?token=[^\\s"'<>&]+`));
  if (!match) throw new Error(`no ${pathname} link in mail "${mail.subject}":\n${mail.text}`);
  return new URL(match[0].replace(/&amp;/g, '&'));
}

/** Creates an account through the tRPC API, as the signup page would. */
export async function signUpViaApi(
  request: APIRequestContext,
  user: { email: string; password?: string; firstName?: string | null; lastName?: string | null },
) {
  const response = await request.post('/trpc/auth.signUp', {
    data: {
      email: user.email,
      password: user.password ?? PASSWORD,
      first_name: user.firstName ?? null,
      last_name: user.lastName ?? null,
      company_name: null,
      website_url: null,
      captcha_token: '',
      device_fingerprint: null,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A labelled text field (password fields included), found the way a screen reader names it. */
export function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

/** Fills the login form and waits until the app has left /login. */
export async function logInViaUi(page: Page, email: string, password = PASSWORD) {
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * A signed-up user, signed in through the UI, on /dashboard; `verified` first opens the mailed link (a
 * passkey, two factors or a provider can only be added to a verified address).
 */
export async function signedInUser(page: Page, tag: string, names: { firstName?: string; lastName?: string } = {}, { verified = false } = {}) {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, ...names });
  if (verified) {
    const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
    const response = await page.request.post('/trpc/auth.verifyEmail', { data: { token } });
    expect(response.ok(), await response.text()).toBe(true);
  }
  await page.goto('/login');
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email };
}

/** The toast region (Mantine notifications). */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('alert').filter({ hasText: text });
}

/**
 * A monitoring table fits the page: its `action` buttons lie inside the viewport and neither the table's
 * scroll container nor the page scrolls sideways.
 */
export async function expectTableFits(page: Page, table: string, action: string) {
  const list = page.getByRole('table', { name: table });
  const button = list.getByRole('button', { name: action }).first();
  await expect(button).toBeVisible();
  const box = await button.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${action} button`).not.toBeNull();
  expect(box!.x, `${action} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${action} ends on screen`).toBeLessThanOrEqual(width);
  const overflow = await list.evaluate((element) => {
    let scroller: HTMLElement | null = element.parentElement;
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
    const root = document.documentElement;
    return {
      table: scroller ? { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth } : null,
      page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth },
    };
  });
  expect(overflow.table, `${table}'s scroll container`).not.toBeNull();
  expect(overflow.table!.scrollWidth, `${table} scrolls sideways`).toBeLessThanOrEqual(overflow.table!.clientWidth);
  expect(overflow.page.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(overflow.page.clientWidth);
}

/**
 * Keeps the page focused, as a person's window is while they click: the async clipboard refuses a
 * document without focus, which a headless page can lose to another test's page at any moment.
 */
export async function keepFocused(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
}

/**
 * Resolves once the page looks as it will stay: its fonts loaded, every finite CSS transition and animation
 * finished (a modal fading in, a menu sliding open, a theme switch) and a frame painted after them. What a
 * screenshot waits for, instead of a fixed pause that a loaded machine outruns.
 */
/**
 * `<file>.png` in E2E.screenshotDir, once the page has visually settled: the whole page, the viewport
 * (`fullPage: false`) or one element (`target`). No file when the run takes no screenshots (E2E.captureScreenshots).
 */
export async function captureScreen(page: Page, file: string, options: { fullPage?: boolean; target?: Locator } = {}): Promise<void> {
  // Settled either way: the steps after a capture (an axe scan's colours, a click on what faded in) see the page as it was shot.
  await visuallySettled(page);
  if (!E2E.captureScreenshots) return;
  const to = path.join(E2E.screenshotDir, `${file}.png`);
  if (options.target) return void (await options.target.screenshot({ path: to }));
  const fullPage = options.fullPage ?? true;
  // A page scrolled down would show its sticky header halfway down the full-page picture.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: to, fullPage });
}

export async function visuallySettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * axe-core's serious and critical violations of WCAG 2.1 A and AA on the page as it is now (or only in
 * `include`, a selector), one line each: rule, help and where. Minor and moderate findings are printed, not answered.
 */
export async function seriousAxeViolations(page: Page, include?: string): Promise<string[]> {
  // Mid-transition (a dialog fading in) every colour is blended with what is behind it: scan the page at rest.
  await visuallySettled(page);
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await (include ? builder.include(include) : builder).analyze();
  const lines: string[] = [];
  for (const violation of results.violations) {
    const where = violation.nodes.map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`);
    const line = `${violation.impact} ${violation.id}: ${violation.help} at ${where.slice(0, 5).join('; ')}`;
    if (violation.impact === 'serious' || violation.impact === 'critical') lines.push(line);
    else console.log(`axe (${page.url()}): ${line}`);
  }
  return lines;
}

import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, expectTableFits, field, logInViaUi, signUpViaApi, toast, uniqueEmail, captureScreen } from './support';

/**
 * The admin area on real data: an admin deactivates a user, blocks a device and revokes a session through
 * the UI, and each time the affected user is locked out at once.
 */

/** The admin account (ADMIN_EMAILS, verified by the global setup), signed in through the API in its own browser context. */
async function adminPage(browser: Browser, theme?: 'light' | 'dark', viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  if (theme) await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), theme);
  const response = await page.request.post('/trpc/auth.logIn', {
    data: { email: E2E.adminEmail, password: PASSWORD, captcha_token: '', device_fingerprint: null },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return page;
}

/** A fresh user signed in through the login form in its own browser context (so its browser is a device). */
async function signedInTarget(browser: Browser, tag: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Terry', lastName: 'Target' });
  await page.goto('/login');
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { page, email };
}

async function openAdminTab(page: Page, tab: string) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/** The row of a monitoring table that mentions `text`, paging on while other tests' rows push it further. */
async function rowOf(page: Page, table: string, text: string): Promise<Locator> {
  const list = page.getByRole('table', { name: table });
  await expect(list).toBeVisible();
  for (let i = 0; i < 20; i += 1) {
    const row = list.getByRole('row').filter({ hasText: text });
    if ((await row.count()) > 0) return row.first();
    const next = page.getByRole('button', { name: 'next page' });
    if ((await next.count()) === 0 || (await next.isDisabled())) break;
    await next.click();
    await page.waitForLoadState('networkidle');
  }
  throw new Error(`no row with ${text} in ${table}`);
}

/** The user's next call fails: a reload finds no session and lands on /login. */
async function expectSignedOut(page: Page) {
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
}

test('an admin deactivates a user, who is signed out and cannot sign in again', async ({ browser }) => {
  const target = await signedInTarget(browser, 'deactivate-me');
  const admin = await adminPage(browser);

  await openAdminTab(admin, 'Users');
  const row = await rowOf(admin, 'Users', target.email);
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(toast(admin, 'User status updated')).toBeVisible();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Activate' })).toBeVisible();

  await expectSignedOut(target.page);
  await field(target.page, 'Email').fill(target.email);
  await field(target.page, 'Password').fill(PASSWORD);
  await target.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(target.page, 'This account has been deactivated')).toBeVisible();
  await expect(target.page).toHaveURL(/\/login$/);

  // Activating again lets them back in (after the first toast has gone, so the next one is this action's).
  await expect(toast(admin, 'User status updated')).toHaveCount(0);
  await row.getByRole('button', { name: 'Activate' }).click();
  await expect(toast(admin, 'User status updated')).toBeVisible();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await target.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(target.page).toHaveURL(/\/dashboard$/);
  await admin.context().close();
  await target.page.context().close();
});

test("an admin blocks a user's device: its session ends and sign-in from it is refused", async ({ browser }) => {
  const target = await signedInTarget(browser, 'block-my-device');
  const admin = await adminPage(browser);

  await openAdminTab(admin, 'Devices');
  const row = await rowOf(admin, 'Devices', target.email);
  await row.getByRole('button', { name: 'Block' }).click();
  await expect(toast(admin, 'Device status updated')).toBeVisible();
  await expect(row.getByText('Blocked', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Unblock' })).toBeVisible();

  await row.getByRole('button', { name: 'Trust' }).click();
  await expect(toast(admin, 'Device trust updated')).toBeVisible();
  await expect(row.getByText('Trusted', { exact: true })).toBeVisible();

  await expectSignedOut(target.page);
  await logInAgain(target.page, target.email);
  await expect(toast(target.page, 'This device has been blocked')).toBeVisible();
  await expect(target.page).toHaveURL(/\/login$/);
  await admin.context().close();
  await target.page.context().close();
});

test("an admin revokes a user's session: their next call fails and they are sent to /login", async ({ browser }) => {
  const target = await signedInTarget(browser, 'revoke-me');
  const admin = await adminPage(browser);

  await openAdminTab(admin, 'Sessions');
  const row = await rowOf(admin, 'Active sessions', target.email);
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(admin, 'Session revoked')).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Active sessions' }).getByRole('row').filter({ hasText: target.email })).toHaveCount(0);

  // Still on a signed-in screen: the next call is refused, the refresh too, and the app signs them out.
  await target.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Monitoring' }).click();
  await expect(target.page).toHaveURL(/\/login$/);
  // Only the session ended: the account and the device still sign in.
  await logInAgain(target.page, target.email);
  await expect(target.page).toHaveURL(/\/monitoring/);
  await admin.context().close();
  await target.page.context().close();
});

async function logInAgain(page: Page, email: string) {
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('the login attempts tab shows the attempts with the DB-IP attribution', async ({ browser }) => {
  const target = await signedInTarget(browser, 'attempts');
  const admin = await adminPage(browser);
  await openAdminTab(admin, 'Login Attempts');
  const row = await rowOf(admin, 'Login attempts', target.email);
  await expect(row.getByText('Success', { exact: true })).toBeVisible();
  await expect(row.getByText('Unknown', { exact: true })).toBeVisible();
  await expect(admin.getByRole('link', { name: 'IP Geolocation by DB-IP' })).toHaveAttribute('href', 'https://db-ip.com');
  await admin.context().close();
  await target.page.context().close();
});

test('at 1280 px the sessions and users tables fit the page: Revoke and Deactivate are on screen, nothing scrolls sideways', async ({ browser }) => {
  const target = await signedInTarget(browser, 'wide-session-with-a-rather-long-address');
  const admin = await adminPage(browser, undefined, { width: 1280, height: 800 });
  await openAdminTab(admin, 'Sessions');
  const row = await rowOf(admin, 'Active sessions', target.email);
  await expectTableFits(admin, 'Active sessions', 'Revoke');

  // The user agent, creation and expiry open under the row; the user agent is cut short, its title holds it all.
  const details = row.getByRole('button', { name: 'Details' });
  await details.click();
  await expect(details).toHaveAttribute('aria-expanded', 'true');
  const opened = admin.locator(`[id="${await details.getAttribute('aria-controls')}"]`);
  await expect(opened).toContainText('Expires');
  const agent = await target.page.evaluate(() => navigator.userAgent);
  await expect(opened.getByTitle(agent)).toBeVisible();
  await expectTableFits(admin, 'Active sessions', 'Revoke');

  // The Users tab lists the same long address and keeps Deactivate in view as well.
  await admin.getByRole('tab', { name: 'Users' }).click();
  await rowOf(admin, 'Users', target.email);
  await expectTableFits(admin, 'Users', 'Deactivate');
  await admin.context().close();
  await target.page.context().close();
});

test.describe('screenshots', () => {
  async function capture(page: Page, file: string) {
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await captureScreen(page, file);
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`of the admin screen (${theme})`, async ({ browser }) => {
      // Something to see: a user with a failed and a successful sign-in.
      const target = await signedInTarget(browser, `shots-admin-${theme}`);
      await target.page.context().close();
      const admin = await adminPage(browser, theme);
      await admin.goto('/admin');
      await expect(admin.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await capture(admin, `admin-overview-${theme}`);
      await admin.getByRole('tab', { name: 'Users' }).click();
      await expect(admin.getByRole('table', { name: 'Users' })).toBeVisible();
      await capture(admin, `admin-users-${theme}`);
      await admin.getByRole('tab', { name: 'Login Attempts' }).click();
      await expect(admin.getByRole('table', { name: 'Login attempts' })).toBeVisible();
      await capture(admin, `admin-attempts-${theme}`);
      await admin.getByRole('tab', { name: 'Sessions' }).click();
      await expect(admin.getByRole('table', { name: 'Active sessions' })).toBeVisible();
      await capture(admin, `admin-sessions-${theme}`);
      await admin.getByRole('table', { name: 'Active sessions' }).getByRole('button', { name: 'Details' }).first().click();
      await capture(admin, `admin-sessions-details-${theme}`);
      await admin.context().close();
    });
  }

  test('of the admin screen at 375 px', async ({ browser }) => {
    const admin = await adminPage(browser, 'light', { width: 375, height: 740 });
    await admin.goto('/admin');
    await capture(admin, 'admin-overview-mobile-light');
    await admin.getByRole('tab', { name: 'Sessions' }).click();
    // On a phone each session is a card (no wide table), and the page never scrolls sideways.
    await expect(admin.getByRole('list', { name: 'Active sessions' })).toBeVisible();
    await expect(admin.getByRole('table')).toHaveCount(0);
    await capture(admin, 'admin-sessions-mobile-light');
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await admin.context().close();
  });
});

import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { logInViaUi, signUpViaApi, toast, uniqueEmail, captureScreen } from './support';

/** One account signed in from two browsers (separate contexts: separate cookies, separate sessions). */
async function signedInTwice(page: Page, browser: Browser, tag: string) {
  const email = uniqueEmail(tag);
  await signUpViaApi(page.request, { email, firstName: 'Sam' });
  await page.goto('/login');
  await logInViaUi(page, email);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto('/login');
  await logInViaUi(other, email);
  await expect(other).toHaveURL(/\/dashboard$/);
  return { other, otherContext };
}

async function openSessions(page: Page) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  return page.getByRole('list', { name: 'Your sessions' });
}

test('signed in from two browsers, each sees both sessions; signing the other out ends it there at once', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { other, otherContext } = await signedInTwice(page, browser, 'own-sessions');

  const list = await openSessions(page);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const mine = list.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByText('Active now')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  const otherList = await openSessions(other);
  await expect(otherList.getByRole('listitem')).toHaveCount(2);
  await expect(otherList.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
  await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(other).toHaveURL(/\/dashboard$/);

  await list.getByRole('listitem').filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(toast(page, 'Session revoked')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('You are not signed in anywhere else.')).toBeVisible();

  // The other browser's next call is refused, its refresh too, and it lands on the login page (it may
  // already be there: a background refetch can find out first, so the test opens a page rather than clicking).
  await other.goto('/projects');
  await expect(other).toHaveURL(/\/login$/);
  await other.goto('/settings');
  await expect(other).toHaveURL(/\/login$/);
  // This browser is still signed in.
  await expect((await openSessions(page)).getByRole('listitem')).toHaveCount(1);
  await otherContext.close();
});

test('"Sign out all other sessions" ends every other browser, and the timeout select saves on the server', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { other, otherContext } = await signedInTwice(page, browser, 'own-sessions-all');
  const list = await openSessions(page);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(toast(page, '1 other session signed out')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await other.reload();
  await expect(other).toHaveURL(/\/login$/);
  await otherContext.close();

  const timeout = page.getByRole('textbox', { name: 'Session timeout' });
  await expect(timeout).toHaveValue('No timeout');
  // The sessions card re-renders as the list settles, which can close a dropdown just opened: retry until chosen.
  await expect(async () => {
    await timeout.click();
    await page.getByRole('option', { name: '60 minutes' }).click({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(toast(page, 'Security settings updated')).toBeVisible();
  await openSessions(page);
  await expect(page.getByRole('textbox', { name: 'Session timeout' })).toHaveValue('60 minutes');
});

test.describe('at 375 px in the dark theme', () => {
  test.use({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });

  test('the sessions card fits the screen', async ({ page, browser }) => {
    const { otherContext } = await signedInTwice(page, browser, 'own-sessions-mobile');
    const list = await openSessions(page);
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    const button = list.getByRole('button', { name: 'Sign out' });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await captureScreen(page, 'own-sessions-375-dark', { target: page.getByRole('heading', { name: 'Your sessions' }).locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]') });
    await otherContext.close();
  });
});

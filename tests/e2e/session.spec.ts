import { expect, test } from './fixtures';
import { E2E } from './env';
import { field, logInViaUi, signUpViaApi, toast, uniqueEmail } from './support';

// These tests run against the second server, whose access tokens expire after a few seconds.
test.use({ baseURL: E2E.shortTtlURL });

const afterAccessTokenExpiry = () => new Promise((resolve) => setTimeout(resolve, (E2E.shortTtlS + 1.5) * 1000));

test('an access token that expires mid-session is refreshed without the user noticing', async ({ page }) => {
  const email = uniqueEmail('refresh');
  await signUpViaApi(page.request, { email, firstName: 'Rita', lastName: 'Levi' });
  await page.goto('/login');
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);

  const refreshes: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('auth.refresh')) refreshes.push(String(response.status()));
  });

  await afterAccessTokenExpiry();

  // An authenticated call with the stale token: the link refreshes once and retries.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('button', { name: 'Account menu for Rita' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await field(page, 'First name').fill('Margarita');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Margarita Levi' })).toBeVisible();
  expect(refreshes).toEqual(['200']);

  // A reload after the next expiry: the session is found again through the refresh cookie.
  await afterAccessTokenExpiry();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  expect(refreshes).toEqual(['200', '200']);
});

test('two tabs whose access token expired refresh it once between them, and both stay signed in', async ({ context }) => {
  const email = uniqueEmail('tabs');
  const first = await context.newPage();
  await signUpViaApi(first.request, { email, firstName: 'Tess' });
  await first.goto('/login');
  await logInViaUi(first, email);
  await expect(first).toHaveURL(/\/dashboard$/);
  const second = await context.newPage();
  await second.goto('/profile');
  await expect(second.getByRole('heading', { name: 'Profile' })).toBeVisible();

  const refreshes: number[] = [];
  context.on('response', (response) => {
    if (response.url().includes('auth.refresh')) refreshes.push(response.status());
  });
  await afterAccessTokenExpiry();
  await Promise.all([first.reload(), second.reload()]);
  await expect(first.getByRole('button', { name: 'Account menu for Tess' })).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(second).toHaveURL(/\/profile$/);
  // One tab refreshes under the Web Lock and the other retries with the new cookies. Chromium can
  // still send the other tab's call with the old cookie a moment after the new one was stored; that
  // tab then refreshes with the same token, which the server forgives once for the same browser. So:
  // one refresh, at most one per tab, and never a refused one (which would end the session).
  expect(refreshes.length).toBeGreaterThanOrEqual(1);
  expect(refreshes.length).toBeLessThanOrEqual(2);
  expect(refreshes.every((status) => status === 200)).toBe(true);
});

test('when the session cannot be refreshed the user is signed out and sent to /login', async ({ page, context }) => {
  const email = uniqueEmail('expired');
  await signUpViaApi(page.request, { email, firstName: 'Otto' });
  await page.goto('/login');
  await logInViaUi(page, email);
  await page.getByRole('button', { name: 'Account menu for Otto' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByRole('list', { name: 'Your sessions' })).toBeVisible();
  // The session ends elsewhere (cookies gone): the next call fails, the refresh fails too.
  await context.clearCookies();
  await field(page, 'Current password').fill('Whatever-123');
  await field(page, 'New password').fill('Another-Secret-9');
  await field(page, 'Confirm new password').fill('Another-Secret-9');
  await page.getByRole('button', { name: 'Change password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  // Signing in again returns to where the user was.
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/settings$/);
});

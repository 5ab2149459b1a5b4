import { expect, test } from './fixtures';
import { E2E } from './env';
import { keepFocused, signUpViaApi, signedInUser, logInViaUi, toast, uniqueEmail } from './support';

test('theme toggle switches light/dark and survives a reload', async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('dark');

  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();

  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('light');
});

test('the system theme follows the OS preference and its changes', async ({ page }) => {
  await signedInUser(page, 'theme');
  await page.goto('/settings');
  const themes = page.getByRole('radiogroup', { name: 'Theme' });
  // With nothing stored the default is already System; choose Dark, then System.
  await expect(themes.getByRole('radio', { name: 'System' })).toBeChecked();
  await themes.getByText('Dark').click();
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('dark');
  await themes.getByText('System').click();
  expect(await page.evaluate(() => localStorage.getItem('color-theme'))).toBe('system');
  const html = page.locator('html');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' })).toBeChecked();
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the mobile menu opens, and closes when a link is chosen (visitor)', async ({ page }) => {
    await page.goto('/');
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeHidden();
    await burger.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open navigation' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('signed in, the mobile menu shows the name and e-mail and the app links', async ({ page }) => {
    const { email } = await signedInUser(page, 'mobile', { firstName: 'Mo', lastName: 'Bile' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByText('Mo Bile')).toBeVisible();
    await expect(menu.getByText(email)).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await menu.getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test('the Admin link is shown only to admins with a verified address; /admin tells others they are not authorised', async ({ page, browser }) => {
  const { email } = await signedInUser(page, 'plain', { firstName: 'Plain' });
  expect(email).not.toBe(E2E.adminEmail);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Projects' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();

  // Listed in ADMIN_EMAILS but never verified: the role is inert, so no Admin link and no admin area.
  const unverifiedContext = await browser.newContext();
  const unverified = await unverifiedContext.newPage();
  await signUpViaApi(unverified.request, { email: E2E.unverifiedAdminEmail, firstName: 'Una' });
  await unverified.goto('/login');
  await logInViaUi(unverified, E2E.unverifiedAdminEmail);
  await expect(unverified).toHaveURL(/\/dashboard$/);
  await expect(unverified.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await unverified.goto('/admin');
  await expect(unverified.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  await unverifiedContext.close();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await logInViaUi(admin, E2E.adminEmail);
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole('heading', { name: 'Admin' })).toBeVisible();
  await adminContext.close();
});

test('footer: year, documentation, System Status in words, forgot-password link, product sentence', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText(`© ${new Date().getFullYear()}`)).toBeVisible();
  await expect(footer.getByText(/authentication system with device fingerprinting and VPN detection/)).toBeVisible();
  // No PRIVACY_URL or TERMS_URL in this run: no legal link that goes nowhere.
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveCount(0);
  await footer.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('contentinfo').getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/api-docs#api-reference$/);
  await expect(page.getByRole('heading', { name: 'API reference' })).toBeInViewport();
  await page.getByRole('contentinfo').getByRole('link', { name: 'System Status' }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByText('All systems operational')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Components' }).getByText('Up to date')).toBeVisible();
});

test('the landing page pricing toggles between monthly and annual', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText(/public beta/i)).toBeVisible();
  const pro = page.getByLabel('Pro plan');
  await expect(pro.getByText('$29')).toBeVisible();
  await expect(pro.getByText('/month')).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Billing period' }).getByText('Annually').click();
  await expect(pro.getByText('$290')).toBeVisible();
  await expect(pro.getByText('/year')).toBeVisible();
  await expect(page.getByLabel('Enterprise plan').getByText('Custom', { exact: true })).toBeVisible();
});

test('API docs: public endpoints, and the copy hint disappears after 2 s', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/api-docs');
  // The OpenAPI reference further down names these paths too: the spec's list is its own region.
  const endpoints = page.getByRole('region', { name: 'Public endpoints' });
  await expect(endpoints.getByText('/public/api/v1/auth/signup')).toBeVisible();
  await expect(endpoints.getByText('/public/api/v1/profile')).toHaveCount(2);
  const card = page.getByRole('region', { name: 'Start the server' });
  await keepFocused(page);
  await card.getByRole('button', { name: 'Copy Start the server script' }).click();
  await expect(card.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('npm start');
  await expect(card.getByText('Copied!')).toBeHidden({ timeout: 3500 });
});

test('a menu opened while toasts show is above them, so none of its items is hidden under a toast', async ({ page }) => {
  await signedInUser(page, 'menu-over-toast');
  const shown = toast(page, 'Login successful!');
  await expect(shown).toBeVisible();
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  // Both are portals at the end of the page, so their z-index alone decides which one a pointer reaches where they
  // meet: toasts stack down the right-hand side, over the header's menus once there are a few of them.
  const menuLayer = await menu.evaluate((element) => Number(getComputedStyle(element).zIndex));
  const toastLayer = await shown.evaluate((element) => Number(getComputedStyle(element.closest('[data-position]')!).zIndex));
  expect(menuLayer).toBeGreaterThan(toastLayer);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

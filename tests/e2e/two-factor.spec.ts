import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, field, signedInUser, toast } from './support';

const STEP_MS = 30_000;
const codeFor = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function enterPassword(page: Page, email: string) {
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('set up an authenticator app in Settings, then sign in with a recovery code and with a code from the app', async ({ page }) => {
  test.setTimeout(180_000);
  const { email } = await signedInUser(page, 'totp', {}, { verified: true });
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const card = page.getByRole('heading', { name: 'Two-factor authentication' }).locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")]');
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Set up' }).click();

  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await card.locator('code').first().innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  const field6 = card.getByRole('textbox', { name: '2. Enter the code it shows' });
  await field6.fill('000000');
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText('Invalid code')).toBeVisible();
  const enrolledAt = Date.now();
  await field6.fill(codeFor(secret, enrolledAt));
  await card.getByRole('button', { name: 'Turn on' }).click();

  const codes = page.getByRole('region', { name: 'Recovery codes' });
  await expect(codes).toBeVisible();
  const recovery = (await codes.locator('code').allInnerTexts()).map((c) => c.trim());
  expect(recovery).toHaveLength(10);
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();

  // A recovery code, typed with spaces and capitals, signs in once.
  await signOut(page);
  await enterPassword(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(recovery[0]!.toUpperCase().replace('-', ' '));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, 'Login successful!')).toBeVisible();

  // The app's code: the confirmation spent its time step (a replay is refused), so a later step's, which the server
  // takes one step early (a clock a little ahead): no waiting for the clock.
  await signOut(page);
  const laterStepCode = () => codeFor(secret, Math.max((Math.floor(enrolledAt / STEP_MS) + 1) * STEP_MS, Date.now()));
  await enterPassword(page, email);
  const digits = page.getByRole('textbox', { name: 'Digit 1 of 6' });
  await digits.click();
  await page.keyboard.type('000000');
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid code' })).toBeVisible();
  await digits.click();
  // Pasting the whole code fills the six boxes and submits by itself.
  await page.evaluate((code) => {
    const data = new DataTransfer();
    data.setData('text/plain', code);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, laterStepCode());
  await expect(page).toHaveURL(/\/dashboard$/);
});

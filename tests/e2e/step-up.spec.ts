import path from 'node:path';
import Database from 'better-sqlite3';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from '@playwright/test';
import { MESSAGES } from '../../shared/messages';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { screenshots } from './screenshots-support';
import { PASSWORD, field, linkIn, signedInUser, waitForMail } from './support';

const shots = screenshots('step-up');

/**
 * Time passing for one account: its sessions' sign-ins move back past the server's step-up window
 * (5 minutes), through the main server's own database file, as if the person had been signed in for an hour.
 */
function ageSessionsOf(email: string) {
  const db = new Database(path.join(E2E.workDir, 'main', 'e2e.sqlite'));
  try {
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    db.prepare('update sessions set created_at = ?, reauthenticated_at = null where user_id in (select id from users where email = ? and project_id is null)').run(hourAgo, email);
  } finally {
    db.close();
  }
}

/** The dialog covers the theme toggle: the system's scheme (the app follows it until toggled) and 375 px instead. */
async function shootDialog(page: Page, dialog: Locator) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    await shots.shoot(page, `dialog-${colorScheme}`, dialog);
    await page.setViewportSize({ width: 375, height: 812 });
    await shots.shoot(page, `dialog-375-${colorScheme}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const card = (page: Page, heading: string) => page.getByRole('heading', { name: heading }).locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")]');

test('a session signed in an hour ago confirms the password before turning on two factors, then carries on', async ({ page }) => {
  test.setTimeout(180_000);
  const { email } = await signedInUser(page, 'step-up', {}, { verified: true });
  ageSessionsOf(email);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const twoFactor = card(page, 'Two-factor authentication');
  await twoFactor.getByRole('button', { name: 'Set up' }).click();

  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await shootDialog(page, dialog);
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('Not-My-Password-1');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Incorrect password');
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();

  // The refused change ran again after the proof: the authenticator's QR code, and the code turns it on.
  await expect(twoFactor.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await twoFactor.locator('code').first().innerText()).trim();
  await twoFactor.getByLabel('2. Enter the code it shows').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
  await twoFactor.getByRole('button', { name: 'Turn on' }).click();
  await expect(twoFactor.getByText(/recovery codes/i).first()).toBeVisible();
  // Still signed in, on the same page: a step-up is not a sign-out.
  await expect(page).toHaveURL(/\/settings/);
});

test('an unverified account is told to verify before adding a way in; the reset page offers to keep them', async ({ page }) => {
  const { email } = await signedInUser(page, 'unverified-security');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  for (const heading of ['Two-factor authentication', 'Passkeys']) {
    await expect(card(page, heading).getByText(MESSAGES.verifyEmailFirst)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Set up' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  await shots.shootThemes(page, 'unverified', () => card(page, 'Passkeys'));

  await page.request.post('/trpc/auth.forgotPassword', { data: { email, captcha_token: '' } });
  const reset = linkIn(await waitForMail(email, /reset/i), '/reset-password');
  await page.goto(`${reset.pathname}${reset.search}`);
  const keep = page.getByRole('checkbox', { name: 'Keep my passkeys and connected sign-ins' });
  await expect(keep).not.toBeChecked();
  await field(page, 'New password').fill('Another-Horse-43');
  await field(page, 'Confirm new password').fill('Another-Horse-43');
  await shots.shootThemes(page, 'reset');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, field, signedInUser, toast } from './support';

/**
 * Passkeys in the real UI, with Chromium's virtual authenticator (CDP WebAuthn domain): a platform
 * authenticator that keeps discoverable credentials and verifies the user, as Touch ID would.
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('add a passkey in Settings, rename it, sign in with it alone, and use it as the second factor', async ({ page }) => {
  const authenticator = await addVirtualAuthenticator(page);
  const { email } = await signedInUser(page, 'passkey', {}, { verified: true });
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const card = page.getByRole('heading', { name: 'Passkeys' }).locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")]');
  await expect(card.getByText('No passkeys yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page, 'Passkey "Passkey 1" added')).toBeVisible();
  await expect(card.getByRole('listitem', { name: 'Passkey 1' })).toBeVisible();
  const [credential] = await authenticator.credentials();
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  await card.getByRole('button', { name: 'Rename Passkey 1' }).click();
  await card.getByRole('textbox', { name: 'Passkey name' }).fill('This laptop');
  await card.getByRole('button', { name: 'Save name' }).click();
  await expect(card.getByRole('listitem', { name: 'This laptop' })).toBeVisible();

  // The passkey alone: no e-mail, no password.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, 'Login successful!')).toBeVisible();

  // With an authenticator app on, the passkey also answers the second step after a password.
  const setup = await page.request.post('/trpc/mfa.setUpTotp', { data: {} });
  const { secret } = ((await setup.json()) as { result: { data: { secret: string } } }).result.data;
  const confirm = await page.request.post('/trpc/mfa.confirmTotp', { data: { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() } });
  expect(confirm.ok()).toBe(true);
  await signOut(page);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

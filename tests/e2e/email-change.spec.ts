import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, field, linkIn, logInViaUi, signedInUser, toast, uniqueEmail, waitForMail, captureScreen } from './support';

async function askForChange(page: Page, newEmail: string) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change email' }).click();
  const form = page.getByRole('form', { name: 'Change email' });
  await form.getByRole('textbox', { name: /^New email/ }).fill(newEmail);
  await form.getByRole('textbox', { name: /^Current password/ }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText('Check your new inbox')).toBeVisible();
}

test('change the address in Profile, open the link from the mail, then sign in with the new address', async ({ page }) => {
  const { email } = await signedInUser(page, 'mover', { firstName: 'Max' });
  const newEmail = uniqueEmail('moved');
  await askForChange(page, newEmail);
  // Nothing changes until the link is opened.
  await expect(field(page, 'Email')).toHaveValue(email);
  await waitForMail(email, /Email change requested/);

  const link = linkIn(await waitForMail(newEmail, /Confirm your new email address/), '/confirm-email-change');
  expect(link.origin).toBe(E2E.baseURL);
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email address changed')).toBeVisible();
  await expect(toast(page, 'Your email address has been changed.')).toBeVisible();
  await waitForMail(email, /Your email address was changed/);

  // This tab kept its session and shows the new address.
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(field(page, 'Email')).toHaveValue(newEmail);

  // Opening the link again says it was used.
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('This email change link has already been used').first()).toBeVisible();

  await page.getByRole('button', { name: 'Account menu for Max' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
  await page.goto('/login');
  await logInViaUi(page, newEmail);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the link opened in a browser that is not signed in changes the address and sends to sign in', async ({ page, browser }) => {
  const { email } = await signedInUser(page, 'elsewhere');
  const newEmail = uniqueEmail('elsewhere-new');
  await askForChange(page, newEmail);
  const link = linkIn(await waitForMail(newEmail, /Confirm your new email address/), '/confirm-email-change');

  const other = await browser.newPage();
  await other.goto(link.toString());
  await expect(other.getByText('Email address changed')).toBeVisible();
  await other.getByRole('link', { name: 'Continue to sign in' }).click();
  await expect(other.getByText('Your email address has been changed. Sign in with the new address.')).toBeVisible();
  await logInViaUi(other, newEmail);
  await other.close();

  // Confirmed without a session: every session of the account ended, this tab's too.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
});

const THEMES = ['light', 'dark'] as const;

async function shoot(page: Page, file: string) {
  await captureScreen(page, file);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${file} scrolls sideways`).toBeLessThanOrEqual(0);
}

for (const theme of THEMES) {
  for (const width of [1280, 375]) {
    test(`screenshots: change e-mail form, sent notice and confirm page (${theme}, ${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await page.addInitScript((value) => window.localStorage.setItem('color-theme', value), theme);
      const suffix = `${theme}${width === 375 ? '-mobile' : ''}`;
      await signedInUser(page, `shots-email-${suffix}`, { firstName: 'Jordan' });
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Change email' }).click();
      await expect(page.getByRole('form', { name: 'Change email' })).toBeVisible();
      await shoot(page, `profile-change-email-${suffix}`);
      const newEmail = uniqueEmail(`shots-new-${suffix}`);
      const form = page.getByRole('form', { name: 'Change email' });
      await form.getByRole('textbox', { name: /^New email/ }).fill(newEmail);
      await form.getByRole('textbox', { name: /^Current password/ }).fill(PASSWORD);
      await form.getByRole('button', { name: 'Send confirmation link' }).click();
      await expect(page.getByText('Check your new inbox')).toBeVisible();
      await shoot(page, `profile-change-email-sent-${suffix}`);
      await page.goto('/confirm-email-change');
      await expect(page.getByText('Invalid email change link', { exact: true })).toBeVisible();
      await shoot(page, `confirm-email-change-invalid-${suffix}`);
      const link = linkIn(await waitForMail(newEmail, /Confirm your new email address/), '/confirm-email-change');
      await page.goto(link.pathname + link.search);
      await expect(page.getByText('Email address changed')).toBeVisible();
      await shoot(page, `confirm-email-change-${suffix}`);
      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await expect(page.getByRole('switch', { name: 'Marketing emails' })).toBeVisible();
      await shoot(page, `settings-notifications-${suffix}`);
    });
  }
}

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, field, signUpViaApi, signedInUser, toast, uniqueEmail } from './support';

const MSG = {
  email: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  short: 'Password must be at least 8 characters',
  complexity: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  mismatch: "Passwords don't match",
  url: 'Please enter a valid URL',
};

test('login form: messages, wrong password from the server, show/hide password', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(MSG.email)).toBeVisible();
  await expect(page.getByText(MSG.passwordRequired)).toBeVisible();

  const email = uniqueEmail('login-errors');
  await signUpViaApi(request, { email });
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('Not-The-Password-1');
  await expect(field(page, 'Password')).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(field(page, 'Password')).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('signup form: every message, and the server refusing a common password', async ({ page }) => {
  await page.goto('/signup');
  await field(page, 'Website').fill('not a url');
  await field(page, 'Email').fill('nope');
  await field(page, 'Password').fill('short');
  await field(page, 'Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(MSG.url)).toBeVisible();
  await expect(page.getByText(MSG.email)).toBeVisible();
  await expect(page.getByText(MSG.short)).toBeVisible();
  await expect(page.getByText(MSG.mismatch)).toBeVisible();

  await field(page, 'Password').fill('longenough1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(MSG.complexity)).toBeVisible();

  await field(page, 'Website').fill('');
  await field(page, 'Email').fill(uniqueEmail('common'));
  await field(page, 'Password').fill('Password123');
  await field(page, 'Confirm password').fill('Password123');
  await expect(page.getByText(MSG.url)).toBeHidden();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(toast(page, 'This password is too common. Please choose a less predictable one.')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('forgot and reset password forms: messages and an invalid token from the server', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(MSG.email)).toBeVisible();

  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
  await page.getByRole('link', { name: 'Request a new reset link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  await page.goto('/reset-password?token=not-a-real-token');
  await field(page, 'New password').fill('short');
  await field(page, 'Confirm new password').fill('other');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(MSG.short)).toBeVisible();
  await expect(page.getByText(MSG.mismatch)).toBeVisible();
  await field(page, 'New password').fill('nocapitals1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(MSG.complexity)).toBeVisible();
  await field(page, 'New password').fill('Fresh-Secret-8');
  await field(page, 'Confirm new password').fill('Fresh-Secret-8');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(toast(page, 'Invalid reset token')).toBeVisible();
});

test('verify page without a token offers to resend (asks for the address)', async ({ page, request }) => {
  const email = uniqueEmail('resend');
  await signUpViaApi(request, { email });
  await page.goto('/verify-email');
  await expect(page.getByText('Invalid verification link', { exact: true })).toBeVisible();
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('prompt');
    void dialog.accept(email);
  });
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(toast(page, 'Verification email sent! Please check your inbox.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to sign in' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
});

test('settings: change-password messages, a wrong current password, then a real change', async ({ page }) => {
  await signedInUser(page, 'change-pw');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  await field(page, 'New password').fill('short');
  await field(page, 'Confirm new password').fill('shorter');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await expect(page.getByText('New passwords do not match')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters long')).toBeVisible();

  await field(page, 'Current password').fill('Wrong-Password-1');
  await field(page, 'New password').fill('Changed-Secret-5');
  await field(page, 'Confirm new password').fill('Changed-Secret-5');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(toast(page, 'Current password is incorrect')).toBeVisible();

  await field(page, 'Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(toast(page, 'Password changed successfully')).toBeVisible();
  await expect(field(page, 'Current password')).toHaveValue('');
});

test('settings: toggles, session timeout and the danger zone', async ({ page }) => {
  await signedInUser(page, 'settings');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByText('Off', { exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Login notifications' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Session timeout' })).toHaveValue('No timeout');
  await page.getByRole('textbox', { name: 'Session timeout' }).click();
  await page.getByRole('option', { name: '120 minutes' }).click();
  await expect(toast(page, 'Security settings updated')).toBeVisible();

  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: 'Email notifications' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Security alerts' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Product updates' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Marketing emails' })).not.toBeChecked();
  await page.getByRole('switch', { name: 'Marketing emails' }).click();
  await expect(page.getByRole('switch', { name: 'Marketing emails' })).toBeChecked();
  await expect(toast(page, 'Notification settings updated')).toBeVisible();

  await page.getByRole('tab', { name: 'Danger Zone' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  const confirm = page.getByRole('button', { name: 'Permanently delete account' });
  await expect(confirm).toBeDisabled();
  await page.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('delete');
  await expect(page.getByText('Please type DELETE to confirm')).toBeVisible();
  await expect(confirm).toBeDisabled();
  await page.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('DELETE');
  await expect(confirm).toBeEnabled();
});

test('danger zone: deleting the account signs out, and the account is gone', async ({ page }) => {
  const { email } = await signedInUser(page, 'delete-me');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Danger Zone' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('DELETE');
  // A session alone is not enough: the current password is asked for and checked.
  await page.getByRole('button', { name: 'Permanently delete account' }).click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await field(page, 'Current password').fill('Not-My-Password-1');
  await page.getByRole('button', { name: 'Permanently delete account' }).click();
  await expect(toast(page, 'Incorrect password')).toBeVisible();
  await field(page, 'Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Permanently delete account' }).click();
  await expect(toast(page, 'Account deleted successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
});

// Projects (create with validation, delete with confirmation) need a verified developer now: see projects.spec.ts.

test('profile: edit and save the name; e-mail is read-only here (it changes through a mailed link)', async ({ page }) => {
  await signedInUser(page, 'profile', { firstName: 'Pat' });
  await page.getByRole('button', { name: 'Account menu for Pat' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByText('Pending verification')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change email' })).toBeVisible();
  await expect(field(page, 'Email')).toHaveAttribute('readonly', '');
  await page.getByRole('button', { name: 'Edit' }).click();
  await field(page, 'Last name').fill('Example');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pat Example' })).toBeVisible();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(toast(page, 'Verification email sent! Please check your inbox.')).toBeVisible();
});

/** Counts the submit events of the page's forms, so a test can tell that one click reached the form. */
async function countSubmits(page: Page) {
  await page.evaluate(() => {
    const counter = window as unknown as { submits: number };
    counter.submits = 0;
    document.addEventListener('submit', () => (counter.submits += 1), true);
  });
  return () => page.evaluate(() => (window as unknown as { submits: number }).submits);
}

// The e-mail field's message must not push the button away between mouse-down and mouse-up: one real click
// on the button right after typing an invalid address submits (and so validates) the form.
test('login: one click on "Sign in" after an invalid e-mail submits the form; with valid input it signs in', async ({ page, request }) => {
  await page.goto('/login');
  const submits = await countSubmits(page);
  await field(page, 'Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(MSG.email)).toBeVisible();
  await expect(page.getByText(MSG.passwordRequired)).toBeVisible();
  expect(await submits()).toBe(1);

  const email = uniqueEmail('one-click');
  await signUpViaApi(request, { email });
  await page.goto('/login');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('signup, forgot and reset password: one click after an invalid field submits the form', async ({ page }) => {
  await page.goto('/signup');
  let submits = await countSubmits(page);
  await field(page, 'Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(MSG.email)).toBeVisible();
  await expect(page.getByText(MSG.short)).toBeVisible();
  expect(await submits()).toBe(1);

  await page.goto('/forgot-password');
  submits = await countSubmits(page);
  await field(page, 'Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(MSG.email)).toBeVisible();
  expect(await submits()).toBe(1);

  await field(page, 'Email').fill(uniqueEmail('one-click-forgot'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  await page.goto('/reset-password?token=not-a-real-token');
  submits = await countSubmits(page);
  await field(page, 'New password').fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(MSG.short)).toBeVisible();
  expect(await submits()).toBe(1);
});

import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, logInViaUi, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

test('sign up → verification mail → verify page → login with the message → dashboard', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/signup$/);

  await field(page, 'First name').fill('Grace');
  await field(page, 'Last name').fill('Hopper');
  await field(page, 'Company').fill('Navy Labs');
  await field(page, 'Website').fill('https://example.com');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Developer account created successfully! Please check your email for verification.' }),
  ).toBeVisible();

  const mail = await waitForMail(email, /verif/i);
  const link = linkIn(mail, '/verify-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email verified!', { exact: true })).toBeVisible();
  await expect(toast(page, 'Email verified successfully!')).toBeVisible();

  // After 3 seconds the page moves on to /login by itself, carrying the message.
  await expect(page).toHaveURL(/\/login$/, { timeout: 6000 });
  await expect(page.getByRole('status').filter({ hasText: 'Email verified! Please log in to continue.' })).toBeVisible();

  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Welcome back, Grace!', { exact: false })).toBeVisible();
  await expect(toast(page, 'Login successful!')).toBeVisible();

  await page.getByRole('button', { name: 'Account menu for Grace' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
});

test('a used verification link shows the error state with the server detail', async ({ page, request }) => {
  const email = uniqueEmail('verify-twice');
  await signUpViaApi(request, { email });
  const link = linkIn(await waitForMail(email, /verif/i), '/verify-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email verified!', { exact: true })).toBeVisible();
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Verification failed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend verification email' })).toBeVisible();
  await expect(page.getByText('Verification links expire after 24 hours.')).toBeVisible();
});

test('forgot password → reset mail → reset → login with the new password', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await signUpViaApi(request, { email, firstName: 'Reset' });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).first().click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await field(page, 'Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(toast(page, 'Password reset email sent!')).toBeVisible();

  const link = linkIn(await waitForMail(email, /reset/i), '/reset-password');
  await page.goto(link.pathname + link.search);
  const newPassword = 'Brand-New-Secret-7';
  await field(page, 'New password').fill(newPassword);
  await field(page, 'Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Password reset successfully! You can now sign in with your new password.' }),
  ).toBeVisible();

  // The old password no longer works; the new one does.
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(toast(page, 'Incorrect email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await field(page, 'Password').fill(newPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a protected page visited signed out, then signed in, lands on 'from'", async ({ page, request }) => {
  const email = uniqueEmail('from');
  await signUpViaApi(request, { email });
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  await logInViaUi(page, email);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

  // Signed in: the auth pages send you to the dashboard; unknown paths go home.
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
});

test('sign out goes to /login, and protected pages are closed again', async ({ page, request }) => {
  const email = uniqueEmail('signout');
  await signUpViaApi(request, { email });
  await page.goto('/login');
  await logInViaUi(page, email);
  await page.getByRole('button', { name: `Account menu for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, 'Logged out successfully')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

// A visitor has no session: finding that out is an answer (auth.session, user null), not a refused call.
test('a visitor loads / and /login without a 401 or any console error', async ({ page }) => {
  const refused: string[] = [];
  const consoleErrors: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401) refused.push(`${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  for (const path of ['/', '/login']) {
    await page.goto(path);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(refused, 'responses with status 401').toEqual([]);
  expect(consoleErrors, 'console errors').toEqual([]);
});

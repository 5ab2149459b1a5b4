import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { E2E } from './env';
import { expect, test } from './fixtures';
import { screenshots, trpc } from './screenshots-support';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail, seriousAxeViolations } from './support';

/**
 * An account made by "Continue with GitHub" (the stand-in the global setup starts) has no password:
 * its danger zone and change of address ask for none, and the step-up dialog mails it a code. On the
 * platform the stand-in's one user is shared with social-sign-in.spec.ts, so the change there stops
 * at the link mailed to the new address and nothing is deleted; on a project's hosted pages the end
 * user's account is this test's own, and is deleted for good.
 */

const { github } = E2E;
const shots = screenshots('account-without-password');

/** The sessions' sign-ins an hour back, past the server's step-up window (as step-up.spec.ts does). */
function ageSessions(email: string, projectId: string | null) {
  const db = new Database(path.join(E2E.workDir, 'main', 'e2e.sqlite'));
  try {
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const realm = projectId === null ? 'project_id is null' : 'project_id = ?';
    db.prepare(`update sessions set created_at = ?, authenticated_at = ?, reauthenticated_at = null where user_id in (select id from users where email = ? and ${realm})`).run(
      hourAgo,
      hourAgo,
      email,
      ...(projectId === null ? [] : [projectId]),
    );
  } finally {
    db.close();
  }
}

/** The code in the newest step-up mail to `email` from `product` (both tests mail the stand-in's one address). */
async function mailedCode(email: string, product: string): Promise<string> {
  const mail = await waitForMail(email, new RegExp(`confirmation code – ${product}$`));
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}":\n${mail.text}`);
  return code;
}

/** Sets the app's theme as another tab would (the storage event): the dialog covers the toggle. */
async function useTheme(page: Page, colorScheme: 'light' | 'dark') {
  await page.evaluate((scheme) => {
    window.localStorage.setItem('color-theme', scheme);
    window.dispatchEvent(new StorageEvent('storage', { key: 'color-theme', newValue: scheme, storageArea: window.localStorage }));
  }, colorScheme);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
}

/** The dialog in both themes (checked with axe-core in each) and at 375 px. */
async function shootDialog(page: Page, name: string, dialog: Locator) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await useTheme(page, colorScheme);
    expect(await seriousAxeViolations(page, '[role="dialog"]'), `${name} in ${colorScheme}`).toEqual([]);
    await shots.shoot(page, `${name}-${colorScheme}`, dialog);
    await page.setViewportSize({ width: 375, height: 812 });
    await shots.shoot(page, `${name}-375-${colorScheme}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await useTheme(page, 'light');
}

test('platform: a GitHub-only developer confirms with a mailed code to change the address; the danger zone asks no password', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  ageSessions(github.user.email, null);

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Danger Zone' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByText(/has no password: unless you signed in a moment ago, we will e-mail you a code/)).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('Type DELETE to confirm').fill('DELETE');
  await shots.shootThemes(page, 'danger-zone', () => page.locator('.mantine-Card-root').filter({ hasText: 'Danger Zone' }));
  await page.getByRole('button', { name: 'Permanently delete account' }).click();
  const deleteDialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(deleteDialog.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();
  await expect(deleteDialog.getByRole('button', { name: 'Or sign in again with your provider' })).toBeVisible();
  await shootDialog(page, 'dialog-ask', deleteDialog);
  // Not deleted here: the stand-in's account is shared with another spec.
  await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteDialog).toBeHidden();

  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change email' }).click();
  const form = page.getByRole('form', { name: 'Change email' });
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  const newEmail = uniqueEmail('github-moved');
  await form.getByLabel('New email').fill(newEmail);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();

  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`We sent a confirmation code to ${github.user.email}. It is valid for 15 minutes.`);
  const code = await mailedCode(github.user.email, 'AuthPlatform');
  await dialog.getByLabel('Code from the e-mail').fill(code);
  await shootDialog(page, 'dialog-code', dialog);
  await dialog.getByLabel('Code from the e-mail').fill(code === '000000' ? '000001' : '000000');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Incorrect code');
  await dialog.getByLabel('Code from the e-mail').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Check your new inbox')).toBeVisible();
  linkIn(await waitForMail(newEmail, /confirm/i), '/confirm-email-change');
});

/** A developer's project whose hosted pages offer GitHub (the stand-in), with a name of its own. */
async function projectWithGitHub(page: Page, name: string) {
  const developer = uniqueEmail('nopass-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Dana' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name, environment: 'development' });
  const saved = await page.request.put(`/api/v1/projects/${project.id}/connections/github`, {
    data: {
      client_id: 'nopass-e2e-client',
      client_secret: 'nopass-e2e-secret',
      authorize_url: `${github.origin}/login/oauth/authorize`,
      token_url: `${github.origin}/login/oauth/access_token`,
      api_url: `${github.origin}/api/v3`,
      enabled: true,
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  return project;
}

test("hosted pages: a project's GitHub-only end user deletes the account with a mailed code", async ({ page }) => {
  test.setTimeout(180_000);
  const project = await projectWithGitHub(page, 'No Password Notes');
  const hosted = `/hosted/${project.project_key}`;
  await page.goto(`${hosted}/sign-in`);
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/account$`));
  ageSessions(github.user.email, project.id);

  const deleteButton = page.getByRole('button', { name: 'Delete account' });
  await deleteButton.scrollIntoViewIfNeeded();
  await deleteButton.click();
  const form = page.getByRole('form', { name: 'Delete account' });
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  await form.getByLabel('Type DELETE to confirm').fill('DELETE');
  await form.getByRole('button', { name: 'Permanently delete account' }).click();

  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(dialog.getByRole('status')).toContainText(github.user.email);
  await dialog.getByLabel('Code from the e-mail').fill(await mailedCode(github.user.email, 'No Password Notes'));
  await shootDialog(page, 'hosted-dialog-code', dialog);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(new RegExp(`${hosted}/account$`));

  // The account is gone: GitHub signs in to a new, empty one.
  const db = new Database(path.join(E2E.workDir, 'main', 'e2e.sqlite'), { readonly: true });
  try {
    expect(db.prepare('select count(*) as n from users where project_id = ?').get(project.id)).toEqual({ n: 0 });
  } finally {
    db.close();
  }
});

test("hosted pages: a project's GitHub-only end user changes the address after signing in again with GitHub", async ({ page }) => {
  test.setTimeout(180_000);
  const project = await projectWithGitHub(page, 'No Password Moves');
  const hosted = `/hosted/${project.project_key}`;
  await page.goto(`${hosted}/sign-in`);
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/account$`));
  ageSessions(github.user.email, project.id);

  // No password to give: the step-up offers a mailed code or the provider; the provider it is.
  const form = page.getByRole('form', { name: 'Change email' });
  await form.scrollIntoViewIfNeeded();
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  const newEmail = uniqueEmail('hosted-github-moved');
  await form.getByLabel('New email').fill(newEmail);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Or sign in again with your provider' }).click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/sign-in\\?return_to=`));
  await expect(page.getByText('Sign in again to confirm it is you, then make the change.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue with GitHub' }).click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/account$`));

  // Just signed in: the change goes through without a second prompt, and the new inbox gets the link.
  await form.getByLabel('New email').fill(newEmail);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`We sent a link to ${newEmail}.`, { exact: false })).toBeVisible();
  const link = linkIn(await waitForMail(newEmail, /confirm/i), `${hosted}/confirm-email-change`);
  await page.goto(link.toString());
  await expect(page.getByText('Email address changed')).toBeVisible();

  const db = new Database(path.join(E2E.workDir, 'main', 'e2e.sqlite'), { readonly: true });
  try {
    expect(db.prepare('select email from users where project_id = ?').all(project.id)).toEqual([{ email: newEmail }]);
  } finally {
    db.close();
  }
});

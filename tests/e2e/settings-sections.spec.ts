import type { Page } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

/**
 * A project's settings in sections: each section its own address and form, a guard when leaving one
 * with unsaved edits (the app's dialog, for a link and for the browser's back), and the project deleted
 * through the dialog that asks for its name.
 */

const { shoot, shootThemes } = screenshots('settings-sections');

async function developerWithProject(page: Page) {
  const developer = uniqueEmail('sections-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Sec' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'Acme Sections', environment: 'development' });
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Settings sections' });

test('edit one section, meet the unsaved-changes guard, then delete the project by typing its name', async ({ page }) => {
  test.setTimeout(90_000);
  const project = await developerWithProject(page);
  // The Settings tab opens the first section.
  await page.goto(`/projects/${project.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(sections(page).getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page');
  await shootThemes(page, 'general');

  // One section, one form, one Save.
  await field(page, 'Description').fill('Sign-in for the shop');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Project updated successfully')).toBeVisible();

  // An edit left unsaved holds a link to another section in the app's dialog.
  await sections(page).getByRole('link', { name: 'Branding & hosted pages' }).click();
  await expect(page).toHaveURL(/\/settings\/branding$/);
  await page.getByRole('textbox', { name: /^Accent colour/ }).fill('#0ca678');
  const preview = page.getByRole('img', { name: /hosted sign-in page/ });
  await expect(preview.getByText('Sign in', { exact: true })).toHaveCSS('background-color', 'rgb(12, 166, 120)');
  await sections(page).getByRole('link', { name: 'Webhooks' }).click();
  const guard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(guard).toBeVisible();
  await shoot(page, 'guard-light');
  await guard.getByRole('button', { name: 'Stay and keep editing' }).click();
  await expect(guard).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/branding$/);
  await expect(page.getByRole('textbox', { name: /^Accent colour/ })).toHaveValue('#0ca678');

  // The browser's back is held too; Discard goes on to the section before.
  await page.goBack();
  await expect(guard).toBeVisible();
  await guard.getByRole('button', { name: 'Discard changes' }).click();
  // The entry before: the Settings tab's address, which shows General.
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/settings$`));
  await expect(field(page, 'Description')).toHaveValue('Sign-in for the shop');

  // The Danger zone: Delete works only once the project's name is typed.
  await sections(page).getByRole('link', { name: 'Danger zone' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete project' });
  await expect(dialog).toContainText('Are you sure you want to delete this project? This action cannot be undone.');
  const confirm = dialog.getByRole('button', { name: 'Delete project' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Type Acme Sections to confirm' }).fill('Acme');
  await expect(confirm).toBeDisabled();
  await shoot(page, 'delete-light');
  await dialog.getByRole('textbox', { name: 'Type Acme Sections to confirm' }).fill('Acme Sections');
  await confirm.click();
  await expect(toast(page, 'Project deleted successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByText('No projects yet')).toBeVisible();
});

test('at 375 px the sections are a select', async ({ page }) => {
  test.setTimeout(60_000);
  const project = await developerWithProject(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/projects/${project.id}/settings/general`);
  await expect(sections(page)).toBeHidden();
  const select = page.getByRole('textbox', { name: 'Settings section' });
  await expect(select).toHaveValue('General');
  await select.click();
  await page.getByRole('option', { name: 'End-user rules' }).click();
  await expect(page).toHaveURL(/\/settings\/rules$/);
  await expect(page.getByRole('region', { name: 'End-user rules' })).toBeVisible();
  await shoot(page, 'rules-375-light');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

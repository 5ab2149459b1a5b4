import type { Page } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

/**
 * A project's settings for its end users, end to end: the developer raises the password minimum and
 * writes the verification mail in Settings, previews it rendered, and the project's hosted pages then
 * refuse a shorter password and mail the new template.
 */

const { shoot, shootThemes } = screenshots('project-settings');

async function developerWithProject(page: Page) {
  const developer = uniqueEmail('settings-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Sol' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'Acme Rules', environment: 'development' });
}

test('end-user rules and a mail template saved in Settings apply to the project’s hosted pages', async ({ page }) => {
  const project = await developerWithProject(page);
  await page.goto(`/projects/${project.id}/settings/rules`);

  // The rules: a longer minimum; the form refuses a refresh lifetime shorter than the access one first.
  const rules = page.getByRole('region', { name: 'End-user rules' });
  await expect(rules.getByRole('textbox', { name: 'Minimum password length' })).toHaveValue('8');
  await rules.getByRole('textbox', { name: 'Minimum password length' }).fill('12');
  await rules.getByRole('textbox', { name: 'Refresh token lifetime (minutes)' }).fill('30');
  await rules.getByRole('button', { name: 'Save end-user rules' }).click();
  await expect(rules.getByText('The refresh token lifetime must be at least the access token lifetime')).toBeVisible();
  await rules.getByRole('textbox', { name: 'Refresh token lifetime (minutes)' }).fill('20160');
  await expect(rules.getByText(/^14 days;/)).toBeVisible();
  await rules.getByText('Block', { exact: true }).click();
  await rules.getByRole('button', { name: 'Save end-user rules' }).click();
  await expect(toast(page, 'End-user settings saved')).toBeVisible();
  await rules.scrollIntoViewIfNeeded();
  await shootThemes(page, 'rules', () => rules);

  // The mails: a product name and the verification mail's own wording, previewed rendered.
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Mails' }).click();
  const mails = page.getByRole('region', { name: 'End-user mails' });
  await mails.getByRole('textbox', { name: /^Product name/ }).fill('Acme');
  await mails.getByRole('button', { name: 'Save mail settings' }).click();
  await expect(toast(page, 'Mail settings saved')).toBeVisible();
  await mails.getByRole('textbox', { name: 'Subject' }).fill('Welcome to {{product_name}}');
  await mails.getByRole('textbox', { name: 'Text' }).fill('Hello {{email}},\n\nconfirm your <Acme> account here: {{link}}');
  await mails.getByRole('button', { name: 'Preview' }).click();
  const preview = mails.getByRole('figure', { name: 'Mail preview' });
  await expect(preview.getByText('Welcome to Acme')).toBeVisible();
  // The rendered HTML (sandboxed: no scripts, so it is read as the page holds it).
  const srcdoc = (await preview.locator('iframe[title="Rendered mail"]').getAttribute('srcdoc')) ?? '';
  expect(srcdoc).toContain('confirm your &lt;Acme&gt; account here:');
  expect(srcdoc).toMatch(/<a href="[^"]*verify-email\?token=sample-token"/);
  await mails.getByRole('button', { name: 'Save template' }).click();
  await expect(toast(page, 'Mail template saved')).toBeVisible();
  await expect(mails.getByText('Custom template')).toBeVisible();
  await mails.getByRole('button', { name: 'Preview' }).click();
  await expect(preview).toBeVisible();
  await mails.scrollIntoViewIfNeeded();
  await shootThemes(page, 'mails', () => mails);

  // The hosted pages follow: 11 characters are too few now; a long enough password gets the new mail.
  const hosted = `/hosted/${project.project_key}/api/v1`;
  const short = await page.request.post(`${hosted}/auth/signup`, { data: { email: uniqueEmail('end-user'), password: 'Abcdefgh-12', captcha_token: '' } });
  expect(short.status()).toBe(422);
  expect(await short.json()).toEqual({ detail: 'Password must be at least 12 characters' });
  const endUser = uniqueEmail('end-user');
  const ok = await page.request.post(`${hosted}/auth/signup`, { data: { email: endUser, password: 'Abcdefgh-123', captcha_token: '' } });
  expect(ok.status()).toBe(201);
  const mail = await waitForMail(endUser, /^Welcome to Acme$/);
  expect(mail.text).toContain(`Hello ${endUser},`);
  expect(mail.text).toContain(`/hosted/${project.project_key}/verify-email?token=`);
});

test('a viewer sees the settings read-only', async ({ page, browser }) => {
  const project = await developerWithProject(page);
  // A second developer, made a viewer through an invitation accepted over tRPC.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  try {
    const viewer = uniqueEmail('settings-viewer');
    await signUpViaApi(viewerPage.request, { email: viewer, firstName: 'Vi' });
    const token = linkIn(await waitForMail(viewer, /verif/i), '/verify-email').searchParams.get('token');
    await trpc(viewerPage.request, 'auth.verifyEmail', { token });
    await trpc(viewerPage.request, 'auth.logIn', { email: viewer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
    await trpc(page.request, 'teams.invite', { id: project.id, email: viewer, role: 'viewer' });
    const invitation = linkIn(await waitForMail(viewer, /invited/i), '/invitations').searchParams.get('token');
    await trpc(viewerPage.request, 'teams.acceptInvitation', { token: invitation });

    await viewerPage.goto(`/projects/${project.id}/settings/rules`);
    const rules = viewerPage.getByRole('region', { name: 'End-user rules' });
    await expect(rules.getByText(/You are a viewer on this project/)).toBeVisible();
    await expect(rules.getByRole('textbox', { name: 'Minimum password length' })).toBeDisabled();
    await expect(rules.getByRole('button', { name: 'Save end-user rules' })).toHaveCount(0);
    await rules.scrollIntoViewIfNeeded();
    await shoot(viewerPage, 'viewer-light', rules);
    await viewerPage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Mails' }).click();
    await expect(viewerPage.getByRole('region', { name: 'End-user mails' }).getByRole('textbox', { name: 'Subject' })).toBeDisabled();
  } finally {
    await viewerContext.close();
  }
});

import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E } from './env';
import { PASSWORD, field, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';
import { trpc } from './screenshots-support';

/**
 * The audit log on real data: a developer renames their project in its Settings tab, and the change
 * (who, what, before and after) shows in the project's Audit log tab and in Admin → Audit log, whose
 * Export CSV downloads it with the filters on screen.
 */

/** The admin account (ADMIN_EMAILS, verified by the global setup), signed in through the API in its own browser context. */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const response = await page.request.post('/trpc/auth.logIn', { data: { email: E2E.adminEmail, password: PASSWORD, captcha_token: '', device_fingerprint: null } });
  expect(response.ok(), await response.text()).toBe(true);
  return page;
}

test('a project renamed in the UI shows in its Audit log tab and in Admin → Audit log, with before and after', async ({ page, browser }) => {
  // A verified developer, signed in in this browser (page.request shares its cookies), with a project.
  const email = uniqueEmail('audit-dev');
  await signUpViaApi(page.request, { email, firstName: 'Ada' });
  await trpc(page.request, 'auth.verifyEmail', { token: linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token') });
  await trpc(page.request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Ledger', environment: 'development' });
  const renamed = `Ledger ${Date.now().toString(36)}`;

  // The change, made in the UI.
  await page.goto(`/projects/${project.id}/settings/general`);
  await field(page, 'Project name').fill(renamed);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Project updated successfully')).toBeVisible();

  // The project's Audit log, reached from the project's page.
  await page.goto(`/projects/${project.id}`);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(new RegExp(`/monitoring\\?project=${project.id}&tab=audit`));
  const projectLog = page.getByRole('table', { name: 'Audit log' });
  const updated = projectLog.getByRole('row').filter({ hasText: 'Project updated' });
  await expect(updated).toHaveCount(1);
  await expect(updated).toContainText(email);
  await expect(updated).toContainText(renamed);
  await expect(projectLog.getByRole('row').filter({ hasText: 'Project created' })).toHaveCount(1);
  await updated.getByRole('button', { name: 'Details' }).click();
  const changes = page.getByRole('table', { name: 'Changes' });
  await expect(changes.getByRole('row').filter({ hasText: 'name' })).toContainText('Ledger');
  await expect(changes.getByRole('row').filter({ hasText: 'name' })).toContainText(renamed);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/v1/projects/${project.id}/audit-log/export`);

  // The admin sees it among every entry, found by the developer's address.
  const admin = await adminPage(browser);
  try {
    await admin.goto('/admin?tab=audit');
    await expect(admin.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await admin.getByRole('textbox', { name: 'Search by actor' }).fill(email);
    const adminLog = admin.getByRole('table', { name: 'Audit log' });
    const row = adminLog.getByRole('row').filter({ hasText: 'Project updated' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(email);
    await expect(row).toContainText(renamed);
    await expect(adminLog.getByRole('row').filter({ hasText: 'Project created' })).toHaveCount(1);

    // Export CSV carries the filter, and its download holds the entry.
    const exportLink = admin.getByRole('link', { name: 'Export CSV' });
    await expect(exportLink).toHaveAttribute('href', `/api/v1/admin/audit-log/export?actor=${encodeURIComponent(email)}`);
    const download = admin.waitForEvent('download');
    await exportLink.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-all-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await admin.request.get((await exportLink.getAttribute('href'))!);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe('created_at,actor_email,actor_id,action,target_type,target_id,target_label,before,after,ip_address,user_agent,project_id');
    expect(lines.slice(1).map((line) => line.split(',')[3]).sort()).toEqual(['project.created', 'project.updated']);
  } finally {
    await admin.context().close();
  }
});

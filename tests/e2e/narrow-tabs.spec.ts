import type { Locator, Page } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail, seriousAxeViolations } from './support';

/**
 * Issue 32 at 375 px: the mail template's kinds are all readable (none clipped), and the monitoring
 * tabs that do not fit say so (a fade and a scroll button at the edge that hides more), in both themes.
 */

const { shoot } = screenshots('narrow-tabs');

async function developerWithProject(page: Page) {
  const developer = uniqueEmail('narrow-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Nar' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return trpc<{ id: string }>(page.request, 'projects.create', { name: 'Acme Narrow', environment: 'development' });
}

/** The labels inside `scope` whose text is cut off (wider than the box that shows it). */
async function clippedLabels(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) =>
    [...root.querySelectorAll('label, [role="tab"] span')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > root.getBoundingClientRect().right + 1)
      .map((element) => element.textContent ?? ''),
  );
}

async function dark(page: Page) {
  await page.getByRole('button', { name: 'Switch to dark mode' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
}

test('at 375 px every mail kind is readable, and the monitoring tabs show there are more', async ({ page }) => {
  test.setTimeout(90_000);
  const project = await developerWithProject(page);
  await page.setViewportSize({ width: 375, height: 812 });

  await page.goto(`/projects/${project.id}/settings/mails`);
  const kinds = page.getByRole('radiogroup', { name: 'Mail' });
  await expect(kinds).toBeVisible();
  for (const kind of ['Verification', 'Password reset', 'Password changed']) await expect(kinds.getByRole('radio', { name: kind })).toBeAttached();
  expect(await clippedLabels(kinds)).toEqual([]);
  await kinds.getByText('Password changed').click();
  await expect(kinds.getByRole('radio', { name: 'Password changed' })).toBeChecked();
  await shoot(page, 'mail-kinds-375-light', kinds);

  await page.goto(`/monitoring?project=${project.id}`);
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  const more = page.getByRole('button', { name: 'Scroll tabs right' });
  await expect(more).toBeVisible();
  await expect(page.getByRole('button', { name: 'Scroll tabs left' })).toBeHidden();
  await expect(page.getByTestId('tabs-fade-end')).toBeVisible();
  await shoot(page, 'monitoring-tabs-375-light', page.getByTestId('scrollable-tabs'));
  expect(await seriousAxeViolations(page, '[data-testid="scrollable-tabs"]')).toEqual([]);

  // The button scrolls towards the hidden tabs; at the end the other edge shows its hint instead.
  const audit = tabs.getByRole('tab', { name: 'Audit Log' });
  await more.click();
  await expect(page.getByRole('button', { name: 'Scroll tabs left' })).toBeVisible();
  // Clicked again until the last tab is in (each click scrolls smoothly, so the button may move under the pointer).
  await expect(async () => {
    if (await more.isVisible()) await more.click({ timeout: 2_000 });
    await expect(audit).toBeInViewport({ ratio: 0.99, timeout: 1_000 });
  }).toPass();
  await expect(more).toBeHidden();
  await expect(page.getByRole('button', { name: 'Scroll tabs left' })).toBeVisible();
  await expect(page.getByTestId('tabs-fade-start')).toBeVisible();
  await expect(page.getByTestId('tabs-fade-end')).toBeHidden();
  await audit.click();
  await expect(audit).toHaveAttribute('aria-selected', 'true');

  await dark(page);
  await shoot(page, 'monitoring-tabs-375-dark', page.getByTestId('scrollable-tabs'));
  // The edges' buttons and fades pass axe in both themes (light was checked before the scroll, dark here).
  expect(await seriousAxeViolations(page, '[data-testid="scrollable-tabs"]')).toEqual([]);
  // A tab chosen by the address is brought into view.
  await page.goto(`/monitoring?project=${project.id}&tab=sessions`);
  await expect(tabs.getByRole('tab', { name: 'Sessions' })).toBeInViewport({ ratio: 0.99 });
  await page.goto(`/projects/${project.id}/settings/mails`);
  await expect(kinds).toBeVisible();
  expect(await clippedLabels(kinds)).toEqual([]);
  await shoot(page, 'mail-kinds-375-dark', kinds);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Wide enough for every tab: no hint at all.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/monitoring?project=${project.id}`);
  await expect(tabs.getByRole('tab', { name: 'Audit Log' })).toBeInViewport({ ratio: 0.99 });
  await expect(page.getByRole('button', { name: 'Scroll tabs right' })).toBeHidden();
  await expect(page.getByTestId('tabs-fade-end')).toBeHidden();
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

/**
 * A project's webhooks, end to end: the developer adds an endpoint in Settings → Webhooks (its signing
 * secret shown once), sends it a test event, and the deliveries view shows it succeeded. The endpoint is a
 * loopback receiver started here (the main e2e server runs with WEBHOOKS_ALLOW_PRIVATE=on).
 */

type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

/** An HTTP receiver on 127.0.0.1 (a free port) that answers 204 and records every request. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/auth`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const { shoot, shootThemes } = screenshots('webhooks');

/** shootThemes for a dialog, which covers the page's theme toggle: closed (Escape) to switch, opened again to shoot. */
async function shootDialogThemes(page: Page, name: string, open: () => Promise<Locator>) {
  const toggle = async (to: 'dark' | 'light') => {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: `Switch to ${to} mode` }).first().click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', to);
  };
  await shoot(page, `${name}-light`, await open());
  await toggle('dark');
  await shoot(page, `${name}-dark`, await open());
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, `${name}-375-dark`, await open());
  await toggle('light');
  await shoot(page, `${name}-375-light`, await open());
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a webhook added in Settings receives a signed test event, and its deliveries show it succeeded', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    // A verified developer, signed in in this browser (page.request shares its cookies), with a project.
    const developer = uniqueEmail('webhooks-dev');
    await signUpViaApi(page.request, { email: developer, firstName: 'Wren' });
    const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
    await trpc(page.request, 'auth.verifyEmail', { token });
    await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
    const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Acme Hooks', environment: 'development' });

    await page.goto(`/projects/${project.id}/settings/webhooks`);
    const card = () => page.getByRole('region', { name: 'Webhooks' });
    await expect(card().getByText(/No webhooks yet/)).toBeVisible();

    // Add it: the form refuses no event type first, then saves.
    await card().getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook' });
    await form.getByRole('textbox', { name: /Endpoint URL/ }).fill(receiver.url);
    await form.getByRole('textbox', { name: /Description/ }).fill('Loopback receiver');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect(form.getByText('Choose at least one event type')).toBeVisible();
    await form.getByRole('checkbox', { name: 'Select all' }).check();
    await shoot(page, 'add-light', form);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    // The signing secret, once.
    const secretDialog = page.getByRole('dialog', { name: 'Your webhook signing secret' });
    await expect(secretDialog.getByText(/^whsec_/)).toBeVisible();
    await expect(secretDialog.getByText('Shown only once')).toBeVisible();
    await shoot(page, 'secret-light', secretDialog);
    await secretDialog.getByRole('button', { name: 'I have copied the secret' }).click();
    await expect(secretDialog).toBeHidden();

    const row = card().getByRole('listitem', { name: receiver.url });
    await expect(row).toContainText('Loopback receiver');
    await expect(row.getByText('webhook.test')).toBeVisible();
    await card().scrollIntoViewIfNeeded();
    await shootThemes(page, 'card', card);

    // A test event reaches the receiver, signed.
    await row.getByRole('button', { name: 'Send test event' }).click();
    await expect(toast(page, 'Test event sent')).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const request = receiver.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/auth');
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    expect(request.headers['webhook-id']).toBeTruthy();
    expect(JSON.parse(request.body)).toMatchObject({ type: 'webhook.test' });

    // The deliveries view shows it succeeded.
    const deliveries = page.getByRole('dialog', { name: 'Deliveries' });
    const openDeliveries = async () => {
      if (!(await deliveries.isVisible())) await row.getByRole('button', { name: 'Deliveries' }).click();
      // A table, or one card per delivery on a phone.
      await expect(deliveries.getByText('webhook.test').first()).toBeVisible();
      return deliveries;
    };
    await openDeliveries();
    const table = deliveries.getByRole('table', { name: 'Deliveries' });
    await expect(async () => {
      await deliveries.getByRole('button', { name: 'Refresh' }).click();
      await expect(table.getByRole('row').filter({ hasText: 'webhook.test' }).first()).toContainText('Succeeded', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(table.getByRole('row').filter({ hasText: 'webhook.test' }).first()).toContainText('HTTP 204');
    await shootDialogThemes(page, 'deliveries', openDeliveries);
    await openDeliveries();

    // Resend makes a new delivery, which arrives too.
    await table.getByRole('button', { name: /^Resend webhook\.test/ }).first().click();
    await expect(toast(page, 'Event queued to be sent again')).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(1);
    await expect(table.getByRole('row').filter({ hasText: 'webhook.test' })).toHaveCount(2);
  } finally {
    await receiver.close();
  }
});

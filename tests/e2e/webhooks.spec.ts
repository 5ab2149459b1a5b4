import AxeBuilder from '@axe-core/playwright';
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

const RECEIVER_BODY = '<b id="receiver-markup">received</b>';

type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

/** An HTTP receiver on 127.0.0.1 (a free port) that records every request and answers 200 with a header and some HTML (which the dashboard must show as text). */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/html', 'x-receiver': 'e2e-crm' }).end(RECEIVER_BODY);
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

/** The table fits its dialog at 1280 px: nothing scrolls sideways, and no cell's text breaks over lines. */
async function expectFitsWithoutScrolling(table: Locator) {
  const scrolled = await table.evaluate((element) => {
    const found: string[] = [];
    for (let el: Element | null = element; el && el.getAttribute('role') !== 'dialog'; el = el.parentElement) {
      if (el.scrollWidth > el.clientWidth + 1) found.push(`${el.tagName}.${el.className} ${el.scrollWidth}>${el.clientWidth}`);
    }
    return found;
  });
  expect(scrolled, 'the deliveries table scrolls sideways at 1280 px').toEqual([]);
  // A word broken over two lines is drawn as two boxes.
  const broken = await table.evaluate((element) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (range.getClientRects().length > 1) found.push(match[0]);
      }
    }
    return found;
  });
  expect(broken, 'words broken over lines in the deliveries table').toEqual([]);
}

/** axe-core on the page as it is (an open dialog included): no serious or critical violation. */
async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a webhook added in Settings receives a signed test event; its deliveries show it succeeded, open to the request and answer, and resend', async ({ page }) => {
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
    await expect(table.getByRole('row').filter({ hasText: 'webhook.test' }).first()).toContainText('HTTP 200');
    await expectFitsWithoutScrolling(table);
    await shootDialogThemes(page, 'deliveries', openDeliveries);
    await openDeliveries();

    // Resend makes a new delivery, which arrives too.
    await table.getByRole('button', { name: /^Resend webhook\.test/ }).first().click();
    await expect(toast(page, 'Event queued to be sent again')).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(1);
    await expect(table.getByRole('row').filter({ hasText: 'webhook.test' })).toHaveCount(2);

    // A delivery opens to show the request sent and the answer, the receiver's HTML as text.
    const detail = page.getByRole('dialog', { name: 'Delivery' });
    const openDetail = async () => {
      if (!(await detail.isVisible())) {
        await openDeliveries();
        await deliveries.getByRole('button', { name: /^(Open|Details of) webhook\.test/ }).last().click();
      }
      await expect(detail.getByRole('table', { name: 'Response headers' })).toBeVisible();
      return detail;
    };
    await openDetail();
    const sent = receiver.received[0]!;
    const requestHeaders = detail.getByRole('table', { name: 'Request headers' });
    await expect(requestHeaders.getByRole('row', { name: /webhook-signature/ })).toContainText(String(sent.headers['webhook-signature']));
    await expect(requestHeaders.getByRole('row', { name: /webhook-id/ })).toContainText(String(sent.headers['webhook-id']));
    await expect(detail.getByLabel('Request body')).toContainText(JSON.stringify(JSON.parse(sent.body), null, 2).split('\n')[1]!.trim());
    await expect(detail.getByText('HTTP 200')).toBeVisible();
    await expect(detail.getByRole('table', { name: 'Response headers' }).getByRole('row', { name: /x-receiver/ })).toContainText('e2e-crm');
    await expect(detail.getByLabel('Response body')).toHaveText(RECEIVER_BODY);
    await expect(page.locator('#receiver-markup')).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await shootDialogThemes(page, 'delivery', openDetail);
    await openDetail();

    // Resend from the delivery: the new delivery opens in its place once sent.
    const before = receiver.received.length;
    await detail.getByRole('button', { name: 'Resend' }).click();
    await expect(toast(page, 'Event queued to be sent again')).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(before);
    await expect(detail.getByText('Succeeded')).toBeVisible({ timeout: 15_000 });
    await expect(detail.getByRole('table', { name: 'Request headers' }).getByRole('row', { name: /webhook-id/ })).toContainText(String(sent.headers['webhook-id']));
    await detail.getByRole('button', { name: 'All deliveries' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'webhook.test' })).toHaveCount(3);
    await page.keyboard.press('Escape');

    // The event catalogue: every type, each with a sample body.
    const catalogue = page.getByRole('region', { name: 'Event catalogue' });
    await catalogue.getByRole('button', { name: 'user.created' }).click();
    await expect(catalogue.getByLabel('Sample body of user.created')).toContainText('"is_verified": false');
    await catalogue.scrollIntoViewIfNeeded();
    await shootThemes(page, 'catalogue', () => catalogue);
  } finally {
    await receiver.close();
  }
});

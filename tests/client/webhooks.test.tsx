import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Webhook, WebhookDelivery, WebhookDeliveryDetail } from '../../shared/schemas/webhooks';
import { WEBHOOK_DELIVERY_ERRORS, WEBHOOK_EVENT_TYPES, type WebhookDeliveryError } from '../../shared/schemas/webhooks';
import { callsTo, renderApp, sampleProject, sampleUser } from './utils';

/** Project detail → Settings → Webhooks: endpoints over the REST API (/api/v1/projects/{id}/webhooks). */

const project = sampleProject({ id: 'p_1', name: 'Acme Storefront' });
const BASE = '/api/v1/projects/p_1/webhooks';

const hook: Webhook = {
  id: 'wh_1',
  url: 'https://hooks.acme.example/auth',
  description: 'User sync',
  event_types: ['user.created', 'session.created'],
  enabled: true,
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
};

const delivery = (overrides: Partial<WebhookDelivery> & Pick<WebhookDelivery, 'id' | 'status'>): WebhookDelivery => ({
  event_id: `evt_${overrides.id}`,
  event_type: 'webhook.test',
  attempts: 1,
  next_attempt_at: null,
  last_attempt_at: '2025-03-02T10:00:00.000Z',
  last_status_code: 200,
  last_error: null,
  created_at: '2025-03-02T10:00:00.000Z',
  ...overrides,
});

type Call = { method: string; url: string; body: unknown; headers: Record<string, string> };
type Route = (call: Call) => { status: number; body: unknown } | undefined;

/** fetch answers from `route` (undefined: 404), recording every REST call. */
function mockRest(route: Route) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const answer = route(call) ?? { status: 404, body: { detail: 'Not found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** A server holding the webhooks in memory; `extra` answers first. */
function webhookServer(initial: Webhook[] = [hook], extra: Route = () => undefined) {
  let webhooks = [...initial];
  return mockRest((call) => {
    const answered = extra(call);
    if (answered) return answered;
    if (call.url === BASE && call.method === 'GET') return { status: 200, body: { webhooks } };
    if (call.url === BASE && call.method === 'POST') {
      const created = { ...hook, id: 'wh_new', ...(call.body as object), created_at: hook.created_at, updated_at: hook.updated_at } as Webhook;
      webhooks = [...webhooks, created];
      return { status: 201, body: { ...created, secret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5' } };
    }
    const one = webhooks.find((webhook) => call.url === `${BASE}/${webhook.id}`);
    if (one && call.method === 'PATCH') {
      const next = { ...one, ...(call.body as object) };
      webhooks = webhooks.map((webhook) => (webhook.id === one.id ? next : webhook));
      return { status: 200, body: next };
    }
    if (one && call.method === 'DELETE') {
      webhooks = webhooks.filter((webhook) => webhook.id !== one.id);
      return { status: 200, body: { message: 'Webhook deleted' } };
    }
    return undefined;
  });
}

const render = () => renderApp('/projects/p_1/settings/webhooks', { user: sampleUser, handlers: { 'projects.get': () => project, 'social.connections': () => ({ connections: [] }) } });

const endpoints = async () => within(await screen.findByRole('list', { name: 'Webhook endpoints' }));
/**
 * An item of an endpoint's "More actions" menu. `hidden: true` as for a Select's options: jsdom lays nothing out, so
 * once floating-ui has computed the menu's position (asynchronously, after it opened) its hide middleware finds the
 * zero-sized target clipped and Mantine sets display: none on the dropdown (Popover's hideDetached). A query that
 * ignores hidden elements then finds the item only if it runs before that: on a loaded machine it often did not.
 */
const menuItem = (name: string) => screen.findByRole('menuitem', { name, hidden: true });
const addButton = () => screen.findByRole('button', { name: 'Add webhook' });

describe('Project webhooks', () => {
  it('lists the endpoints: URL, description, event types, enabled switch and date', async () => {
    webhookServer();
    render();
    const list = await endpoints();
    const row = within(list.getByRole('listitem', { name: hook.url }));
    expect(row.getByText(hook.url)).toBeTruthy();
    expect(row.getByText(/User sync · Added/)).toBeTruthy();
    expect(row.getByText('user.created')).toBeTruthy();
    expect(row.getByText('session.created')).toBeTruthy();
    expect((row.getByRole('switch', { name: `Disable ${hook.url}` }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows an empty state when the project has none', async () => {
    webhookServer([]);
    render();
    expect(await screen.findByText(/No webhooks yet/)).toBeTruthy();
  });

  it('adds a webhook with every event type and shows its signing secret once', async () => {
    const calls = webhookServer([]);
    const { user } = render();
    await user.click(await addButton());
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook' }));
    await user.type(dialog.getByRole('textbox', { name: /^Endpoint URL/ }), 'https://hooks.acme.example/new');
    await user.type(dialog.getByRole('textbox', { name: /^Description/ }), 'Billing');
    await user.click(dialog.getByRole('checkbox', { name: 'Select all' }));
    for (const type of WEBHOOK_EVENT_TYPES) expect((dialog.getByRole('checkbox', { name: type }) as HTMLInputElement).checked).toBe(true);
    await user.click(dialog.getByRole('checkbox', { name: 'login.failed' }));
    await user.click(dialog.getByRole('button', { name: 'Add webhook' }));

    const secret = within(await screen.findByRole('dialog', { name: 'Your webhook signing secret' }));
    expect(secret.getByText('whsec_c2VjcmV0LXNpZ25pbmcta2V5')).toBeTruthy();
    expect(secret.getByText('Shown only once')).toBeTruthy();
    expect(secret.getByRole('button', { name: 'Copy signing secret' })).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST' && call.url === BASE);
    expect(post?.body).toEqual({
      url: 'https://hooks.acme.example/new',
      description: 'Billing',
      event_types: WEBHOOK_EVENT_TYPES.filter((type) => type !== 'login.failed'),
      enabled: true,
    });
    expect(post?.headers['content-type']).toBe('application/json');

    await user.click(secret.getByRole('button', { name: 'I have copied the secret' }));
    await waitFor(() => expect(screen.queryByText('whsec_c2VjcmV0LXNpZ25pbmcta2V5')).toBeNull());
    expect((await endpoints()).getByRole('listitem', { name: 'https://hooks.acme.example/new' })).toBeTruthy();
  });

  it('checks the form before sending: a URL and at least one event type', async () => {
    const calls = webhookServer([]);
    const { user } = render();
    await user.click(await addButton());
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook' }));
    await user.click(dialog.getByRole('button', { name: 'Add webhook' }));
    expect(await dialog.findByText('Choose at least one event type')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("shows the server's 422 under the field it names", async () => {
    const detail = 'url must not point to a private or loopback address';
    webhookServer([], (call) => (call.method === 'POST' ? { status: 422, body: { detail } } : undefined));
    const { user } = render();
    await user.click(await addButton());
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook' }));
    const url = dialog.getByRole('textbox', { name: /^Endpoint URL/ });
    await user.type(url, 'https://10.0.0.5/hook');
    await user.click(dialog.getByRole('checkbox', { name: 'user.created' }));
    await user.click(dialog.getByRole('button', { name: 'Add webhook' }));
    // In words: the field the server named ("url") as a person reads it.
    expect(await dialog.findByText('The URL must not point to a private or loopback address')).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog', { name: 'Your webhook signing secret' })).toBeNull();
  });

  it('deletes an endpoint only after confirming', async () => {
    const calls = webhookServer();
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: `More actions for ${hook.url}` }));
    await user.click(await menuItem('Delete'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete webhook' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Webhook deleted')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([`${BASE}/wh_1`]);
    expect(await screen.findByText(/No webhooks yet/)).toBeTruthy();
  });

  it('switches an endpoint off with a partial PATCH', async () => {
    const calls = webhookServer();
    const { user } = render();
    await user.click((await endpoints()).getByRole('switch', { name: `Disable ${hook.url}` }));
    expect(await screen.findByText('Webhook disabled')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({ url: `${BASE}/wh_1`, body: { enabled: false } });
  });

  it('sends a test event through the test route (no body)', async () => {
    const calls = webhookServer([hook], (call) => (call.url === `${BASE}/wh_1/test` ? { status: 201, body: { event_id: 'evt_1' } } : undefined));
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText('Test event sent')).toBeTruthy();
    const test = calls.find((call) => call.url === `${BASE}/wh_1/test`);
    expect(test?.method).toBe('POST');
    expect(test?.body).toBeUndefined();
    expect(test?.headers['content-type']).toBeUndefined();
  });

  it("shows the server's refusal of a test event", async () => {
    webhookServer([hook], (call) => (call.url === `${BASE}/wh_1/test` ? { status: 409, body: { detail: 'This webhook is disabled' } } : undefined));
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText('This webhook is disabled')).toBeTruthy();
  });

  it('lists the deliveries with their status, pages through them and resends one', async () => {
    const deliveries = [
      delivery({ id: 'd_1', status: 'succeeded' }),
      delivery({ id: 'd_2', status: 'failed', event_type: 'user.created', attempts: 8, last_status_code: 500, last_error: 'http_status' }),
      delivery({ id: 'd_3', status: 'pending', event_type: 'session.created', last_status_code: null, last_error: 'connect_refused', next_attempt_at: '2025-03-02T10:05:00.000Z' }),
    ];
    const calls = webhookServer([hook], (call) => {
      if (call.url.startsWith(`${BASE}/wh_1/deliveries?`)) return { status: 200, body: { deliveries, total: 23, page: Number(new URL(call.url, 'http://x').searchParams.get('page')), per_page: 10 } };
      if (call.url === `${BASE}/wh_1/deliveries/d_2/resend`) return { status: 201, body: delivery({ id: 'd_4', status: 'pending' }) };
      return undefined;
    });
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: 'Deliveries' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Deliveries' }));
    const table = within(await dialog.findByRole('table', { name: 'Deliveries' }));
    expect(table.getByText('Succeeded')).toBeTruthy();
    expect(table.getByText('Failed')).toBeTruthy();
    expect(table.getByText('Pending')).toBeTruthy();
    expect(table.getByText('HTTP 500')).toBeTruthy();
    expect(table.getByText('The connection was refused')).toBeTruthy();
    expect(calls.some((call) => call.url === `${BASE}/wh_1/deliveries?page=1&per_page=10`)).toBe(true);

    await user.click(dialog.getByRole('button', { name: '2' }));
    await waitFor(() => expect(calls.some((call) => call.url === `${BASE}/wh_1/deliveries?page=2&per_page=10`)).toBe(true));

    const failedRow = within(table.getByText('Failed').closest('tr')!);
    await user.click(failedRow.getByRole('button', { name: /^Resend user\.created/ }));
    expect(await screen.findByText('Event queued to be sent again')).toBeTruthy();
    expect(calls.find((call) => call.url === `${BASE}/wh_1/deliveries/d_2/resend`)?.method).toBe('POST');
  });
  it("shows why a delivery failed in the category's words, and never text it does not know", async () => {
    const categories = Object.keys(WEBHOOK_DELIVERY_ERRORS).filter((code) => code !== 'http_status') as WebhookDeliveryError[];
    const deliveries = [
      ...categories.map((code, index) => delivery({ id: `d_${index}`, status: 'pending', last_status_code: null, last_error: code })),
      // What a server of an earlier version could still send.
      delivery({ id: 'd_raw', status: 'pending', last_status_code: null, last_error: 'connect ECONNREFUSED 10.0.0.5:5432' as WebhookDeliveryError }),
    ];
    webhookServer([hook], (call) =>
      call.url.startsWith(`${BASE}/wh_1/deliveries?`) ? { status: 200, body: { deliveries, total: deliveries.length, page: 1, per_page: 10 } } : undefined,
    );
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: 'Deliveries' }));
    const table = within(await within(await screen.findByRole('dialog', { name: 'Deliveries' })).findByRole('table', { name: 'Deliveries' }));
    for (const code of categories) expect(table.getByText(WEBHOOK_DELIVERY_ERRORS[code])).toBeTruthy();
    expect(table.queryByText(/ECONNREFUSED|10\.0\.0\.5/)).toBeNull();
  });

  it('renews the session once when the access token has expired (401), then retries', async () => {
    let refused = false;
    const calls = webhookServer([hook], (call) => {
      if (call.url === BASE && !refused) {
        refused = true;
        return { status: 401, body: { detail: 'Not authenticated' } };
      }
      return undefined;
    });
    const rendered = renderApp('/projects/p_1/settings/webhooks', {
      user: sampleUser,
      handlers: { 'projects.get': () => project, 'social.connections': () => ({ connections: [] }), 'auth.refresh': () => ({ expires_in: 900 }) },
    });
    expect((await endpoints()).getByRole('listitem', { name: hook.url })).toBeTruthy();
    expect(calls.filter((call) => call.url === BASE)).toHaveLength(2);
    expect(callsTo(rendered.calls, 'auth.refresh')).toHaveLength(1);
  });
  it('edits an endpoint: the form starts from it and saves through PATCH', async () => {
    const calls = webhookServer();
    const { user } = render();
    await user.click((await endpoints()).getByRole('button', { name: `More actions for ${hook.url}` }));
    await user.click(await menuItem('Edit'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit webhook' }));
    expect((dialog.getByRole('textbox', { name: /^Endpoint URL/ }) as HTMLInputElement).value).toBe(hook.url);
    expect((dialog.getByRole('checkbox', { name: 'user.created' }) as HTMLInputElement).checked).toBe(true);
    expect((dialog.getByRole('checkbox', { name: 'login.failed' }) as HTMLInputElement).checked).toBe(false);
    const description = dialog.getByRole('textbox', { name: /^Description/ });
    await user.clear(description);
    await user.click(dialog.getByRole('button', { name: 'Save webhook' }));
    expect(await screen.findByText('Webhook saved')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      url: `${BASE}/wh_1`,
      body: { url: hook.url, description: null, event_types: hook.event_types, enabled: true },
    });
  });
});

describe('A delivery', () => {
  const sentBody = JSON.stringify({ type: 'webhook.test', timestamp: '2025-03-02T10:00:00.000Z', data: { message: 'A test event', webhook_id: 'wh_1' } });
  const detailOf = (overrides: Partial<WebhookDeliveryDetail> & Pick<WebhookDeliveryDetail, 'id' | 'status'>): WebhookDeliveryDetail => ({
    ...delivery(overrides),
    request: {
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'webhook-id', value: 'msg_1' },
        { name: 'webhook-signature', value: 'v1,c2lnbmF0dXJl' },
      ],
      body: sentBody,
    },
    response: { status_code: 200, headers: [{ name: 'x-receiver', value: 'crm-7' }], body: '<img src=x onerror="alert(1)">ok', body_truncated: true },
    ...overrides,
  });

  /** The deliveries dialog over a server answering `details` by id; resend of d_1 makes d_2. */
  async function openDeliveries(details: WebhookDeliveryDetail[], as = project) {
    const calls = webhookServer([hook], (call) => {
      if (call.url.startsWith(`${BASE}/wh_1/deliveries?`)) return { status: 200, body: { deliveries: details, total: details.length, page: 1, per_page: 10 } };
      if (call.url === `${BASE}/wh_1/deliveries/d_1/resend`) return { status: 201, body: delivery({ id: 'd_2', status: 'pending' }) };
      const one = details.find((detail) => call.url === `${BASE}/wh_1/deliveries/${detail.id}`);
      return one ? { status: 200, body: one } : undefined;
    });
    const rendered = renderApp('/projects/p_1/settings/webhooks', { user: sampleUser, handlers: { 'projects.get': () => as, 'social.connections': () => ({ connections: [] }) } });
    await rendered.user.click((await endpoints()).getByRole('button', { name: 'Deliveries' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deliveries' });
    return { calls, user: rendered.user, dialog: within(dialog) };
  }

  it('opens to the request sent (the JSON pretty-printed) and the answer, whose HTML stays text', async () => {
    const { user, dialog, calls } = await openDeliveries([detailOf({ id: 'd_1', status: 'succeeded' }), detailOf({ id: 'd_2', status: 'pending', attempts: 0, response: null })]);
    await user.click((await dialog.findAllByRole('button', { name: /^Open webhook\.test/ }))[0]!);
    const detail = within(await screen.findByRole('dialog', { name: 'Delivery' }));
    const sentHeaders = within(await detail.findByRole('table', { name: 'Request headers' }));
    expect(sentHeaders.getByRole('row', { name: /webhook-signature/ }).textContent).toContain('v1,c2lnbmF0dXJl');
    expect(detail.getByLabelText('Request body').textContent).toBe(JSON.stringify(JSON.parse(sentBody), null, 2));
    expect(detail.getByText('HTTP 200')).toBeTruthy();
    expect(within(detail.getByRole('table', { name: 'Response headers' })).getByRole('row', { name: /x-receiver/ }).textContent).toContain('crm-7');
    const body = detail.getByLabelText('Response body');
    expect(body.textContent).toBe('<img src=x onerror="alert(1)">ok');
    expect(body.querySelector('img')).toBeNull();
    expect(detail.getByText('Only the first 4 KB of the body is kept.')).toBeTruthy();
    expect(calls.some((call) => call.url === `${BASE}/wh_1/deliveries/d_1` && call.method === 'GET')).toBe(true);

    // Resend: the new delivery opens in its place.
    await user.click(detail.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Event queued to be sent again')).toBeTruthy();
    expect(await detail.findByText('Not sent yet.')).toBeTruthy();
    expect(calls.find((call) => call.url === `${BASE}/wh_1/deliveries/d_1/resend`)?.method).toBe('POST');
    await user.click(detail.getByRole('button', { name: 'All deliveries' }));
    expect(await screen.findByRole('table', { name: 'Deliveries' })).toBeTruthy();
  });

  it('says what was not recorded (a delivery from before) and why no answer came', async () => {
    const old = detailOf({ id: 'd_1', status: 'failed', last_status_code: 500, last_error: 'http_status', request: { headers: null, body: sentBody }, response: { status_code: 500, headers: null, body: null, body_truncated: false } });
    const refused = detailOf({ id: 'd_3', status: 'pending', last_status_code: null, last_error: 'connect_refused', response: null });
    const { user, dialog } = await openDeliveries([old, refused]);
    await user.click(dialog.getAllByRole('button', { name: /^Open webhook\.test/ })[0]!);
    let detail = within(await screen.findByRole('dialog', { name: 'Delivery' }));
    expect((await detail.findAllByText(/^Not recorded/)).length).toBe(3);
    expect(detail.getByText('HTTP 500')).toBeTruthy();
    await user.click(detail.getByRole('button', { name: 'All deliveries' }));
    await user.click((await screen.findAllByRole('button', { name: /^Open webhook\.test/ }))[1]!);
    detail = within(await screen.findByRole('dialog', { name: 'Delivery' }));
    expect(await detail.findByText('No answer: The connection was refused.')).toBeTruthy();
    expect(detail.getByRole('table', { name: 'Request headers' })).toBeTruthy();
  });

  it('lets a viewer read the deliveries and change nothing: no Resend, the endpoint’s controls disabled', async () => {
    const { user, dialog } = await openDeliveries([detailOf({ id: 'd_1', status: 'succeeded' })], sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'viewer' }));
    expect(screen.getByText(/You are a viewer on this project/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add webhook', hidden: true }).matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Send test event', hidden: true }).matches(':disabled')).toBe(true);
    expect(screen.getByRole('switch', { name: `Disable ${hook.url}`, hidden: true }).matches(':disabled')).toBe(true);
    expect(await dialog.findByRole('table', { name: 'Deliveries' })).toBeTruthy();
    expect(dialog.queryByRole('button', { name: /^Resend/ })).toBeNull();
    await user.click(dialog.getByRole('button', { name: /^Open webhook\.test/ }));
    const detail = within(await screen.findByRole('dialog', { name: 'Delivery' }));
    expect(await detail.findByRole('table', { name: 'Request headers' })).toBeTruthy();
    expect(detail.queryByRole('button', { name: 'Resend' })).toBeNull();
  });
});

describe('The event catalogue', () => {
  it('lists every event type a webhook can subscribe to, each with a sample body', async () => {
    webhookServer();
    const { user } = render();
    const catalogue = within(await screen.findByRole('region', { name: 'Event catalogue' }));
    for (const type of WEBHOOK_EVENT_TYPES) expect(catalogue.getByRole('button', { name: type })).toBeTruthy();
    await user.click(catalogue.getByRole('button', { name: 'login.failed' }));
    const sample = await catalogue.findByLabelText('Sample body of login.failed');
    expect(JSON.parse(sample.textContent!)).toMatchObject({ type: 'login.failed', data: { reason: 'invalid_credentials' } });
  });
});

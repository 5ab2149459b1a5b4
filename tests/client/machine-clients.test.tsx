import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { MachineClient } from '../../shared/schemas/machine-clients';
import { renderApp, sampleProject, sampleUser } from './utils';

/** Project → Settings → Machine clients over the REST API (/api/v1/projects/{id}/machine-clients). */

const project = sampleProject({ id: 'p_1', name: 'Acme Storefront' });
const BASE = '/api/v1/projects/p_1/machine-clients';
const SECRET = 'mcs_c2VjcmV0LW1hY2hpbmUtY2xpZW50LXNlY3JldC0xMjM0NTY3ODkw';
const ROTATED = 'mcs_cm90YXRlZC1tYWNoaW5lLWNsaWVudC1zZWNyZXQtOTg3NjU0MzIx';

const billing: MachineClient = {
  id: 'mc_row_1',
  name: 'Billing job',
  client_id: 'mc_0123456789abcdef01234567',
  secret_hint: 'wxyz',
  scopes: ['invoices:read'],
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
  secret_rotated_at: null,
  last_used_at: null,
  revoked_at: null,
};

type Call = { method: string; url: string; body: unknown };

/** A server holding the clients in memory, recording every REST call. */
function clientServer(initial: MachineClient[]) {
  let clients = [...initial];
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const call = { method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (call.url === BASE && call.method === 'GET') return answer(200, { machine_clients: clients });
    if (call.url === BASE && call.method === 'POST') {
      const created = { ...billing, id: 'mc_row_2', client_id: 'mc_fedcba9876543210fedcba98', ...(call.body as object) };
      clients = [...clients, created];
      return answer(201, { ...created, client_secret: SECRET });
    }
    if (call.url === `${BASE}/mc_row_1/rotate-secret`) return answer(200, { ...billing, client_secret: ROTATED });
    return answer(404, { detail: 'Not found' });
  });
  return calls;
}

const render = () => renderApp('/projects/p_1/settings/machine-clients', { user: sampleUser, handlers: { 'projects.get': () => project } });
const menuItem = (name: string) => screen.findByRole('menuitem', { name, hidden: true });

describe('Project machine clients', () => {
  it('creates a client with its scopes and shows the secret once, with a curl example', async () => {
    const calls = clientServer([]);
    const { user } = render();
    expect(await screen.findByText(/No machine clients yet/)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Add machine client' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add machine client' }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Reports');
    await user.type(dialog.getByRole('textbox', { name: /^Allowed scopes/ }), 'reports:read{enter}');
    await user.click(dialog.getByRole('button', { name: 'Create client' }));

    const shown = within(await screen.findByRole('dialog', { name: "Your machine client's secret" }));
    expect(shown.getByText(SECRET)).toBeTruthy();
    expect(shown.getByText('mc_fedcba9876543210fedcba98')).toBeTruthy();
    expect(shown.getByText(/grant_type=client_credentials/)).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Reports', scopes: ['reports:read'] });

    await user.click(shown.getByRole('button', { name: 'I have copied the secret' }));
    const list = within(await screen.findByRole('list', { name: 'Machine clients' }));
    await waitFor(() => expect(list.getByText('Reports')).toBeTruthy());
    expect(screen.queryByText(SECRET)).toBeNull();
  });

  it('rotates a secret after confirmation and shows the new one once', async () => {
    clientServer([billing]);
    const { user } = render();
    const list = within(await screen.findByRole('list', { name: 'Machine clients' }));
    expect(list.getByText(/Never used/)).toBeTruthy();
    await user.click(list.getByRole('button', { name: 'More actions for Billing job' }));
    await user.click(await menuItem('Rotate secret'));
    const confirm = within(await screen.findByRole('dialog', { name: 'Rotate the secret' }));
    await user.click(confirm.getByRole('button', { name: 'Rotate' }));
    const shown = within(await screen.findByRole('dialog', { name: "Your machine client's secret" }));
    expect(shown.getByText(ROTATED)).toBeTruthy();
  });
});

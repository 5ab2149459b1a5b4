import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callsTo, quietStats, renderApp, sampleAdmin, sampleProject, sampleUser, type Handlers } from './utils';

const admin = sampleAdmin;
const stats = quietStats;

const paged = (key: string, items: unknown[], total = items.length) => (input: unknown) => {
  const q = (input ?? {}) as { page?: number; per_page?: number };
  return { [key]: items, total, page: q.page ?? 1, per_page: q.per_page ?? 10 };
};

function handlers(prefix: 'admin' | 'projects.monitor', overrides: Handlers = {}): Handlers {
  return {
    'projects.list': () => ({ projects: [sampleProject({ id: 'p_2', name: 'Beta' })] }),
    [`${prefix}.stats`]: () => stats,
    [`${prefix}.users`]: paged('users', [sampleUser]),
    [`${prefix}.loginAttempts`]: paged('attempts', []),
    [`${prefix}.devices`]: paged('devices', []),
    [`${prefix}.sessions`]: paged('sessions', []),
    ...overrides,
  };
}

const lastInput = (calls: { path: string; input: unknown }[], path: string) => callsTo(calls, path).at(-1)?.input;
const exportHref = () => screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href');

describe('monitoring list filters and export', () => {
  it('searches users once typing pauses, from page 1, and exports with the same filters', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ ...sampleUser, id: `u_${i}`, email: `user${i}@example.com` }));
    const { user, calls } = renderApp('/admin?tab=users', { user: admin, handlers: handlers('admin', { 'admin.users': paged('users', many, 25) }) });
    await screen.findByRole('table', { name: 'Users' });
    expect(exportHref()).toBe('/api/v1/admin/users/export');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastInput(calls, 'admin.users')).toEqual({ page: 2, per_page: 10 }));

    await user.type(screen.getByRole('textbox', { name: 'Search users' }), 'grace');
    await waitFor(() => expect(lastInput(calls, 'admin.users')).toEqual({ page: 1, per_page: 10, q: 'grace' }));
    expect(callsTo(calls, 'admin.users').filter((call) => (call.input as { q?: string }).q)).toHaveLength(1);
    expect(exportHref()).toBe('/api/v1/admin/users/export?q=grace');

    await user.click(screen.getByRole('textbox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Inactive', hidden: true }));
    await waitFor(() => expect(lastInput(calls, 'admin.users')).toEqual({ page: 1, per_page: 10, q: 'grace', status: 'inactive' }));
    expect(exportHref()).toBe('/api/v1/admin/users/export?q=grace&status=inactive');
  });

  it('filters login attempts by result and exports them under the project', async () => {
    const { user, calls } = renderApp('/monitoring?project=p_2&tab=attempts', { user: sampleUser, handlers: handlers('projects.monitor') });
    expect(await screen.findByText('No login attempts yet.')).toBeTruthy();
    expect(exportHref()).toBe('/api/v1/projects/p_2/login-attempts/export');

    await user.click(screen.getByRole('textbox', { name: 'Result' }));
    await user.click(await screen.findByRole('option', { name: 'Failed', hidden: true }));
    await waitFor(() => expect(lastInput(calls, 'projects.monitor.loginAttempts')).toEqual({ id: 'p_2', page: 1, per_page: 10, outcome: 'failure' }));
    expect(exportHref()).toBe('/api/v1/projects/p_2/login-attempts/export?outcome=failure');
    expect(await screen.findByText('No login attempts match these filters.')).toBeTruthy();
  });

  it('filters login attempts by network (hosting, VPN or proxy), country and a range of days, on the list and on its export', async () => {
    const { user, calls } = renderApp('/admin?tab=attempts', { user: admin, handlers: handlers('admin') });
    expect(await screen.findByText('No login attempts yet.')).toBeTruthy();

    await user.click(screen.getByRole('textbox', { name: 'Network' }));
    await user.click(await screen.findByRole('option', { name: 'Hosting, VPN or proxy', hidden: true }));
    await waitFor(() => expect(lastInput(calls, 'admin.loginAttempts')).toEqual({ page: 1, per_page: 10, vpn: 'true' }));

    // A country filters once both letters are in, whatever their case.
    await user.type(screen.getByRole('textbox', { name: 'Country' }), 'd');
    expect(lastInput(calls, 'admin.loginAttempts')).toEqual({ page: 1, per_page: 10, vpn: 'true' });
    await user.type(screen.getByRole('textbox', { name: 'Country' }), 'e');
    await waitFor(() => expect(lastInput(calls, 'admin.loginAttempts')).toEqual({ page: 1, per_page: 10, vpn: 'true', country: 'DE' }));

    // The range is of whole days: `to` reaches the end of its day.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-07' } });
    const filtered = { page: 1, per_page: 10, vpn: 'true', country: 'DE', from: '2026-11-01', to: '2026-11-07T23:59:59.999Z' };
    await waitFor(() => expect(lastInput(calls, 'admin.loginAttempts')).toEqual(filtered));
    expect(exportHref()).toBe('/api/v1/admin/login-attempts/export?vpn=true&country=DE&from=2026-11-01&to=2026-11-07T23%3A59%3A59.999Z');
    expect(await screen.findByText('No login attempts match these filters.')).toBeTruthy();

    // Clearing a field lifts its filter.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    await user.clear(screen.getByRole('textbox', { name: 'Country' }));
    await waitFor(() => expect(lastInput(calls, 'admin.loginAttempts')).toEqual({ page: 1, per_page: 10, vpn: 'true', to: '2026-11-07T23:59:59.999Z' }));
    expect(exportHref()).toBe('/api/v1/admin/login-attempts/export?vpn=true&to=2026-11-07T23%3A59%3A59.999Z');
  });

  it('bounds users, devices and sessions by a range of days, kept per list', async () => {
    const { user, calls } = renderApp('/monitoring?project=p_2&tab=users', { user: sampleUser, handlers: handlers('projects.monitor') });
    await screen.findByRole('table', { name: 'Users' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    await waitFor(() => expect(lastInput(calls, 'projects.monitor.users')).toEqual({ id: 'p_2', page: 1, per_page: 10, from: '2026-10-01' }));
    expect(exportHref()).toBe('/api/v1/projects/p_2/users/export?from=2026-10-01&format=csv');

    await user.click(screen.getByRole('tab', { name: 'Devices' }));
    await screen.findByText('No devices seen yet.');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-31' } });
    await waitFor(() => expect(lastInput(calls, 'projects.monitor.devices')).toEqual({ id: 'p_2', page: 1, per_page: 10, to: '2026-10-31T23:59:59.999Z' }));
    expect(exportHref()).toBe('/api/v1/projects/p_2/devices/export?to=2026-10-31T23%3A59%3A59.999Z');

    await user.click(screen.getByRole('tab', { name: 'Sessions' }));
    await screen.findByText('No active sessions.');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-15' } });
    await waitFor(() => expect(lastInput(calls, 'projects.monitor.sessions')).toEqual({ id: 'p_2', page: 1, per_page: 10, from: '2026-10-15' }));
    expect(exportHref()).toBe('/api/v1/projects/p_2/sessions/export?from=2026-10-15');
    expect(await screen.findByText('No active sessions match these filters.')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(((await screen.findByLabelText('From')) as HTMLInputElement).value).toBe('2026-10-01');
  });

  it('passes the search and status of devices and the search of sessions', async () => {
    const { user, calls } = renderApp('/admin?tab=devices', { user: admin, handlers: handlers('admin') });
    await screen.findByText('No devices seen yet.');
    await user.click(screen.getByRole('textbox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Blocked', hidden: true }));
    await user.type(screen.getByRole('textbox', { name: 'Search devices' }), '0123');
    await waitFor(() => expect(lastInput(calls, 'admin.devices')).toEqual({ page: 1, per_page: 10, q: '0123', status: 'blocked' }));
    expect(exportHref()).toBe('/api/v1/admin/devices/export?q=0123&status=blocked');

    await user.click(screen.getByRole('tab', { name: 'Sessions' }));
    await user.type(await screen.findByRole('textbox', { name: 'Search sessions' }), '203.0');
    await waitFor(() => expect(lastInput(calls, 'admin.sessions')).toEqual({ page: 1, per_page: 10, q: '203.0' }));
    expect(exportHref()).toBe('/api/v1/admin/sessions/export?q=203.0');

    // Filters are kept while switching tabs.
    await user.click(screen.getByRole('tab', { name: 'Devices' }));
    expect((await screen.findByRole('textbox', { name: 'Search devices' }) as HTMLInputElement).value).toBe('0123');
  });
});

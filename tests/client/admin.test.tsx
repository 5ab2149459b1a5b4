import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { AdminStats, Device, LoginAttempt, Session } from '../../shared/schemas/admin';
import type { User } from '../../shared/schemas/user';
import { formatDate, formatDateTime } from '../../client/lib/format';
import { callsTo, renderApp, sampleUser, trpcError, type Handlers } from './utils';

const admin: User = { ...sampleUser, id: 'u_admin', email: 'root@example.com', first_name: 'Root', last_name: null, role: 'admin' };

const stats: AdminStats = {
  total_users: 42,
  active_users: 40,
  verified_users: 37,
  failed_logins: 5,
  successful_logins: 2,
  total_login_attempts: 3,
  blocked_vpn_attempts: 1,
  unique_devices: 9,
};

const users: User[] = [
  { ...sampleUser, id: 'u_1' },
  { ...sampleUser, id: 'u_2', email: 'grace@example.com', first_name: null, last_name: null, is_active: false, is_verified: false, last_login: null },
];

const attempts: LoginAttempt[] = [
  {
    id: 'a_1',
    email: 'ada@example.com',
    user_id: 'u_1',
    ip_address: '203.0.113.7',
    is_vpn: true,
    is_proxy: true,
    success: false,
    failure_reason: 'invalid_credentials',
    country_code: null,
    device_fingerprint: null,
    user_agent: null,
    created_at: '2025-06-01T09:30:00.000Z',
    method: null,
  },
  {
    id: 'a_2',
    email: 'grace@example.com',
    user_id: 'u_2',
    ip_address: '198.51.100.4',
    is_vpn: false,
    is_proxy: false,
    success: true,
    failure_reason: null,
    country_code: 'DE',
    device_fingerprint: null,
    user_agent: null,
    created_at: '2025-06-01T09:31:00.000Z',
    method: 'github',
  },
];

const fingerprint = 'a'.repeat(52) + '0123456789ab';
const devices: Device[] = [
  {
    id: 'd_1',
    device_id: fingerprint,
    user_id: 'u_1',
    user_email: 'ada@example.com',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
    device_label: 'Chrome on Linux',
    last_ip: '203.0.113.7',
    is_trusted: true,
    is_blocked: true,
    first_seen: '2025-05-01T08:00:00.000Z',
    last_seen: '2025-06-01T09:30:00.000Z',
  },
];

const sessions: Session[] = [
  {
    id: 's_1',
    user_id: 'u_1',
    user_email: 'ada@example.com',
    device_id: fingerprint,
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
    device_label: 'Chrome on Linux',
    client: 'dashboard',
    client_label: 'Dashboard',
    created_at: '2025-06-01T09:30:00.000Z',
    last_used_at: '2025-06-01T10:00:00.000Z',
    expires_at: '2025-06-08T09:30:00.000Z',
  },
];

const page = (input: unknown) => {
  const q = (input ?? {}) as { page?: number; per_page?: number };
  return { page: q.page ?? 1, per_page: q.per_page ?? 10 };
};

function adminHandlers(overrides: Handlers = {}): Handlers {
  return {
    'admin.stats': () => stats,
    'admin.users': (input) => ({ users, total: users.length, ...page(input) }),
    'admin.loginAttempts': (input) => ({ attempts, total: attempts.length, ...page(input) }),
    'admin.devices': (input) => ({ devices, total: devices.length, ...page(input) }),
    'admin.sessions': (input) => ({ sessions, total: sessions.length, ...page(input) }),
    ...overrides,
  };
}

function renderAdmin(overrides: Handlers = {}, route = '/admin') {
  return renderApp(route, { user: admin, handlers: adminHandlers(overrides) });
}

describe('AdminPage', () => {
  it('shows the four stat cards and the overview with the rounded success rate', async () => {
    renderAdmin();
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();
    const card = (label: string) => screen.getByRole('group', { name: label });
    await waitFor(() => expect(within(card('Total Users')).getByText('42')).toBeTruthy());
    expect(within(card('Active Users')).getByText('40')).toBeTruthy();
    expect(within(card('Verified Users')).getByText('37')).toBeTruthy();
    expect(within(card('Failed Logins')).getByText('5')).toBeTruthy();

    expect(screen.getByRole('heading', { name: 'Login Statistics' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'System Health' })).toBeTruthy();
    expect(screen.getByText('Total attempts').nextSibling?.textContent).toBe('3');
    expect(screen.getByText('Successful').nextSibling?.textContent).toBe('2');
    expect(screen.getByText('Blocked VPN').nextSibling?.textContent).toBe('1');
    expect(screen.getByText('Unique devices').nextSibling?.textContent).toBe('9');
    // 2 of 3 = 66.67 % → 67 %
    expect(screen.getByText('Success rate').nextSibling?.textContent).toBe('67%');
  });

  it('shows a success rate of 0 when there were no attempts', async () => {
    renderAdmin({ 'admin.stats': () => ({ ...stats, successful_logins: 0, total_login_attempts: 0, failed_logins: 0 }) });
    await waitFor(() => expect(screen.getByText('Success rate').nextSibling?.textContent).toBe('0%'));
  });

  it('lists users (page 1 of 10): name or e-mail, status, Verified, Never, and toggles one', async () => {
    const { user, calls } = renderAdmin({ 'admin.toggleUserActive': () => users[0] });
    await user.click(await screen.findByRole('tab', { name: 'Users' }));
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(callsTo(calls, 'admin.users')[0]?.input).toEqual({ page: 1, per_page: 10 });

    const ada = within(table).getByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).getByText('ada@example.com')).toBeTruthy();
    expect(within(ada).getByText('Active')).toBeTruthy();
    expect(within(ada).getByText('Verified')).toBeTruthy();
    expect(within(ada).getByText(formatDate(sampleUser.created_at))).toBeTruthy();
    expect(within(ada).queryByText('Never')).toBeNull();

    const grace = within(table).getByRole('row', { name: /grace@example.com/ });
    expect(within(grace).getByText('Inactive')).toBeTruthy();
    expect(within(grace).queryByText('Verified')).toBeNull();
    expect(within(grace).getByText('Never')).toBeTruthy();
    expect(within(grace).getByRole('button', { name: 'Activate' })).toBeTruthy();

    const before = callsTo(calls, 'admin.users').length;
    await user.click(within(ada).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('User status updated')).toBeTruthy();
    expect(callsTo(calls, 'admin.toggleUserActive')[0]?.input).toEqual({ id: 'u_1' });
    await waitFor(() => expect(callsTo(calls, 'admin.users').length).toBeGreaterThan(before));
    expect(callsTo(calls, 'admin.stats').length).toBeGreaterThan(1);
  });

  it("shows the server's detail when a toggle is refused, else the spec's fallback", async () => {
    const { user } = renderAdmin({
      'admin.toggleUserActive': () => {
        throw trpcError('FORBIDDEN', 'You cannot deactivate your own account', 403);
      },
      'admin.unlockUser': () => {
        throw new Error('down');
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Users' }));
    const row = await screen.findByRole('row', { name: /Ada Lovelace/ });
    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('You cannot deactivate your own account')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Failed to unlock user')).toBeTruthy();
  });

  it('lists login attempts with Hosting/Proxy badges, result, reason and provider, Unknown country and the DB-IP link', async () => {
    const { user } = renderAdmin();
    await user.click(await screen.findByRole('tab', { name: 'Login Attempts' }));
    const table = await screen.findByRole('table', { name: 'Login attempts' });
    const failed = within(table).getByRole('row', { name: /ada@example.com/ });
    expect(within(failed).getByText('203.0.113.7')).toBeTruthy();
    // is_vpn: a hosting network (8.8.8.8 is Google's), not necessarily a VPN.
    expect(within(failed).getByText('Hosting')).toBeTruthy();
    expect(within(failed).queryByText('VPN')).toBeNull();
    expect(within(failed).getByText('Proxy')).toBeTruthy();
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('Wrong password')).toBeTruthy();
    expect(within(failed).getByText('Unknown')).toBeTruthy();

    const ok = within(table).getByRole('row', { name: /grace@example.com/ });
    expect(within(ok).getByText('Success')).toBeTruthy();
    // Signed in with a provider: its name beside the result (a password sign-in has none).
    expect(within(ok).getByText('GitHub')).toBeTruthy();
    expect(within(failed).queryByText('GitHub')).toBeNull();
    expect(within(ok).queryByText('Hosting')).toBeNull();
    expect(within(ok).getByText('Germany (DE)')).toBeTruthy();

    const link = screen.getByRole('link', { name: 'IP Geolocation by DB-IP' });
    expect(link.getAttribute('href')).toBe('https://db-ip.com');
  });

  it('lists devices by the last 12 characters of their id, and blocks and trusts them', async () => {
    const { user, calls } = renderAdmin({
      'admin.toggleDeviceBlock': () => devices[0],
      'admin.toggleDeviceTrust': () => {
        throw new Error('down');
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Devices' }));
    const table = await screen.findByRole('table', { name: 'Devices' });
    const row = within(table).getByRole('row', { name: /0123456789ab/ });
    expect(within(row).getByText('0123456789ab')).toBeTruthy();
    expect(within(row).getByText('Chrome on Linux')).toBeTruthy();
    expect(within(row).queryByText('Mozilla/5.0 (X11; Linux x86_64) Chrome/130')).toBeNull();
    expect(within(row).queryByText(fingerprint)).toBeNull();
    expect(within(row).getByText('Trusted')).toBeTruthy();
    expect(within(row).getByText('Blocked')).toBeTruthy();
    expect(within(row).getByText(formatDateTime('2025-05-01T08:00:00.000Z'))).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('Device status updated')).toBeTruthy();
    expect(callsTo(calls, 'admin.toggleDeviceBlock')[0]?.input).toEqual({ id: 'd_1' });

    await user.click(within(row).getByRole('button', { name: 'Untrust' }));
    expect(await screen.findByText('Failed to update device trust')).toBeTruthy();
  });

  it('lists active sessions and revokes one', async () => {
    const { user, calls } = renderAdmin({ 'admin.revokeSession': () => ({ message: 'Session revoked' }) }, '/admin?tab=sessions');
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    const row = within(table).getByRole('row', { name: /ada@example.com/ });
    expect(within(row).getByText('0123456789ab')).toBeTruthy();
    // The device in words, as Settings shows one's own sessions (the user agent is in the details).
    expect(within(row).getByText('Chrome on Linux')).toBeTruthy();
    // Where it signed in, so two sessions of one browser tell apart.
    expect(within(table).getByRole('columnheader', { name: 'Client' })).toBeTruthy();
    expect(within(row).getByText('Dashboard')).toBeTruthy();
    expect(within(row).getByText('203.0.113.7')).toBeTruthy();
    // User agent, Created and Expires open under the row, so the table stays narrow enough to keep Revoke in view.
    expect(within(table).queryByRole('columnheader', { name: 'User agent' })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Expires' })).toBeNull();
    const details = within(row).getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    await user.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const opened = document.getElementById(details.getAttribute('aria-controls') ?? '');
    expect(opened?.textContent).toContain('Mozilla/5.0 (X11; Linux x86_64) Chrome/130');
    expect(opened?.textContent).toContain('Expires');
    expect(opened?.textContent).toContain(formatDateTime(sessions[0]!.expires_at));
    expect(opened?.textContent).toContain(formatDateTime(sessions[0]!.created_at));
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Session revoked')).toBeTruthy();
    expect(callsTo(calls, 'admin.revokeSession')[0]?.input).toEqual({ id: 's_1' });
  });

  it('pages through a list longer than 10', async () => {
    const many: User[] = Array.from({ length: 10 }, (_, i) => ({ ...sampleUser, id: `u_${i}`, email: `user${i}@example.com`, first_name: null }));
    const { user, calls } = renderAdmin({ 'admin.users': (input) => ({ users: many, total: 25, ...page(input) }) }, '/admin?tab=users');
    await screen.findByRole('table', { name: 'Users' });
    expect(screen.getByText('1–10 of 25')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(callsTo(calls, 'admin.users').at(-1)?.input).toEqual({ page: 3, per_page: 10 }));
    expect(await screen.findByText('21–25 of 25')).toBeTruthy();
  });

  it("toasts 'Failed to load admin data' when the data cannot be loaded", async () => {
    renderAdmin({
      'admin.stats': () => {
        throw new Error('down');
      },
    });
    expect(await screen.findByText('Failed to load admin data')).toBeTruthy();
  });

  it("shows the server's detail when it refuses the load", async () => {
    const { user } = renderAdmin({
      'admin.users': () => {
        throw trpcError('FORBIDDEN', 'Admin access required', 403);
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Users' }));
    expect((await screen.findAllByText('Admin access required')).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('on a phone shows each item as a card with its actions instead of a wide table', async () => {
    const media = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ ...media(query), matches: query === '(max-width: 36em)', media: query }));
    const { user, calls } = renderAdmin({ 'admin.toggleDeviceBlock': () => devices[0] }, '/admin?tab=devices');
    const list = await screen.findByRole('list', { name: 'Devices' });
    expect(screen.queryByRole('table')).toBeNull();
    const [card] = within(list).getAllByRole('listitem');
    expect(within(card!).getByText('0123456789ab')).toBeTruthy();
    expect(within(card!).getByText('First seen')).toBeTruthy();
    await user.click(within(card!).getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('Device status updated')).toBeTruthy();
    expect(callsTo(calls, 'admin.toggleDeviceBlock')).toHaveLength(1);
  });

  it('tells a signed-in non-admin they are not authorised and loads nothing', async () => {
    const { calls } = renderApp('/admin', { user: sampleUser, handlers: adminHandlers() });
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toBeTruthy();
    expect(calls.filter((call) => call.path.startsWith('admin.'))).toHaveLength(0);
  });
});

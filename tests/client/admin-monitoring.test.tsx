import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Project } from '../../shared/schemas/projects';
import type { User } from '../../shared/schemas/user';
import { callsTo, currentPath, renderApp, sampleProject, sampleUser, type Handlers } from './utils';

const project = (id: string, name: string): Project => sampleProject({ id, name });

const endUser: User = { ...sampleUser, id: 'eu_1', email: 'player@example.com', first_name: 'Pat', last_name: 'Player', company_name: null };

const emptyStats = {
  total_users: 1,
  active_users: 1,
  verified_users: 0,
  failed_logins: 0,
  successful_logins: 0,
  total_login_attempts: 0,
  blocked_vpn_attempts: 0,
  unique_devices: 0,
};

function monitorHandlers(projects: Project[], overrides: Handlers = {}): Handlers {
  const paged = (key: string, items: unknown[]) => (input: unknown) => {
    const q = input as { page: number; per_page: number };
    return { [key]: items, total: items.length, page: q.page, per_page: q.per_page };
  };
  return {
    'projects.list': () => ({ projects: projects }),
    'projects.monitor.stats': () => emptyStats,
    'projects.monitor.users': paged('users', [endUser]),
    'projects.monitor.loginAttempts': paged('attempts', []),
    'projects.monitor.devices': paged('devices', []),
    'projects.monitor.sessions': paged('sessions', []),
    ...overrides,
  };
}

describe('MonitoringPage', () => {
  it('shows the project of the address and its end users, and deactivates one', async () => {
    const { user, calls } = renderApp('/monitoring?project=p_2&tab=users', {
      user: sampleUser,
      handlers: monitorHandlers([project('p_1', 'Alpha'), project('p_2', 'Beta')], {
        'projects.monitor.toggleUserActive': () => ({ ...endUser, is_active: false }),
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Monitoring' })).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Project' }) as HTMLInputElement).value).toBe('Beta'));
    const row = await screen.findByRole('row', { name: /Pat Player/ });
    expect(callsTo(calls, 'projects.monitor.users')[0]?.input).toEqual({ id: 'p_2', page: 1, per_page: 10 });
    expect(callsTo(calls, 'projects.monitor.stats')[0]?.input).toEqual({ id: 'p_2' });
    // Unlock is an admin-area action only (the project API has none over tRPC).
    expect(within(row).queryByRole('button', { name: 'Unlock' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('User status updated')).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.toggleUserActive')[0]?.input).toEqual({ id: 'p_2', user_id: 'eu_1' });
    expect(calls.filter((call) => call.path.startsWith('admin.'))).toHaveLength(0);
  });

  it("shows a project's viewer the lists without any action", async () => {
    renderApp('/monitoring?project=p_2&tab=users', {
      user: sampleUser,
      handlers: monitorHandlers([{ ...project('p_2', 'Beta'), role: 'viewer' }]),
    });
    const row = await screen.findByRole('row', { name: /Pat Player/ });
    expect(within(row).getByText('player@example.com')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(row).queryAllByRole('button')).toHaveLength(0);
  });

  it('marks users with two factors, and resets them after a confirmation', async () => {
    const withMfa: User = { ...endUser, mfa_enabled: true };
    const { user, calls } = renderApp('/monitoring?project=p_2&tab=users', {
      user: sampleUser,
      handlers: monitorHandlers([project('p_2', 'Beta')], {
        'projects.monitor.users': (input) => ({ users: [withMfa, { ...endUser, id: 'eu_2', email: 'plain@example.com', first_name: 'Plain' }], total: 2, ...(input as object) }),
        'projects.monitor.resetUserMfa': () => ({ ...withMfa, mfa_enabled: false }),
      }),
    });
    const row = await screen.findByRole('row', { name: /Pat Player/ });
    expect(within(row).getByText('MFA')).toBeTruthy();
    const plain = screen.getByRole('row', { name: /Plain/ });
    expect(within(plain).queryByText('MFA')).toBeNull();
    expect(within(plain).queryByRole('button', { name: 'Reset two-factor' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Reset two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-factor authentication' });
    expect(within(dialog).getByText(/player@example.com will sign in with the password alone/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(calls, 'projects.monitor.resetUserMfa')).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Reset two-factor' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset two-factor authentication' })).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-factor authentication reset')).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.resetUserMfa')[0]?.input).toEqual({ id: 'p_2', user_id: 'eu_1' });
  });

  it('picks the first project when the address names none, and writes it there', async () => {
    renderApp('/monitoring', { user: sampleUser, handlers: monitorHandlers([project('p_1', 'Alpha'), project('p_2', 'Beta')]) });
    await waitFor(() => expect(currentPath()).toBe('/monitoring?project=p_1'));
    expect(await screen.findByRole('group', { name: 'Total Users' })).toBeTruthy();
  });

  it('says so when the project of the address is not one of yours', async () => {
    const { calls } = renderApp('/monitoring?project=nope', { user: sampleUser, handlers: monitorHandlers([project('p_1', 'Alpha')]) });
    expect(await screen.findByText('Project not found')).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.stats')).toHaveLength(0);
  });

  it('without projects shows the empty state with a link to /projects', async () => {
    renderApp('/monitoring', { user: sampleUser, handlers: monitorHandlers([]) });
    expect(await screen.findByRole('heading', { name: 'No projects yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to projects' }).getAttribute('href')).toBe('/projects');
  });

  it('is linked from the header for every signed-in user', async () => {
    renderApp('/monitoring', { user: sampleUser, handlers: monitorHandlers([]) });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Monitoring' }).getAttribute('aria-current')).toBe('page');
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserDetail } from '../../shared/schemas/user-detail';
import { callsTo, currentPath, renderApp, sampleAdmin, sampleProject, sampleUser, trpcError, type Handlers } from './utils';

const detail: UserDetail = {
  ...sampleUser,
  id: 'u_1',
  is_verified: false,
  mfa_enabled: true,
  mail_bounced_at: '2025-06-02T08:00:00.000Z',
  has_password: true,
  passkeys: 2,
  identities: ['github'],
  enterprise_identities: [{ connection_id: 'sso_1', name: 'Corp Okta', type: 'saml', last_sign_in_at: '2025-06-02T09:00:00.000Z', scim: true }],
  sessions: [
    {
      id: 's_1',
      user_id: 'u_1',
      user_email: 'ada@example.com',
      device_id: 'd_1',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
      device_label: 'Chrome on Linux',
      client: 'hosted',
      client_label: 'Hosted pages',
      created_at: '2025-06-01T09:30:00.000Z',
      last_used_at: '2025-06-01T10:00:00.000Z',
      expires_at: '2025-06-08T09:30:00.000Z',
    },
    {
      id: 's_2',
      user_id: 'u_1',
      user_email: 'ada@example.com',
      device_id: 'd_1',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
      device_label: 'Chrome on Linux',
      client: 'oidc',
      client_label: 'OpenID Connect: Shop',
      created_at: '2025-06-01T09:31:00.000Z',
      last_used_at: '2025-06-01T10:00:00.000Z',
      expires_at: '2025-06-08T09:31:00.000Z',
    },
  ],
  devices: [
    {
      id: 'd_1',
      device_id: 'f'.repeat(52) + '0123456789ab',
      user_id: 'u_1',
      user_email: 'ada@example.com',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
      device_label: 'Chrome on Linux',
      last_ip: '203.0.113.7',
      is_trusted: false,
      is_blocked: false,
      first_seen: '2025-05-01T08:00:00.000Z',
      last_seen: '2025-06-01T09:30:00.000Z',
    },
  ],
  login_attempts: [
    {
      id: 'a_1',
      email: 'ada@example.com',
      user_id: 'u_1',
      ip_address: '203.0.113.7',
      is_vpn: false,
      is_proxy: false,
      success: true,
      failure_reason: null,
      country_code: 'DE',
      device_fingerprint: null,
      user_agent: null,
      created_at: '2025-06-01T09:30:00.000Z',
      method: 'github',
    },
  ],
  audit: [
    {
      id: 'e_1',
      project_id: null,
      actor_id: 'u_admin',
      actor_email: 'root@example.com',
      action: 'user.deactivated',
      target_type: 'user',
      target_id: 'u_1',
      target_label: 'ada@example.com',
      before: { is_active: true },
      after: { is_active: false },
      ip_address: null,
      user_agent: null,
      created_at: '2025-06-03T08:00:00.000Z',
    },
  ],
};

function renderAdminUser(overrides: Handlers = {}) {
  return renderApp('/admin/users/u_1', { user: sampleAdmin, handlers: { 'admin.user': () => detail, ...overrides } });
}

describe('the user page in the admin area', () => {
  it('shows the profile, status badges, sessions, devices, attempts with their method, and the audit entries', async () => {
    const { calls } = renderAdminUser();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(callsTo(calls, 'admin.user')[0]?.input).toEqual({ id: 'u_1' });
    const status = screen.getByRole('group', { name: 'Status' });
    for (const badge of ['Active', 'Unverified', 'MFA', '2 passkeys', 'GitHub', 'SSO: Corp Okta', 'Mail bounced']) expect(within(status).getByText(badge)).toBeTruthy();
    expect(within(status).getByText('SSO: Corp Okta').closest('[title]')?.getAttribute('title')).toMatch(/^Enterprise single sign-on: Corp Okta \(SAML, provisioned by SCIM\), last sign-in /);
    expect(screen.getByText(/^Corp Okta \(SAML, provisioned by SCIM\), last sign-in/)).toBeTruthy();

    // Two sessions of one browser tell apart by the client they signed in through.
    const sessions = screen.getByRole('table', { name: 'Sessions' });
    expect(within(sessions).getByRole('columnheader', { name: 'Client' })).toBeTruthy();
    const rows = within(sessions).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').slice(0, 3).map((cell) => cell.textContent))).toEqual([
      ['Chrome on Linux', 'Hosted pages', '203.0.113.7'],
      ['Chrome on Linux', 'OpenID Connect: Shop', '203.0.113.7'],
    ]);
    const devices = screen.getByRole('table', { name: 'Devices' });
    expect(within(devices).getByText('Chrome on Linux')).toBeTruthy();
    expect(within(devices).getByText('0123456789ab')).toBeTruthy();
    const attempts = screen.getByRole('table', { name: 'Recent login attempts' });
    expect(within(attempts).getByText('GitHub')).toBeTruthy();
    expect(within(attempts).getByText('Germany (DE)')).toBeTruthy();
    const audit = screen.getByRole('table', { name: 'Audit entries' });
    expect(within(audit).getByText('User deactivated')).toBeTruthy();
    expect(within(audit).getByText('root@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Users' }).getAttribute('href')).toBe('/admin?tab=users');
  });

  it('resends the verification mail and sends a password reset, toasting the outcome or the server detail', async () => {
    const { user, calls } = renderAdminUser({
      'admin.resendUserVerification': () => ({ message: 'Verification email sent' }),
      'admin.sendUserPasswordReset': () => {
        throw trpcError('TOO_MANY_REQUESTS', 'This address has received too many of these mails in the last hour; try again later', 429);
      },
    });
    const actions = await screen.findByRole('group', { name: 'Actions' });
    await user.click(within(actions).getByRole('button', { name: 'Resend verification' }));
    expect(await screen.findByText('Verification email sent')).toBeTruthy();
    expect(callsTo(calls, 'admin.resendUserVerification')[0]?.input).toEqual({ id: 'u_1' });
    await user.click(within(actions).getByRole('button', { name: 'Send password reset' }));
    expect(await screen.findByText(/too many of these mails/)).toBeTruthy();
    // Each action reloads the page's data.
    await waitFor(() => expect(callsTo(calls, 'admin.user').length).toBeGreaterThan(1));
  });

  it('signs the user out everywhere after the confirmation, and revokes one session, trusts and blocks a device', async () => {
    const { user, calls } = renderAdminUser({
      'admin.signOutUserEverywhere': () => ({ message: '1 session revoked', revoked: 1 }),
      'admin.revokeSession': () => ({ message: 'Session revoked' }),
      'admin.toggleDeviceTrust': () => detail.devices[0],
      'admin.toggleDeviceBlock': () => detail.devices[0],
    });
    const actions = await screen.findByRole('group', { name: 'Actions' });
    await user.click(within(actions).getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere' });
    expect(callsTo(calls, 'admin.signOutUserEverywhere')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed out everywhere')).toBeTruthy();
    expect(callsTo(calls, 'admin.signOutUserEverywhere')[0]?.input).toEqual({ id: 'u_1' });

    await user.click(within(screen.getByRole('table', { name: 'Sessions' })).getAllByRole('button', { name: 'Revoke' })[0]!);
    expect(await screen.findByText('Session revoked')).toBeTruthy();
    expect(callsTo(calls, 'admin.revokeSession')[0]?.input).toEqual({ id: 's_1' });
    const devices = screen.getByRole('table', { name: 'Devices' });
    await user.click(within(devices).getByRole('button', { name: 'Trust' }));
    await waitFor(() => expect(callsTo(calls, 'admin.toggleDeviceTrust')[0]?.input).toEqual({ id: 'd_1' }));
    await waitFor(() => expect(within(devices).getByRole('button', { name: 'Block' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(devices).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(callsTo(calls, 'admin.toggleDeviceBlock')[0]?.input).toEqual({ id: 'd_1' }));
  });

  it('deletes only once the address is typed in the app’s own dialog, then goes back to the list', async () => {
    const { user, calls } = renderAdminUser({ 'admin.deleteUser': () => ({ message: 'User deleted' }), 'admin.stats': () => ({}), 'admin.users': () => ({ users: [], total: 0, page: 1, per_page: 10 }) });
    const actions = await screen.findByRole('group', { name: 'Actions' });
    await user.click(within(actions).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete user' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Type ada@example.com to confirm'), 'ada@example.co');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Type ada@example.com to confirm'), 'm');
    await user.click(confirm);
    expect(await screen.findByText('User deleted')).toBeTruthy();
    expect(callsTo(calls, 'admin.deleteUser')[0]?.input).toEqual({ id: 'u_1' });
    await waitFor(() => expect(currentPath()).toBe('/admin?tab=users'));
  });

  it('shows the refusal when the user is not found', async () => {
    renderAdminUser({
      'admin.user': () => {
        throw trpcError('NOT_FOUND', 'User not found', 404);
      },
    });
    expect(await screen.findByText('User not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe("the user page in a project's monitoring", () => {
  const project = sampleProject({ id: 'p_1', name: 'Shop' });

  it('a viewer reads the page without any action button', async () => {
    renderApp('/monitoring/users/u_1?project=p_1', {
      user: sampleUser,
      handlers: { 'projects.list': () => ({ projects: [{ ...project, role: 'viewer' }] }), 'projects.monitor.user': () => detail },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Actions' })).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Sessions' })).queryAllByRole('button', { name: 'Revoke' })).toEqual([]);
    expect(screen.getByRole('link', { name: 'Users' }).getAttribute('href')).toBe('/monitoring?project=p_1&tab=users');
    expect(screen.queryByRole('table', { name: 'Organizations' })).toBeNull();
  });

  it("lists the end user's organizations with their role", async () => {
    const { calls } = renderApp('/monitoring/users/u_1?project=p_1', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [{ ...project, role: 'viewer' }] }),
        'projects.monitor.user': () => detail,
        'organizations.ofUser': () => ({ organizations: [{ id: 'o_1', name: 'Acme Inc.', slug: 'acme', role: 'org:admin', joined_at: '2025-06-01T09:30:00.000Z' }] }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Organizations' });
    expect(within(table).getByText('Acme Inc.')).toBeTruthy();
    expect(within(table).getByText('org:admin')).toBeTruthy();
    expect(callsTo(calls, 'organizations.ofUser')[0]?.input).toEqual({ id: 'p_1', user_id: 'u_1' });
  });

  it("an owner acts with the project's procedures", async () => {
    const { user, calls } = renderApp('/monitoring/users/u_1?project=p_1', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [{ ...project, role: 'owner' }] }),
        'projects.monitor.user': () => detail,
        'projects.monitor.sendUserPasswordReset': () => ({ message: 'Password reset email sent' }),
      },
    });
    const actions = await screen.findByRole('group', { name: 'Actions' });
    expect(within(actions).queryByRole('button', { name: 'Unlock' })).toBeNull();
    await user.click(within(actions).getByRole('button', { name: 'Send password reset' }));
    expect(await screen.findByText('Password reset email sent')).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.sendUserPasswordReset')[0]?.input).toEqual({ id: 'p_1', user_id: 'u_1' });
  });

  it('Monitoring → Users links each user to their page and creates a user, showing the server’s refusal in the dialog', async () => {
    let refused = true;
    const { user, calls } = renderApp('/monitoring?project=p_1&tab=users', {
      user: sampleUser,
      handlers: {
        'projects.list': () => ({ projects: [{ ...project, role: 'owner' }] }),
        'projects.monitor.stats': () => ({ total_users: 1, active_users: 1, verified_users: 1, failed_logins: 0, successful_logins: 0, total_login_attempts: 0, blocked_vpn_attempts: 0, unique_devices: 0 }),
        'projects.monitor.users': () => ({ users: [{ ...sampleUser, mail_bounced_at: null }], total: 1, page: 1, per_page: 10 }),
        'projects.monitor.user': () => detail,
        'projects.monitor.createUser': () => {
          if (refused) {
            refused = false;
            throw trpcError('CONFLICT', 'An account with this e-mail address already exists', 409);
          }
          return { ...sampleUser, id: 'u_1' };
        },
      },
    });
    const link = await screen.findByRole('link', { name: 'Ada Lovelace' });
    expect(link.getAttribute('href')).toBe('/monitoring/users/u_1?project=p_1');

    await user.click(screen.getByRole('button', { name: 'Create user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create user' });
    await user.type(within(dialog).getByLabelText(/Email/), 'new@example.com');
    await user.click(within(dialog).getByText('No password'));
    await user.click(within(dialog).getByLabelText('Mark the address as verified'));
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('An account with this e-mail address already exists')).toBeTruthy();
    expect(callsTo(calls, 'projects.monitor.createUser')[0]?.input).toEqual({ id: 'p_1', email: 'new@example.com', email_verified: true });
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('User created')).toBeTruthy();
    await waitFor(() => expect(currentPath()).toBe('/monitoring/users/u_1?project=p_1'));
  });
});

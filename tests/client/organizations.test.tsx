import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { ORGANIZATION_MESSAGES, type Organization, type OrganizationInvitation, type OrganizationMember, type OrganizationRole } from '../../shared/schemas/organizations';
import { callsTo, renderApp, sampleProject, sampleUser, trpcError, type Handlers } from './utils';

/** Project → Organizations (list, create, one organization's details, members, invitations, delete), its settings card, and Project → Roles & permissions. */

const organization = (overrides: Partial<Organization> & Pick<Organization, 'id' | 'name' | 'slug'>): Organization => ({
  logo_url: null,
  public_metadata: {},
  private_metadata: {},
  members_count: 0,
  created_at: '2025-02-01T00:00:00.000Z',
  updated_at: '2025-02-01T00:00:00.000Z',
  ...overrides,
});
const acme = organization({ id: 'org_1', name: 'Acme Inc.', slug: 'acme', members_count: 1, public_metadata: { plan: 'pro' } });
const globex = organization({ id: 'org_2', name: 'Globex', slug: 'globex' });
const builtIn: OrganizationRole[] = [
  { key: 'org:admin', name: 'Admin', description: null, permissions: ['members:manage', 'invoices:read'], built_in: true, created_at: null },
  { key: 'org:member', name: 'Member', description: null, permissions: [], built_in: true, created_at: null },
];
const billing: OrganizationRole = { key: 'org:billing', name: 'Billing', description: 'Pays the bills', permissions: ['invoices:read'], built_in: false, created_at: '2025-02-01T00:00:00.000Z' };
const grace: OrganizationMember = { user_id: 'eu_1', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', role: 'org:admin', joined_at: '2025-02-02T00:00:00.000Z' };

function renderOrganizations(route: string, { role = 'owner', handlers = {} }: { role?: 'owner' | 'admin' | 'viewer'; handlers?: Handlers } = {}) {
  const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role });
  let organizations = [acme, globex];
  let members = [grace];
  let invitations: OrganizationInvitation[] = [];
  let roles = [...builtIn, billing];
  let settings = { self_service_creation: false, max_organizations_per_user: 100, custom_claims: null as Record<string, unknown> | null };
  return renderApp(route, {
    user: sampleUser,
    handlers: {
      'projects.get': () => project,
      'organizations.list': (input) => {
        const q = (input as { q?: string }).q;
        const found = organizations.filter((o) => !q || o.name.toLowerCase().includes(q) || o.slug.includes(q));
        return { organizations: found, total: found.length };
      },
      'organizations.create': (input) => {
        const { name, slug } = input as { name: string; slug?: string };
        const created = organization({ id: 'org_3', name, slug: slug ?? 'initech' });
        organizations = [created, ...organizations];
        return created;
      },
      'organizations.get': (input) => {
        const found = organizations.find((o) => o.id === (input as { organization_id: string }).organization_id);
        if (!found) throw trpcError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound, 404);
        return found;
      },
      'organizations.update': (input) => {
        const { organization_id: id, ...changes } = input as { organization_id: string } & Partial<Organization>;
        organizations = organizations.map((o) => (o.id === id ? { ...o, ...changes, updated_at: '2025-03-01T00:00:00.000Z' } : o));
        return organizations.find((o) => o.id === id);
      },
      'organizations.delete': (input) => {
        organizations = organizations.filter((o) => o.id !== (input as { organization_id: string }).organization_id);
        return { message: 'Organization deleted' };
      },
      'organizations.members': () => ({ members }),
      'organizations.addMember': (input) => {
        const { user_id: userId, role: given } = input as { user_id: string; role: string };
        const added = { user_id: userId, email: 'linus@example.com', first_name: null, last_name: null, role: given, joined_at: '2025-02-03T00:00:00.000Z' };
        members = [...members, added];
        return added;
      },
      'organizations.updateMember': (input) => {
        const { user_id: userId, role: given } = input as { user_id: string; role: string };
        members = members.map((m) => (m.user_id === userId ? { ...m, role: given } : m));
        return members.find((m) => m.user_id === userId);
      },
      'organizations.removeMember': () => Promise.reject(trpcError('CONFLICT', ORGANIZATION_MESSAGES.lastAdmin, 409)),
      'organizations.invitations': () => ({ invitations }),
      'organizations.invite': (input) => {
        const { email, role: given } = input as { email: string; role: string };
        const invitation: OrganizationInvitation = { id: 'oi_1', organization_id: 'org_1', email, role: given, status: 'pending', inviter_user_id: null, created_at: '2025-02-03T00:00:00.000Z', expires_at: '2025-02-10T00:00:00.000Z', accepted_at: null };
        invitations = [invitation];
        return invitation;
      },
      'organizations.revokeInvitation': () => {
        invitations = [];
        return { message: 'Invitation revoked' };
      },
      'organizations.roles': () => ({ roles, permissions: ['members:manage', 'invoices:read'] }),
      'organizations.createRole': (input) => {
        const { key, name, permissions } = input as { key: string; name: string; permissions: string[] };
        const created = { key, name, description: null, permissions, built_in: false, created_at: '2025-02-04T00:00:00.000Z' };
        roles = [...roles, created];
        return created;
      },
      'organizations.deleteRole': () => Promise.reject(trpcError('CONFLICT', ORGANIZATION_MESSAGES.roleInUse, 409)),
      'organizations.settings': () => settings,
      'organizations.updateSettings': (input) => {
        const { custom_claims: claims } = input as { custom_claims: Record<string, unknown> | null };
        if (claims && 'sub' in claims) throw trpcError('UNPROCESSABLE_CONTENT', 'custom_claims cannot set the registered claim sub', 422);
        settings = { ...settings, ...(input as object) };
        return settings;
      },
      'projects.monitor.users': () => ({ users: [{ ...sampleUser, id: 'eu_2', email: 'linus@example.com' }], total: 1, page: 1, per_page: 20 }),
      ...handlers,
    },
  });
}

async function openOptions(user: { click(element: Element): Promise<void> }, input: HTMLElement) {
  await user.click(input);
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  return within(document.getElementById(input.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true });
}

describe('Project → Organizations', () => {
  it('lists and searches the organizations, and creates one, which opens', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations');
    const list = within(await screen.findByRole('list', { name: 'Organizations' }));
    expect(list.getByRole('listitem', { name: 'Acme Inc.' }).textContent).toContain('1 member');
    expect(list.getByRole('listitem', { name: 'Globex' })).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search organizations' }), 'glob');
    await waitFor(() => expect(callsTo(calls, 'organizations.list').some((call) => (call.input as { q?: string }).q === 'glob')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Acme Inc.' })).toBeNull());

    await user.click(screen.getByRole('button', { name: 'New organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New organization' }));
    await user.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect(await dialog.findByText('name is required')).toBeTruthy();
    await user.type(dialog.getByRole('textbox', { name: /Name/ }), 'Initech');
    expect(dialog.getByRole('textbox', { name: /Slug/ }).getAttribute('placeholder')).toBe('initech');
    await user.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText('Organization Initech created')).toBeTruthy();
    expect(callsTo(calls, 'organizations.create')[0]?.input).toEqual({ id: 'p_1', name: 'Initech' });
    expect(await screen.findByRole('heading', { name: 'Initech' })).toBeTruthy();
  });

  it('edits the details with the metadata checked as JSON objects, and shows a taken slug under its field', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations&org=org_1', {
      handlers: { 'organizations.update': () => Promise.reject(trpcError('CONFLICT', ORGANIZATION_MESSAGES.slugTaken, 409)) },
    });
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    const publicMetadata = details.getByRole('textbox', { name: /Public metadata/ }) as HTMLTextAreaElement;
    expect(JSON.parse(publicMetadata.value)).toEqual({ plan: 'pro' });
    await user.clear(publicMetadata);
    await user.type(publicMetadata, '[[1, 2]');
    await user.click(details.getByRole('button', { name: 'Save changes' }));
    expect(await details.findByText(/public_metadata must be a JSON object/)).toBeTruthy();
    expect(callsTo(calls, 'organizations.update')).toHaveLength(0);

    await user.clear(publicMetadata);
    await user.type(publicMetadata, '{{"plan": "team"}');
    const slug = details.getByRole('textbox', { name: /Slug/ });
    await user.clear(slug);
    await user.type(slug, 'globex');
    await user.click(details.getByRole('button', { name: 'Save changes' }));
    expect(await details.findByText(ORGANIZATION_MESSAGES.slugTaken)).toBeTruthy();
    expect(callsTo(calls, 'organizations.update')[0]?.input).toMatchObject({ id: 'p_1', organization_id: 'org_1', slug: 'globex', public_metadata: { plan: 'team' }, private_metadata: {} });
  });

  it('changes a role, adds a user picked from the project’s users, and shows why a member cannot be removed', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations&org=org_1');
    const members = within(await screen.findByRole('list', { name: 'Members' }));
    const options = await openOptions(user, members.getByRole('textbox', { name: 'Role of grace@example.com' }));
    expect(options.map((o) => o.textContent)).toEqual(['Admin · org:admin', 'Member · org:member', 'Billing · org:billing']);
    await user.click(options[2]!);
    expect(await screen.findByText('grace@example.com is now Billing')).toBeTruthy();
    expect(callsTo(calls, 'organizations.updateMember')[0]?.input).toEqual({ id: 'p_1', organization_id: 'org_1', user_id: 'eu_1', role: 'org:billing' });

    const add = within(screen.getByRole('form', { name: 'Add a member' }));
    const picked = await openOptions(user, add.getByRole('textbox', { name: "Pick from the project's users" }));
    await user.click(picked.find((o) => o.textContent === 'linus@example.com')!);
    expect((add.getByRole('textbox', { name: 'User ID' }) as HTMLInputElement).value).toBe('eu_2');
    await user.click(add.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('linus@example.com was added to Acme Inc.')).toBeTruthy();
    expect(callsTo(calls, 'organizations.addMember')[0]?.input).toEqual({ id: 'p_1', organization_id: 'org_1', user_id: 'eu_2', role: 'org:member' });

    await user.click(screen.getByRole('button', { name: 'Remove grace@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove this member?' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(ORGANIZATION_MESSAGES.lastAdmin);
  });

  it('invites by e-mail with a role, shows the status, and revokes', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations&org=org_1');
    const invite = within(await screen.findByRole('form', { name: 'Invite by e-mail' }));
    await user.type(invite.getByRole('textbox', { name: 'E-mail address' }), 'ada@');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await invite.findByText('Please enter a valid email address')).toBeTruthy();
    await user.type(invite.getByRole('textbox', { name: 'E-mail address' }), 'example.com');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to ada@example.com')).toBeTruthy();
    expect(callsTo(calls, 'organizations.invite')[0]?.input).toEqual({ id: 'p_1', organization_id: 'org_1', email: 'ada@example.com', role: 'org:member' });
    const item = within(await screen.findByRole('listitem', { name: 'ada@example.com' }));
    expect(item.getByText('Pending')).toBeTruthy();
    await user.click(item.getByRole('button', { name: 'Revoke the invitation to ada@example.com' }));
    expect(await screen.findByText('The invitation to ada@example.com was revoked')).toBeTruthy();
    expect(callsTo(calls, 'organizations.revokeInvitation')[0]?.input).toEqual({ id: 'p_1', organization_id: 'org_1', invitation_id: 'oi_1' });
  });

  it('deletes an organization once its slug is typed', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations&org=org_1');
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete Acme Inc.?' }));
    const confirm = dialog.getByRole('button', { name: 'Delete organization' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(dialog.getByRole('textbox', { name: /to confirm/ }), 'acm');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(dialog.getByRole('textbox', { name: /to confirm/ }), 'e');
    await user.click(confirm);
    expect(await screen.findByText('Organization Acme Inc. deleted')).toBeTruthy();
    expect(callsTo(calls, 'organizations.delete')[0]?.input).toEqual({ id: 'p_1', organization_id: 'org_1' });
    expect(await screen.findByRole('list', { name: 'Organizations' })).toBeTruthy();
  });

  it('saves the organization settings, and shows the server refusing a custom claim in words', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=organizations');
    const card = within(await screen.findByRole('form', { name: 'Organization settings' }));
    await user.click(card.getByRole('switch', { name: /Users may create organizations/ }));
    const claims = card.getByRole('textbox', { name: /Custom claims/ });
    await user.type(claims, '{{"sub": "x"}');
    await user.click(card.getByRole('button', { name: 'Save settings' }));
    expect((await card.findByRole('alert')).textContent).toContain('custom_claims cannot set the registered claim sub');

    await user.clear(claims);
    await user.type(claims, 'not json');
    await user.click(card.getByRole('button', { name: 'Save settings' }));
    expect(await card.findByText('Custom claims is not valid JSON')).toBeTruthy();

    await user.clear(claims);
    await user.type(claims, '{{"tenant": "{{{{ org.slug }}"}');
    await user.click(card.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Organization settings saved')).toBeTruthy();
    expect(callsTo(calls, 'organizations.updateSettings').at(-1)?.input).toEqual({
      id: 'p_1',
      self_service_creation: true,
      max_organizations_per_user: 100,
      custom_claims: { tenant: '{{ org.slug }}' },
    });
  });

  it('shows a viewer the organizations without the means to change them', async () => {
    renderOrganizations('/projects/p_1?tab=organizations&org=org_1', { role: 'viewer' });
    expect(await screen.findByRole('list', { name: 'Members' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete organization' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Invite by e-mail' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Role of grace@example.com' })).toBeNull();
  });
});

describe('Monitoring → Organizations', () => {
  const pending: OrganizationInvitation = { id: 'oi_9', organization_id: 'org_1', email: 'linus@example.com', role: 'org:billing', status: 'pending', inviter_user_id: 'eu_1', created_at: '2025-02-03T00:00:00.000Z', expires_at: '2025-02-10T00:00:00.000Z', accepted_at: null };
  const monitoring = {
    'projects.list': () => ({ projects: [sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'owner' })] }),
    'projects.monitor.stats': () => ({ total_users: 2, active_users: 2, verified_users: 2, failed_logins: 0, successful_logins: 0, total_login_attempts: 0, blocked_vpn_attempts: 0, unique_devices: 0 }),
    'organizations.invitations': () => ({ invitations: [pending] }),
  };

  it("lists and searches a project's organizations with member counts, and opens one: members with roles, invitations, nothing to change", async () => {
    const { user, calls } = renderOrganizations('/monitoring?project=p_1&tab=organizations', { handlers: monitoring });
    expect((await screen.findByRole('tab', { name: 'Organizations' })).getAttribute('aria-selected')).toBe('true');
    const list = within(await screen.findByRole('list', { name: 'Organizations' }));
    expect(list.getByRole('listitem', { name: 'Acme Inc.' }).textContent).toContain('1 member');
    expect(list.getByRole('listitem', { name: 'Globex' }).textContent).toContain('0 members');
    expect(screen.queryByRole('button', { name: 'New organization' })).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Search organizations' }), 'acme');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Globex' })).toBeNull());
    expect(callsTo(calls, 'organizations.list').at(-1)?.input).toMatchObject({ id: 'p_1', q: 'acme' });

    await user.click(screen.getByRole('button', { name: 'Open Acme Inc.' }));
    expect(await screen.findByRole('heading', { name: 'Acme Inc.' })).toBeTruthy();
    const member = within(await screen.findByRole('listitem', { name: 'grace@example.com' }));
    expect(member.getByText('org:admin')).toBeTruthy();
    expect(member.getByRole('link', { name: 'grace@example.com' }).getAttribute('href')).toBe('/monitoring/users/eu_1?project=p_1');
    const invitation = within(await screen.findByRole('listitem', { name: 'linus@example.com' }));
    expect(invitation.getByText('Pending')).toBeTruthy();
    expect(invitation.getByText(/Billing/)).toBeTruthy();
    // Looking only: changes are made in Project → Organizations.
    expect(screen.queryByRole('textbox', { name: 'Role of grace@example.com' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Invite by e-mail' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete organization' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Manage in the project' }).getAttribute('href')).toBe('/projects/p_1?tab=organizations&org=org_1');

    await user.click(screen.getByRole('button', { name: 'All organizations' }));
    expect(await screen.findByRole('list', { name: 'Organizations' })).toBeTruthy();
  });

  it('is a project tab only: the admin area has none', async () => {
    renderOrganizations('/monitoring?project=p_1', { handlers: monitoring });
    expect(await screen.findByRole('tab', { name: 'Organizations' })).toBeTruthy();
    cleanup();
    renderApp('/admin?tab=organizations', {
      user: { ...sampleUser, role: 'admin' },
      handlers: { 'admin.stats': monitoring['projects.monitor.stats'] },
    });
    expect(await screen.findByRole('tab', { name: 'Overview' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('tab', { name: 'Organizations' })).toBeNull();
  });
});

describe('Project → Roles & permissions', () => {
  it('lists built-in and own roles, creates one with permission tags, and says why a role in use cannot go', async () => {
    const { user, calls } = renderOrganizations('/projects/p_1?tab=roles');
    const roles = within(await screen.findByRole('list', { name: 'Roles' }));
    expect(roles.getByRole('listitem', { name: 'org:admin' }).textContent).toContain('Built-in');
    expect(roles.getByRole('listitem', { name: 'org:admin' }).textContent).toContain('Every permission');
    expect(roles.getByRole('listitem', { name: 'org:billing' }).textContent).toContain('invoices:read');
    expect(roles.queryByRole('button', { name: 'Delete org:admin' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New role' }));
    await user.type(dialog.getByRole('textbox', { name: /Key/ }), 'Support');
    await user.type(dialog.getByRole('textbox', { name: /Name/ }), 'Support');
    await user.type(dialog.getByRole('textbox', { name: /Permissions/ }), 'tickets:read{Enter}tickets:write{Enter}');
    await user.click(dialog.getByRole('button', { name: 'Create role' }));
    expect(await dialog.findByText(/role must look like org:billing/)).toBeTruthy();
    await user.clear(dialog.getByRole('textbox', { name: /Key/ }));
    await user.type(dialog.getByRole('textbox', { name: /Key/ }), 'org:support');
    await user.click(dialog.getByRole('button', { name: 'Create role' }));
    expect(await screen.findByText('Role org:support created')).toBeTruthy();
    expect(callsTo(calls, 'organizations.createRole')[0]?.input).toEqual({ id: 'p_1', key: 'org:support', name: 'Support', description: null, permissions: ['tickets:read', 'tickets:write'] });

    await user.click(screen.getByRole('button', { name: 'Delete org:billing' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete org:billing?' }));
    await user.click(confirm.getByRole('button', { name: 'Delete role' }));
    expect((await confirm.findByRole('alert')).textContent).toBe(ORGANIZATION_MESSAGES.roleInUse);
  });
});

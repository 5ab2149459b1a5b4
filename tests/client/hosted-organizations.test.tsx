import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { HostedProject } from '../../shared/schemas/hosted';
import { ORGANIZATION_MESSAGES, type MyOrganization } from '../../shared/schemas/organizations';
import { browser } from '../../client/hosted/navigation';
import { currentPath, renderApp, sampleUser, vi } from './utils';

/** The hosted pages' organization switcher (account page) and the invitation link's page, against a mocked browser API. */

const KEY = 'pk_demo';
const project: HostedProject = { name: 'Acme Notes', project_key: KEY, logo_url: null, accent_color: null, website_url: null, app_url: null, string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } };

type Routes = Record<string, (body: Record<string, unknown> | undefined) => unknown>;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function mockServer(routes: Routes) {
  const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
  const all: Routes = {
    'GET /project': () => project,
    'GET /captcha/config': () => ({ enabled: false, provider: 'none', site_key: '' }),
    'GET /auth/sessions': () => ({ sessions: [] }),
    'GET /auth/passkeys': () => ({ passkeys: [] }),
    'GET /auth/identities': () => ({ identities: [], has_password: true, passkeys: 0, available: [] }),
    ...routes,
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(`/hosted/${KEY}/api/v1`, '')}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    calls.push({ key, body });
    const handler = all[key];
    if (!handler) return json(404, { detail: `Not Found: ${key}` });
    const answer = await handler(body);
    return answer instanceof Response ? answer : json(200, answer);
  });
  return { callsTo: (key: string) => calls.filter((call) => call.key === key) };
}

const mine = (overrides: Partial<MyOrganization> & Pick<MyOrganization, 'id' | 'name'>): MyOrganization => ({
  slug: overrides.id,
  logo_url: null,
  public_metadata: {},
  role: 'org:member',
  permissions: [],
  joined_at: '2025-02-01T00:00:00.000Z',
  ...overrides,
});
const acme = mine({ id: 'org_1', name: 'Acme Inc.', role: 'org:admin' });
const globex = mine({ id: 'org_2', name: 'Globex' });
const preview = { organization: { id: 'org_2', name: 'Globex', slug: 'globex', logo_url: null }, email: sampleUser.email, role: 'org:member', expires_at: '2030-01-08T00:00:00.000Z' };

describe('hosted organization switcher', () => {
  it('lists my organizations, switches into one, and creates one when the project allows it', async () => {
    let active: string | null = 'org_1';
    let organizations = [acme, globex];
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /me/organizations': () => ({ organizations, active_organization_id: active, can_create: true }),
      'POST /auth/switch-organization': (body) => {
        active = body?.organization_id as string | null;
        return { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 };
      },
      'POST /me/organizations': (body) => {
        const created = mine({ id: 'org_3', name: String(body?.name), role: 'org:admin' });
        organizations = [...organizations, created];
        return json(201, created);
      },
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    const list = within(await screen.findByRole('list', { name: 'Organizations' }));
    const acmeItem = list.getByRole('listitem', { name: 'Acme Inc.' });
    expect(acmeItem.getAttribute('aria-current')).toBe('true');
    expect(within(acmeItem).getByText('Active')).toBeTruthy();
    expect(within(acmeItem).getByText('Role: org:admin')).toBeTruthy();

    await user.click(list.getByRole('button', { name: 'Switch to Globex' }));
    expect(await screen.findByText('You are now in Globex')).toBeTruthy();
    expect(callsTo('POST /auth/switch-organization')[0]?.body).toEqual({ organization_id: 'org_2' });
    await waitFor(() => expect(list.getByRole('listitem', { name: 'Globex' }).getAttribute('aria-current')).toBe('true'));

    await user.click(screen.getByRole('button', { name: 'Use no organization' }));
    expect(await screen.findByText('You are no longer in an organization')).toBeTruthy();
    expect(callsTo('POST /auth/switch-organization')[1]?.body).toEqual({ organization_id: null });

    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New organization' }));
    await user.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect(await dialog.findByText('Enter a name for the organization')).toBeTruthy();
    await user.type(dialog.getByRole('textbox', { name: 'Organization name' }), 'Initech');
    await user.click(dialog.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByText('Organization Initech created')).toBeTruthy();
    expect(callsTo('POST /me/organizations')[0]?.body).toEqual({ name: 'Initech' });
    expect(await list.findByRole('listitem', { name: 'Initech' })).toBeTruthy();
  });

  it('is not shown to a user with no organization in a project that does not let users create them', async () => {
    mockServer({ 'GET /profile': () => sampleUser, 'GET /me/organizations': () => ({ organizations: [], active_organization_id: null, can_create: false }) });
    renderApp(`/hosted/${KEY}/account`);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeTruthy();
    await screen.findByRole('region', { name: 'Profile' });
    expect(screen.queryByRole('region', { name: 'Organizations' })).toBeNull();
  });
});

describe("inside one of the user's organizations", () => {
  const member = (user_id: string, email: string, role: string) => ({ user_id, email, first_name: null, last_name: null, role, joined_at: '2025-02-01T00:00:00.000Z' });
  // A language asked for in the address stays for the visit (sessionStorage): the next tests start in English.
  afterEach(() => sessionStorage.clear());
  const managing = mine({ id: 'org_1', name: 'Acme Inc.', role: 'org:manager', permissions: ['members:manage', 'invoices:read'] });

  it('shows the members with their roles and invites with a role the server offers', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /me/organizations': () => ({ organizations: [managing], active_organization_id: null, can_create: false }),
      'GET /me/organizations/org_1/members': () => ({ members: [member(sampleUser.id, sampleUser.email, 'org:manager'), member('usr_2', 'grace@example.com', 'org:admin')] }),
      'GET /me/organizations/org_1/roles': () => ({ roles: [{ key: 'org:member', name: 'Member', permissions: [] }, { key: 'org:manager', name: 'Manager', permissions: ['members:manage'] }] }),
      'POST /me/organizations/org_1/invitations': (body) =>
        body?.email === 'grace@example.com'
          ? json(409, { detail: ORGANIZATION_MESSAGES.alreadyMember })
          : json(201, { id: 'inv_1', organization_id: 'org_1', email: body?.email, role: body?.role, status: 'pending', inviter_user_id: sampleUser.id, created_at: '', expires_at: '', accepted_at: null }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    await user.click(await screen.findByRole('button', { name: 'Members of Acme Inc.' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Members of Acme Inc.' }));
    const members = within(await dialog.findByRole('list', { name: 'Members' }));
    const me = members.getByRole('listitem', { name: sampleUser.email });
    expect(within(me).getByText('You')).toBeTruthy();
    expect(within(me).getByText('org:manager')).toBeTruthy();
    expect(within(members.getByRole('listitem', { name: 'grace@example.com' })).getByText('org:admin')).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    expect(await dialog.findByText('Please enter a valid email address')).toBeTruthy();
    await user.type(dialog.getByRole('textbox', { name: 'E-mail address' }), 'grace@example.com');
    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('The user is already a member of this organization');

    await user.clear(dialog.getByRole('textbox', { name: 'E-mail address' }));
    await user.type(dialog.getByRole('textbox', { name: 'E-mail address' }), 'linus@example.com');
    await user.click(dialog.getByRole('textbox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Manager · org:manager', hidden: true }));
    await user.click(dialog.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to linus@example.com')).toBeTruthy();
    expect(callsTo('POST /me/organizations/org_1/invitations').at(-1)?.body).toEqual({ email: 'linus@example.com', role: 'org:manager' });
  });

  it('offers no invitation to a member without members:manage', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /me/organizations': () => ({ organizations: [globex], active_organization_id: null, can_create: false }),
      'GET /me/organizations/org_2/members': () => ({ members: [member(sampleUser.id, sampleUser.email, 'org:member')] }),
    });
    const { user } = renderApp(`/hosted/${KEY}/account`);
    await user.click(await screen.findByRole('button', { name: 'Members of Globex' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Members of Globex' }));
    expect(await dialog.findByRole('listitem', { name: sampleUser.email })).toBeTruthy();
    expect(dialog.queryByRole('button', { name: 'Send invitation' })).toBeNull();
    expect(dialog.getByRole('button', { name: 'Leave organization' })).toBeTruthy();
    expect(callsTo('GET /me/organizations/org_2/roles')).toHaveLength(0);
  });

  it('leaves after a confirmation, and tells the last admin why they cannot, in the page’s language', async () => {
    let organizations = [acme, globex];
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'GET /me/organizations': () => ({ organizations, active_organization_id: null, can_create: false }),
      'GET /me/organizations/org_1/members': () => ({ members: [member(sampleUser.id, sampleUser.email, 'org:admin')] }),
      'GET /me/organizations/org_1/roles': () => ({ roles: [] }),
      'GET /me/organizations/org_2/members': () => ({ members: [member(sampleUser.id, sampleUser.email, 'org:member')] }),
      [`DELETE /me/organizations/org_1/members/${sampleUser.id}`]: () => json(409, { detail: ORGANIZATION_MESSAGES.lastAdmin }),
      [`DELETE /me/organizations/org_2/members/${sampleUser.id}`]: () => {
        organizations = [acme];
        return { message: 'Member removed' };
      },
    });
    const { user } = renderApp(`/hosted/${KEY}/account?lang=fr`);
    await user.click(await screen.findByRole('button', { name: 'Membres de Acme Inc.' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Membres de Acme Inc.' }));
    await user.click(dialog.getByRole('button', { name: "Quitter l'organisation" }));
    expect(dialog.getByText('Quitter Acme Inc. ?')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: "Quitter l'organisation" }));
    expect((await dialog.findByRole('alert')).textContent).toContain("Une organisation doit garder au moins un org:admin : nommez d'abord quelqu'un d'autre administrateur");
    await user.click(dialog.getByRole('button', { name: 'Annuler' }));
    expect(await dialog.findByRole('list', { name: 'Membres' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Membres de Globex' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Membres de Globex' }));
    await user.click(dialog.getByRole('button', { name: "Quitter l'organisation" }));
    await user.click(dialog.getByRole('button', { name: "Quitter l'organisation" }));
    expect(await screen.findByText('Vous avez quitté Globex')).toBeTruthy();
    expect(callsTo(`DELETE /me/organizations/org_2/members/${sampleUser.id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Globex' })).toBeNull());
  });
});

describe('hosted invitation page', () => {
  it('previews the invitation for a visitor and sends them to sign in (or up) with a way back here', async () => {
    mockServer({
      'GET /profile': () => json(401, { detail: 'Not authenticated' }),
      'POST /auth/refresh': () => json(401, { detail: 'Invalid refresh token' }),
      'POST /invitations/preview': () => preview,
    });
    renderApp(`/hosted/${KEY}/accept-invitation?token=tok_1`);
    expect(await screen.findByText('You are invited to join Globex')).toBeTruthy();
    expect(screen.getByText(/For ada@example.com, as org:member/)).toBeTruthy();
    const back = encodeURIComponent(`/hosted/${KEY}/accept-invitation?token=tok_1`);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-in?return_to=${back}&login_hint=ada%40example.com`);
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(`/hosted/${KEY}/sign-up?return_to=${back}`);
  });

  it('comes back after the sign-in to the invitation', async () => {
    mockServer({
      'GET /profile': () => json(401, { detail: 'Not authenticated' }),
      'POST /auth/refresh': () => json(401, { detail: 'Invalid refresh token' }),
      'POST /auth/login': () => ({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, user: sampleUser }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const back = `/hosted/${KEY}/accept-invitation?token=tok_1`;
    const { user } = renderApp(`/hosted/${KEY}/sign-in?return_to=${encodeURIComponent(back)}&login_hint=ada%40example.com`);
    await user.type(await screen.findByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(back));
  });

  it('accepts for the signed-in invitee and switches into the organization', async () => {
    const { callsTo } = mockServer({
      'GET /profile': () => sampleUser,
      'POST /invitations/preview': () => preview,
      'POST /invitations/accept': () => globex,
      'POST /auth/switch-organization': () => ({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900 }),
      'GET /me/organizations': () => ({ organizations: [globex], active_organization_id: 'org_2', can_create: false }),
    });
    const { user } = renderApp(`/hosted/${KEY}/accept-invitation?token=tok_1`);
    await user.click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText('You joined Globex')).toBeTruthy();
    expect(callsTo('POST /invitations/accept')[0]?.body).toEqual({ token: 'tok_1' });
    await user.click(screen.getByRole('button', { name: 'Switch to Globex' }));
    await waitFor(() => expect(currentPath()).toBe(`/hosted/${KEY}/account`));
    expect(callsTo('POST /auth/switch-organization')[0]?.body).toEqual({ organization_id: 'org_2' });
  });

  it('tells a user signed in with another address, and an invalid link, in words', async () => {
    mockServer({
      'GET /profile': () => ({ ...sampleUser, email: 'grace@example.com' }),
      'POST /invitations/preview': () => preview,
    });
    renderApp(`/hosted/${KEY}/accept-invitation?token=tok_1`);
    expect((await screen.findByRole('alert')).textContent).toContain('You are signed in as grace@example.com, but the invitation is for ada@example.com');
    expect(screen.getByRole('button', { name: 'Sign in with another account' })).toBeTruthy();
  });

  it('shows a spent invitation in the page’s language', async () => {
    mockServer({
      'GET /profile': () => sampleUser,
      'POST /invitations/preview': () => json(400, { detail: ORGANIZATION_MESSAGES.invitationInvalid }),
    });
    renderApp(`/hosted/${KEY}/accept-invitation?token=tok_1&lang=de`);
    expect(await screen.findByText('Einladung nicht verfügbar')).toBeTruthy();
    expect(screen.getByText('Diese Einladung ist ungültig oder abgelaufen')).toBeTruthy();
  });
});

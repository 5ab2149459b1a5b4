import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { TEAM_MESSAGES, type Invitation, type Member, type Team } from '../../shared/schemas/teams';
import { callsTo, currentPath, renderApp, sampleProject, sampleUser, trpcError } from './utils';

/** Project detail → Team: members and roles, invitations, leaving; the invitation link's page; a viewer's read-only screens. */

const member = (overrides: Partial<Member> & Pick<Member, 'user_id' | 'email' | 'role'>): Member => ({
  first_name: null,
  last_name: null,
  joined_at: '2025-01-02T00:00:00.000Z',
  ...overrides,
});
const me = member({ user_id: sampleUser.id, email: sampleUser.email, role: 'owner' });
const grace = member({ user_id: 'u_2', email: 'grace@example.com', role: 'viewer', first_name: 'Grace', last_name: 'Hopper' });

function renderTeam(role: Team['role'] = 'owner', handlers: Record<string, (input: unknown) => unknown> = {}) {
  const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role });
  let team: Team = { role, members: [{ ...me, role }, grace], invitations: [] };
  return renderApp('/projects/p_1/settings/team', {
    user: sampleUser,
    handlers: {
      'projects.get': () => project,
      'projects.list': () => ({ projects: [project] }),
      'teams.get': () => team,
      'teams.invite': (input) => {
        const { email, role: invited } = input as { email: string; role: Invitation['role'] };
        const invitation: Invitation = { id: 'inv_1', email, role: invited, invited_by: sampleUser.email, created_at: '2025-01-03T00:00:00.000Z', expires_at: '2025-01-10T00:00:00.000Z' };
        team = { ...team, invitations: [invitation] };
        return invitation;
      },
      'teams.changeRole': (input) => {
        const { user_id: userId, role: next } = input as { user_id: string; role: Member['role'] };
        team = { ...team, members: team.members.map((m) => (m.user_id === userId ? { ...m, role: next } : m)) };
        return team.members.find((m) => m.user_id === userId);
      },
      'teams.removeMember': (input) => {
        team = { ...team, members: team.members.filter((m) => m.user_id !== (input as { user_id: string }).user_id) };
        return { message: 'Member removed' };
      },
      ...handlers,
    },
  });
}

/** Opens a Mantine select and answers its own options (several selects' options are in the page). */
async function openOptions(user: { click(element: Element): Promise<void> }, input: HTMLElement) {
  await user.click(input);
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  return within(document.getElementById(input.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true });
}

const membersList = async () => within(await screen.findByRole('list', { name: 'Members' }));

describe('Project team', () => {
  it('lists the members with their roles, and an owner changes a role and invites someone', async () => {
    const { user, calls } = renderTeam();
    const members = await membersList();
    expect(members.getByRole('listitem', { name: sampleUser.email }).textContent).toContain('(you)');
    expect(within(members.getByRole('listitem', { name: 'grace@example.com' })).getByText(/Grace Hopper/)).toBeTruthy();

    const options = await openOptions(user, members.getByRole('textbox', { name: 'Role of grace@example.com' }));
    expect(options.map((o) => o.textContent)).toEqual(['Owner', 'Admin', 'Viewer']);
    await user.click(options[1]!);
    expect(await screen.findByText('grace@example.com is now an admin')).toBeTruthy();
    expect(callsTo(calls, 'teams.changeRole')[0]?.input).toEqual({ id: 'p_1', user_id: 'u_2', role: 'admin' });

    const invite = within(screen.getByRole('region', { name: 'Invite someone' }));
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await invite.findByText('Enter a valid e-mail address')).toBeTruthy();
    await user.type(invite.getByRole('textbox', { name: 'E-mail address' }), 'linus@example.com');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to linus@example.com')).toBeTruthy();
    expect(callsTo(calls, 'teams.invite')[0]?.input).toEqual({ id: 'p_1', email: 'linus@example.com', role: 'viewer' });
    const pending = within(await screen.findByRole('list', { name: 'Pending invitations' }));
    expect(pending.getByRole('listitem', { name: 'linus@example.com' }).textContent).toContain('Viewer');
  });

  it('shows the server refusing someone already on the team under the address', async () => {
    const { user } = renderTeam('owner', { 'teams.invite': () => Promise.reject(trpcError('CONFLICT', TEAM_MESSAGES.alreadyMember, 409)) });
    const invite = within(await screen.findByRole('region', { name: 'Invite someone' }));
    await user.type(invite.getByRole('textbox', { name: 'E-mail address' }), 'grace@example.com');
    await user.click(invite.getByRole('button', { name: 'Send invitation' }));
    expect(await invite.findByText(TEAM_MESSAGES.alreadyMember)).toBeTruthy();
  });

  it('removes a member after confirming', async () => {
    const { user, calls } = renderTeam();
    const members = await membersList();
    await user.click(members.getByRole('button', { name: 'Remove grace@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove this member?' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('grace@example.com was removed from the project')).toBeTruthy();
    expect(callsTo(calls, 'teams.removeMember')[0]?.input).toEqual({ id: 'p_1', user_id: 'u_2' });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'grace@example.com' })).toBeNull());
  });

  it('shows the last owner why they cannot leave', async () => {
    const { user } = renderTeam('owner', { 'teams.leave': () => Promise.reject(trpcError('CONFLICT', TEAM_MESSAGES.lastOwner, 409)) });
    await user.click((await membersList()).getByRole('button', { name: 'Leave the project' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Leave this project?' }));
    await user.click(dialog.getByRole('button', { name: 'Leave project' }));
    expect(await dialog.findByText(TEAM_MESSAGES.lastOwner)).toBeTruthy();
  });

  it('gives a viewer no way to change anything: roles as badges, no invitations, settings disabled', async () => {
    const { user } = renderTeam('viewer');
    const members = await membersList();
    expect(members.queryByRole('textbox', { name: /Role of/ })).toBeNull();
    expect(members.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(members.getByRole('button', { name: 'Leave the project' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Invite someone' })).toBeNull();
    expect(screen.getByText('Read-only access')).toBeTruthy();

    await user.click(within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', { name: 'Danger zone' }));
    const settings = await screen.findByRole('group', { name: 'Danger zone settings' });
    expect((settings as HTMLFieldSetElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete project' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets an admin give admin and viewer but not owner, and not touch the owner', async () => {
    const project = sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'admin' });
    const owner = member({ user_id: 'u_9', email: 'owner@example.com', role: 'owner' });
    const { user } = renderTeam('admin', {
      'projects.get': () => project,
      'teams.get': () => ({ role: 'admin', members: [owner, { ...me, role: 'admin' }, grace] }),
    });
    const members = await membersList();
    expect(members.queryByRole('textbox', { name: 'Role of owner@example.com' })).toBeNull();
    expect(members.queryByRole('button', { name: 'Remove owner@example.com' })).toBeNull();
    const offered = await openOptions(user, members.getByRole('textbox', { name: 'Role of grace@example.com' }));
    expect(offered.map((o) => o.textContent)).toEqual(['Admin', 'Viewer']);
    const invite = within(screen.getByRole('region', { name: 'Invite someone' }));
    expect((await openOptions(user, invite.getByRole('textbox', { name: 'Role' }))).map((o) => o.textContent)).toEqual(['Admin', 'Viewer']);
  });
});

describe('Invitation page', () => {
  const preview = { project_name: 'Acme Storefront', email: sampleUser.email, role: 'admin' as const, invited_by: 'owner@example.com', expires_at: '2025-01-10T00:00:00.000Z' };

  it('asks a visitor to sign in, and brings them back to the invitation', async () => {
    renderApp('/invitations?token=tok_1', { handlers: { 'teams.previewInvitation': () => preview } });
    expect(await screen.findByText('Join Acme Storefront')).toBeTruthy();
    expect(screen.getByText(/owner@example.com invited/).textContent).toContain(sampleUser.email);
    expect(screen.getByRole('link', { name: 'Sign in to accept' }).getAttribute('href')).toBe('/login');
  });

  it('accepts for the invited account and opens the project', async () => {
    const { user, calls } = renderApp('/invitations?token=tok_1', {
      user: sampleUser,
      handlers: {
        'teams.previewInvitation': () => preview,
        'teams.acceptInvitation': () => ({ project_id: 'p_1', role: 'admin', message: 'You joined Acme Storefront' }),
        'projects.get': () => sampleProject({ id: 'p_1', name: 'Acme Storefront', role: 'admin' }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('You joined Acme Storefront')).toBeTruthy();
    expect(callsTo(calls, 'teams.acceptInvitation')[0]?.input).toEqual({ token: 'tok_1' });
    expect(await screen.findByRole('tab', { name: 'Overview' })).toBeTruthy();
    expect(currentPath()).toBe('/projects/p_1');
  });

  it('tells a developer signed in with another address to switch accounts', async () => {
    renderApp('/invitations?token=tok_1', { user: sampleUser, handlers: { 'teams.previewInvitation': () => ({ ...preview, email: 'someone-else@example.com' }) } });
    expect(await screen.findByText(new RegExp(`You are signed in as ${sampleUser.email}`))).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
  });

  it('says an expired or used link is invalid', async () => {
    renderApp('/invitations?token=tok_old', { handlers: { 'teams.previewInvitation': () => Promise.reject(trpcError('NOT_FOUND', TEAM_MESSAGES.invitationInvalid, 404)) } });
    expect(await screen.findByText('Invalid invitation')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(TEAM_MESSAGES.invitationInvalid);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_MESSAGES, type ProjectRole } from '../../shared/schemas/teams.js';
import { runRetention } from '../../server/modules/retention/retention.service.js';
import { onProjectTeam } from '../../server/rest/route.js';
import { REST_ROUTES } from '../../server/routes.js';
import { appRouter } from '../../server/trpc/router.js';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * Project teams: members with roles (owner, admin, viewer), invitations by e-mail valid 7 days, and
 * the role checked on the server by every project route of both transports.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
interface Developer {
  email: string;
  access_token: string;
  user: { id: string };
}

const clock = manualClock(new Date('2026-03-02T09:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

async function developer(tag: string, options: { verify?: boolean } = {}): Promise<Developer> {
  const email = uniqueEmail(tag);
  return { email, ...(await t.signUpAndLogIn(email, options)) };
}
const as = (who: Developer, method: Method, url: string, body?: unknown) => t.call(method, url, { token: who.access_token, body });

async function newProject(owner: Developer, name = 'Team project'): Promise<string> {
  const res = await as(owner, 'POST', '/api/v1/projects', { name, environment: 'development' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Invites `email` and answers the token of the link mailed to it. */
async function invite(by: Developer, projectId: string, email: string, role: ProjectRole): Promise<string> {
  const before = t.mail.messages.length;
  const res = await as(by, 'POST', `/api/v1/projects/${projectId}/invitations`, { email, role });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.mail.waitFor(email, /invited to/i, { after: before });
  const link = new URL(mail.link!);
  expect(link.pathname).toBe('/invitations');
  return link.searchParams.get('token')!;
}

async function join(who: Developer, projectId: string, role: ProjectRole, by: Developer): Promise<void> {
  clock.advance(1);
  const token = await invite(by, projectId, who.email, role);
  clock.advance(1);
  const accepted = await as(who, 'POST', '/api/v1/invitations/accept', { token });
  expect(accepted.statusCode, accepted.body).toBe(200);
}

/** A project with an owner, an admin, a viewer, and a developer who is on no team. */
async function team() {
  const [owner, admin, viewer, outsider] = await Promise.all([developer('owner'), developer('admin'), developer('viewer'), developer('outsider')]);
  const projectId = await newProject(owner);
  await join(admin, projectId, 'admin', owner);
  await join(viewer, projectId, 'viewer', owner);
  return { owner, admin, viewer, outsider, projectId };
}

describe('invitations', () => {
  it('an owner invites an address; its holder signs up, accepts and works on the project with that role', async () => {
    const owner = await developer('inviter');
    const projectId = await newProject(owner, 'Shared shop');
    const email = uniqueEmail('newcomer');
    const token = await invite(owner, projectId, email, 'admin');

    const preview = await t.call('POST', '/api/v1/invitations/preview', { body: { token } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ project_name: 'Shared shop', email, role: 'admin', invited_by: owner.email, expires_at: '2026-03-09T09:00:00.000Z' });

    const newcomer = { email, ...(await t.signUpAndLogIn(email)) };
    const accepted = await as(newcomer, 'POST', '/api/v1/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ project_id: projectId, role: 'admin', message: 'You joined Shared shop' });

    const projects = (await as(newcomer, 'GET', '/api/v1/projects')).json().projects;
    expect(projects).toEqual([expect.objectContaining({ id: projectId, name: 'Shared shop', role: 'admin' })]);
    expect((await as(newcomer, 'PATCH', `/api/v1/projects/${projectId}`, { description: 'Edited by the admin' })).statusCode).toBe(200);
    expect((await as(owner, 'GET', `/api/v1/projects/${projectId}`)).json()).toMatchObject({ role: 'owner', description: 'Edited by the admin' });

    const teamAnswer = (await as(owner, 'GET', `/api/v1/projects/${projectId}/team`)).json();
    expect(teamAnswer.role).toBe('owner');
    expect(teamAnswer.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'admin'],
    ]);
    expect(teamAnswer.invitations).toEqual([]);

    const again = await as(newcomer, 'POST', '/api/v1/invitations/accept', { token });
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe(TEAM_MESSAGES.invitationInvalid);
  });

  it('works only for the invited address, once it is verified, and for 7 days', async () => {
    const owner = await developer('owner');
    const projectId = await newProject(owner);
    const invitee = await developer('invitee', { verify: false });
    const stranger = await developer('stranger');
    const token = await invite(owner, projectId, invitee.email.toUpperCase(), 'viewer');

    const wrongAccount = await as(stranger, 'POST', '/api/v1/invitations/accept', { token });
    expect(wrongAccount.statusCode).toBe(403);
    expect(wrongAccount.json().detail).toBe(TEAM_MESSAGES.invitationOtherAccount);
    const unverified = await as(invitee, 'POST', '/api/v1/invitations/accept', { token });
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().detail).toBe('Please verify your email first');
    expect((await as(stranger, 'GET', `/api/v1/projects/${projectId}`)).statusCode).toBe(404);

    const later = await invite(owner, projectId, stranger.email, 'viewer');
    clock.advance(7 * 86_400 + 1);
    const relogged = await t.call('POST', '/api/v1/auth/login', { body: { email: stranger.email, password: STRONG_PASSWORD } });
    const expired = await t.call('POST', '/api/v1/invitations/accept', { token: relogged.json().access_token, body: { token: later } });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().detail).toBe(TEAM_MESSAGES.invitationInvalid);
    expect((await t.call('POST', '/api/v1/invitations/preview', { body: { token: later } })).statusCode).toBe(404);

    // A day after it expired, the retention deletes it.
    const stored = () => t.db.selectFrom('project_invitations').select('id').where('project_id', '=', projectId).execute();
    expect(await stored()).toHaveLength(2);
    clock.advance(86_400);
    expect((await runRetention(t.deps)).projectInvitations).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual([]);
  });

  it('a new invitation to the same address replaces the earlier link, and a withdrawn one stops working', async () => {
    const { owner, admin, projectId } = await team();
    const invitee = await developer('twice');
    const first = await invite(owner, projectId, invitee.email, 'viewer');
    const second = await invite(admin, projectId, invitee.email, 'admin');
    expect((await t.call('POST', '/api/v1/invitations/preview', { body: { token: first } })).statusCode).toBe(404);
    const pending = (await as(owner, 'GET', `/api/v1/projects/${projectId}/team`)).json().invitations;
    expect(pending).toEqual([expect.objectContaining({ email: invitee.email, role: 'admin', invited_by: admin.email })]);

    const withdrawn = await as(admin, 'DELETE', `/api/v1/projects/${projectId}/invitations/${pending[0].id}`);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await as(invitee, 'POST', '/api/v1/invitations/accept', { token: second })).statusCode).toBe(404);
    expect((await as(owner, 'GET', `/api/v1/projects/${projectId}/team`)).json().invitations).toEqual([]);
  });

  it('answers the same whether or not the address has an account, and refuses someone already on the team', async () => {
    const { owner, viewer, projectId } = await team();
    const existing = await developer('existing');
    const answers = await Promise.all(
      [existing.email, uniqueEmail('nobody')].map(async (email) => {
        const res = await as(owner, 'POST', `/api/v1/projects/${projectId}/invitations`, { email, role: 'viewer' });
        await t.mail.waitFor(email, /invited to/i);
        return { status: res.statusCode, keys: Object.keys(res.json()).sort() };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);

    const member = await as(owner, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: viewer.email, role: 'admin' });
    expect(member.statusCode).toBe(409);
    expect(member.json().detail).toBe(TEAM_MESSAGES.alreadyMember);
    const invalid = await as(owner, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: 'not-an-address', role: 'superuser' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail).toEqual(expect.any(String));
  });
});

/** The role a project route needs: its declared one, else a viewer for a GET and an admin otherwise. */
const projectRoutes = REST_ROUTES.filter((route) => route.url.startsWith('/api/v1/projects/:id'));
const neededRole = (route: (typeof projectRoutes)[number]): ProjectRole => {
  const { role } = route.access;
  return role !== undefined && role !== 'admin' && role !== 'team' ? role : route.method === 'GET' ? 'viewer' : 'admin';
};
const urlOf = (url: string, projectId: string) => url.replace(':id', projectId).replace(/:[a-z_]+/g, 'unknown-item');

describe('every project REST route', () => {
  it('is declared as a project route, and the set covers each area', () => {
    expect(projectRoutes.every((route) => onProjectTeam(route.access))).toBe(true);
    const areas = new Set(projectRoutes.map((route) => route.url.split('/')[5] ?? '(project)'));
    for (const area of ['(project)', 'api-keys', 'analytics', 'team', 'invitations', 'members', 'leave', 'connections', 'webhooks', 'users', 'devices', 'sessions', 'login-attempts', 'stats', 'audit-log']) {
      expect(areas, area).toContain(area);
    }
  });

  it('answers a developer who is not on the team like a missing project (404), before reading the input', async () => {
    const { outsider, projectId } = await team();
    for (const route of projectRoutes) {
      const res = await as(outsider, route.method, urlOf(route.url, projectId), route.method === 'GET' ? undefined : { nonsense: true });
      expect([route.method, route.url, res.statusCode, res.json().detail]).toEqual([route.method, route.url, 404, 'Project not found']);
    }
  });

  it('lets a viewer read and nothing else (403 before the input is read)', async () => {
    const { viewer, projectId } = await team();
    for (const route of projectRoutes) {
      const url = urlOf(route.url, projectId);
      if (neededRole(route) === 'viewer') {
        // Reads only here: leaving, the one change a viewer may make, has its own test.
        if (route.method !== 'GET') continue;
        // The users export reads as the Users list (CSV) for a viewer; its NDJSON, with private metadata, is an admin's.
        const res = await as(viewer, route.method, route.url.endsWith('/users/export') ? `${url}?format=csv` : url);
        expect([route.url, res.statusCode]).not.toEqual([route.url, 403]);
        expect(res.statusCode, `${route.url}: ${res.body}`).toBeLessThan(500);
      } else {
        const res = await as(viewer, route.method, url, { nonsense: true });
        expect([route.method, route.url, res.statusCode, res.json().detail]).toEqual([route.method, route.url, 403, TEAM_MESSAGES.forbidden]);
      }
    }
  });

  it('lets an admin do everything but what needs an owner', async () => {
    const { admin, projectId } = await team();
    const ownerOnly = projectRoutes.filter((route) => neededRole(route) === 'owner');
    expect(ownerOnly.map((route) => `${route.method} ${route.url}`)).toEqual(['DELETE /api/v1/projects/:id']);
    for (const route of ownerOnly) {
      const res = await as(admin, route.method, urlOf(route.url, projectId));
      expect([route.url, res.statusCode, res.json().detail]).toEqual([route.url, 403, TEAM_MESSAGES.forbidden]);
    }
    for (const route of projectRoutes.filter((r) => neededRole(r) === 'admin')) {
      // A body the route cannot take: past the role check, validation or the missing item answers.
      const res = await as(admin, route.method, urlOf(route.url, projectId), { nonsense: true });
      expect([route.method, route.url, res.statusCode]).not.toEqual([route.method, route.url, 403]);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBeLessThan(500);
    }
  });
});

/** tRPC procedures on one project: every one under projects.*, teams.* and the project connections, but these. */
const NOT_ON_A_PROJECT = new Set(['projects.list', 'projects.create', 'projects.dashboardStats', 'teams.previewInvitation', 'teams.acceptInvitation']);
const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: { type: 'query' | 'mutation' } }> }).procedures;
const projectProcedures = Object.entries(procedures)
  .filter(([path]) => /^(projects|teams|projectSettings)\./.test(path) || /^social\.(connections|saveConnection|removeConnection)$/.test(path))
  .filter(([path]) => !NOT_ON_A_PROJECT.has(path))
  .map(([path, procedure]) => ({ path, type: procedure._def.type }));
const ROLE_OVERRIDES: Record<string, ProjectRole> = { 'projects.delete': 'owner', 'teams.leave': 'viewer' };

async function callProcedure(token: string, path: string, type: 'query' | 'mutation', input: unknown): Promise<{ code: string; message: string } | 'ok'> {
  const tab = t.trpc({ token });
  const procedure = path.split('.').reduce<Record<string, unknown>>((node, name) => node[name] as Record<string, unknown>, tab.api as never) as unknown as Record<
    'query' | 'mutate',
    (input: unknown) => Promise<unknown>
  >;
  try {
    await (type === 'query' ? procedure.query(input) : procedure.mutate(input));
    return 'ok';
  } catch (error) {
    const { data, message } = error as { data?: { code: string }; message: string };
    return { code: data?.code ?? 'UNKNOWN', message };
  }
}

describe('every project tRPC procedure', () => {
  it('is found (the list covers each area)', () => {
    const paths = projectProcedures.map((p) => p.path);
    for (const path of ['projects.get', 'projects.delete', 'projects.monitor.revokeSession', 'projects.auditLog', 'teams.invite', 'teams.leave', 'social.saveConnection']) expect(paths).toContain(path);
  });

  it('checks the role like REST: outsiders 404, viewers read only, admins all but owner procedures', async () => {
    const { admin, viewer, outsider, projectId } = await team();
    for (const { path, type } of projectProcedures) {
      const needed = ROLE_OVERRIDES[path] ?? (type === 'query' ? 'viewer' : 'admin');
      const input = { id: projectId, nonsense: true };
      expect([path, await callProcedure(outsider.access_token, path, type, input)]).toEqual([path, { code: 'NOT_FOUND', message: 'Project not found' }]);
      const asViewer = path === 'teams.leave' ? null : await callProcedure(viewer.access_token, path, type, input);
      if (needed === 'viewer') expect([path, asViewer]).not.toEqual([path, { code: 'FORBIDDEN', message: TEAM_MESSAGES.forbidden }]);
      else expect([path, asViewer]).toEqual([path, { code: 'FORBIDDEN', message: TEAM_MESSAGES.forbidden }]);
      if (needed === 'owner') expect([path, await callProcedure(admin.access_token, path, type, input)]).toEqual([path, { code: 'FORBIDDEN', message: TEAM_MESSAGES.forbidden }]);
    }
  });
});

describe('managing the team', () => {
  it('admins manage admins and viewers; only owners give, take or remove the owner role', async () => {
    const { owner, admin, viewer, projectId } = await team();
    const members = `/api/v1/projects/${projectId}/members`;
    const promote = await as(admin, 'PATCH', `${members}/${viewer.user.id}`, { role: 'admin' });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(promote.json()).toMatchObject({ user_id: viewer.user.id, role: 'admin' });
    expect((await as(admin, 'PATCH', `${members}/${viewer.user.id}`, { role: 'viewer' })).statusCode).toBe(200);

    for (const [body, target] of [
      [{ role: 'owner' }, viewer],
      [{ role: 'viewer' }, owner],
    ] as const) {
      const res = await as(admin, 'PATCH', `${members}/${target.user.id}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(TEAM_MESSAGES.forbidden);
    }
    expect((await as(admin, 'DELETE', `${members}/${owner.user.id}`)).statusCode).toBe(403);
    expect((await as(admin, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: uniqueEmail('would-be-owner'), role: 'owner' })).statusCode).toBe(403);

    expect((await as(owner, 'PATCH', `${members}/${admin.user.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await as(admin, 'GET', `/api/v1/projects/${projectId}`)).json().role).toBe('owner');
    const removed = await as(admin, 'DELETE', `${members}/${viewer.user.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await as(viewer, 'GET', `/api/v1/projects/${projectId}`)).statusCode).toBe(404);
    expect((await as(viewer, 'GET', '/api/v1/projects')).json().projects).toEqual([]);
  });

  it('keeps at least one owner: the last one can neither leave, be removed nor step down', async () => {
    const { owner, admin, viewer, projectId } = await team();
    const stepDown = await as(owner, 'PATCH', `/api/v1/projects/${projectId}/members/${owner.user.id}`, { role: 'admin' });
    expect(stepDown.statusCode).toBe(409);
    expect(stepDown.json().detail).toBe(TEAM_MESSAGES.lastOwner);
    expect((await as(owner, 'POST', `/api/v1/projects/${projectId}/leave`)).statusCode).toBe(409);
    expect((await as(owner, 'DELETE', `/api/v1/projects/${projectId}/members/${owner.user.id}`)).statusCode).toBe(409);

    const viewerLeaves = await as(viewer, 'POST', `/api/v1/projects/${projectId}/leave`);
    expect(viewerLeaves.statusCode, viewerLeaves.body).toBe(200);
    expect(viewerLeaves.json().message).toBe('You left the project');
    expect((await as(viewer, 'GET', `/api/v1/projects/${projectId}`)).statusCode).toBe(404);

    expect((await as(owner, 'PATCH', `/api/v1/projects/${projectId}/members/${admin.user.id}`, { role: 'owner' })).statusCode).toBe(200);
    const leaves = await as(owner, 'POST', `/api/v1/projects/${projectId}/leave`);
    expect(leaves.statusCode, leaves.body).toBe(200);
    // The project now follows its remaining owner: its keys keep working while that account is active.
    const primary = await t.db.selectFrom('projects').select('owner_id').where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(primary.owner_id).toBe(admin.user.id);
    expect((await as(admin, 'GET', `/api/v1/projects/${projectId}`)).json().role).toBe('owner');
  });

  it('records invitations, joins, role changes, removals and departures in the audit log', async () => {
    const { owner, admin, viewer, projectId } = await team();
    // One second apart, so the newest-first order is the order they happened in.
    for (const [who, method, path, body] of [
      [owner, 'PATCH', `members/${viewer.user.id}`, { role: 'admin' }],
      [owner, 'DELETE', `members/${viewer.user.id}`],
      [admin, 'POST', 'leave'],
    ] as const) {
      clock.advance(1);
      expect((await as(who, method, `/api/v1/projects/${projectId}/${path}`, body)).statusCode).toBe(200);
    }
    const log = (await as(owner, 'GET', `/api/v1/projects/${projectId}/audit-log?action=member.`)).json();
    expect(log.entries.map((e: { action: string; actor_email: string; target_label: string }) => [e.action, e.actor_email, e.target_label])).toEqual([
      ['member.left', admin.email, admin.email],
      ['member.removed', owner.email, viewer.email],
      ['member.role_changed', owner.email, viewer.email],
      ['member.joined', viewer.email, viewer.email],
      ['member.invited', owner.email, viewer.email],
      ['member.joined', admin.email, admin.email],
      ['member.invited', owner.email, admin.email],
    ]);
    expect(log.entries[2]).toMatchObject({ before: { role: 'viewer' }, after: { role: 'admin' } });
  });
});

describe('deleting a developer account', () => {
  it('passes shared projects to another owner and deletes only those left without one', async () => {
    const { owner, admin, projectId: shared } = await team();
    await as(owner, 'PATCH', `/api/v1/projects/${shared}/members/${admin.user.id}`, { role: 'owner' });
    const alone = await newProject(owner, 'Solo project');
    const deleted = await as(owner, 'POST', '/api/v1/auth/delete-account', { password: STRONG_PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const remaining = (await as(admin, 'GET', '/api/v1/projects')).json().projects;
    expect(remaining.map((p: { id: string; role: string }) => [p.id, p.role])).toEqual([[shared, 'owner']]);
    expect(await t.db.selectFrom('projects').select('id').where('id', '=', alone).executeTakeFirst()).toBeUndefined();
    const primary = await t.db.selectFrom('projects').select('owner_id').where('id', '=', shared).executeTakeFirstOrThrow();
    expect(primary.owner_id).toBe(admin.user.id);
  });
});

import type { APIRequestContext } from '@playwright/test';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, signUpViaApi, toast, uniqueEmail, waitForMail, seriousAxeViolations } from './support';

/**
 * Organizations (issue 28), end to end: a developer creates a role, an organization and an invitation
 * from Project → Roles & permissions and Project → Organizations; an end user opens the mailed link on
 * the hosted pages, signs in, accepts, and switches between their organizations on the account page;
 * inside an organization there, a manager invites and a member leaves. Monitoring shows the organizations.
 */

const { shoot, shootThemes } = screenshots('organizations');

/** A verified developer signed in on `request`, and their project (no website: mail links open the hosted pages). */
async function developerProject(request: APIRequestContext, name: string) {
  const email = uniqueEmail('org-dev');
  await signUpViaApi(request, { email, firstName: 'Dana' });
  await trpc(request, 'auth.verifyEmail', { token: linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token') });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  return trpc<{ id: string; project_key: string }>(request, 'projects.create', { name, environment: 'development' });
}

/** An end user of the project, signed up and verified through its hosted pages' API (not signed in in any page). */
async function endUser(request: APIRequestContext, key: string, email: string) {
  const api = `/hosted/${key}/api/v1`;
  const response = await request.post(`${api}/auth/signup`, {
    data: { email, password: PASSWORD, first_name: 'Grace', last_name: 'Hopper', captcha_token: '', device_fingerprint: null },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  const verified = await request.post(`${api}/auth/verify-email`, { data: { token, device_fingerprint: null } });
  expect(verified.ok(), await verified.text()).toBe(true);
}

test('a developer creates a role and an organization, and invites someone into it with that role', async ({ page }) => {
  test.setTimeout(120_000);
  const project = await developerProject(page.request, 'Acme B2B');

  // Roles & permissions: the built-in two, then one of the project's own.
  await page.goto(`/projects/${project.id}?tab=roles`);
  // The first visit loads the project screen's chunk, which a busy machine takes a while to serve.
  await expect(page.getByRole('tab', { name: 'Roles & permissions' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  const roles = page.getByRole('list', { name: 'Roles' });
  await expect(roles.getByRole('listitem', { name: 'org:admin' })).toContainText('Built-in');
  await page.getByRole('button', { name: 'New role' }).click();
  const dialog = page.getByRole('dialog', { name: 'New role' });
  await dialog.getByRole('textbox', { name: 'Key' }).fill('org:billing');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Billing');
  await dialog.getByRole('textbox', { name: 'Permissions' }).fill('invoices:read');
  await dialog.getByRole('textbox', { name: 'Permissions' }).press('Enter');
  await dialog.getByRole('textbox', { name: 'Permissions' }).fill('invoices:pay');
  await dialog.getByRole('textbox', { name: 'Permissions' }).press('Enter');
  // Away from the tags' suggestions, which cover the buttons while open.
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await shoot(page, 'role-dialog', dialog);
  await dialog.getByRole('button', { name: 'Create role' }).click();
  await expect(toast(page, 'Role org:billing created')).toBeVisible();
  await expect(roles.getByRole('listitem', { name: 'org:billing' })).toContainText('invoices:pay');
  await shootThemes(page, 'roles');

  // Organizations: create one, which opens.
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await expect(page.getByText('No organizations yet')).toBeVisible();
  await page.getByRole('button', { name: 'New organization' }).click();
  const create = page.getByRole('dialog', { name: 'New organization' });
  await create.getByRole('textbox', { name: 'Name' }).fill('Acme Inc.');
  await expect(create.getByRole('textbox', { name: 'Slug' })).toHaveAttribute('placeholder', 'acme-inc');
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Inc.' })).toBeVisible();

  // Invite with the new role.
  const invitee = uniqueEmail('org-invitee');
  const invite = page.getByRole('form', { name: 'Invite by e-mail' });
  await invite.getByRole('textbox', { name: 'E-mail address' }).fill(invitee);
  await invite.getByRole('textbox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Billing · org:billing' }).click();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(page, `Invitation sent to ${invitee}`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Invitations' }).getByRole('listitem', { name: invitee })).toContainText('Pending');
  await shootThemes(page, 'detail');

  // The mail links to the project's hosted pages.
  const link = linkIn(await waitForMail(invitee, /invited to join Acme Inc\./), '/accept-invitation');
  expect(link.pathname).toBe(`/hosted/${project.project_key}/accept-invitation`);

  // Back to the list: it shows the organization, with the settings card below.
  await page.getByRole('button', { name: 'All organizations' }).click();
  await expect(page.getByRole('list', { name: 'Organizations' }).getByRole('listitem', { name: 'Acme Inc.' })).toBeVisible();
  await page.getByRole('switch', { name: /Users may create organizations/ }).check();
  await page.getByRole('textbox', { name: /Custom claims/ }).fill('{"sub": "{{ org.slug }}"}');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('form', { name: 'Organization settings' }).getByRole('alert')).toContainText('sub');
  await page.getByRole('textbox', { name: /Custom claims/ }).fill('{"tenant": "{{ org.slug }}"}');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(toast(page, 'Organization settings saved')).toBeVisible();
  await shootThemes(page, 'list');

  // Monitoring → Organizations: the same list with member counts, and the organization's people.
  await page.goto(`/monitoring?project=${project.id}&tab=organizations`);
  await expect(page.getByRole('tab', { name: 'Organizations' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Open Acme Inc.' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Inc.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Invitations' }).getByRole('listitem', { name: invitee })).toContainText('Pending');
  await expect(page.getByRole('link', { name: 'Manage in the project' })).toBeVisible();
  await shootThemes(page, 'monitoring');
});

test('an end user accepts an invitation on the hosted pages and switches organization', async ({ page, request }) => {
  test.setTimeout(120_000);
  const project = await developerProject(request, 'Acme Hosted B2B');
  const key = project.project_key;
  const email = uniqueEmail('org-member');
  await endUser(request, key, email);
  const found = await request.get(`/api/v1/projects/${project.id}/users?q=${encodeURIComponent(email)}`);
  expect(found.ok(), await found.text()).toBe(true);
  const userId = ((await found.json()) as { users: { id: string }[] }).users[0]!.id;

  // The developer puts them in one organization and invites them into another.
  const first = await trpc<{ id: string }>(request, 'organizations.create', { id: project.id, name: 'Initech' });
  await trpc(request, 'organizations.addMember', { id: project.id, organization_id: first.id, user_id: userId, role: 'org:admin' });
  const second = await trpc<{ id: string }>(request, 'organizations.create', { id: project.id, name: 'Globex' });
  await trpc(request, 'organizations.invite', { id: project.id, organization_id: second.id, email, role: 'org:member' });

  // The link, opened signed out: what it is for, then sign in and come back.
  const link = linkIn(await waitForMail(email, /invited to join Globex/), '/accept-invitation');
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByText('You are invited to join Globex')).toBeVisible();
  await shootThemes(page, 'hosted-invitation');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(field(page, 'Email')).toHaveValue(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Back on the invitation, signed in: accept, then switch into it.
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page.getByText('You joined Globex')).toBeVisible();
  await page.getByRole('button', { name: 'Switch to Globex' }).click();
  await expect(page).toHaveURL(new RegExp(`/hosted/${key}/account$`));
  const list = page.getByRole('list', { name: 'Organizations' });
  await expect(list.getByRole('listitem', { name: 'Globex' })).toHaveAttribute('aria-current', 'true');
  await shootThemes(page, 'hosted-switcher', () => page.getByRole('region', { name: 'Organizations' }));

  // Switch to the other one: the session's tokens now carry it.
  await list.getByRole('button', { name: 'Switch to Initech' }).click();
  await expect(toast(page, 'You are now in Initech')).toBeVisible();
  await expect(list.getByRole('listitem', { name: 'Initech' })).toHaveAttribute('aria-current', 'true');
  const mine = await page.request.get(`/hosted/${key}/api/v1/me/organizations`);
  expect(((await mine.json()) as { active_organization_id: string }).active_organization_id).toBe(first.id);
});

test('inside an organization on the hosted pages: a manager invites, a member leaves, the last admin is told why not', async ({ page, request }) => {
  test.setTimeout(150_000);
  const project = await developerProject(request, 'Acme Team Pages');
  const key = project.project_key;
  const email = uniqueEmail('org-manager');
  await endUser(request, key, email);
  const found = await request.get(`/api/v1/projects/${project.id}/users?q=${encodeURIComponent(email)}`);
  const userId = ((await found.json()) as { users: { id: string }[] }).users[0]!.id;
  await trpc(request, 'organizations.createRole', { id: project.id, key: 'org:manager', name: 'Manager', permissions: ['members:manage'] });
  await trpc(request, 'organizations.createRole', { id: project.id, key: 'org:billing', name: 'Billing', permissions: ['invoices:pay'] });
  const team = await trpc<{ id: string }>(request, 'organizations.create', { id: project.id, name: 'Initech' });
  await trpc(request, 'organizations.addMember', { id: project.id, organization_id: team.id, user_id: userId, role: 'org:manager' });
  const solo = await trpc<{ id: string }>(request, 'organizations.create', { id: project.id, name: 'Solo Ventures' });
  await trpc(request, 'organizations.addMember', { id: project.id, organization_id: solo.id, user_id: userId, role: 'org:admin' });

  await page.goto(`/hosted/${key}/sign-in`);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/hosted/${key}/account$`));

  // Initech's members, and an invitation with a role no more powerful than a manager's own.
  const dialog = page.getByRole('dialog', { name: 'Members of Initech' });
  const openTeam = async () => {
    await page.getByRole('button', { name: 'Members of Initech' }).click();
    await expect(dialog.getByRole('listitem', { name: email })).toContainText('org:manager');
  };
  await openTeam();
  await expect(dialog.getByRole('listitem', { name: email })).toContainText('You');
  await dialog.getByRole('textbox', { name: 'Role' }).click();
  await expect(page.getByRole('option', { name: 'Manager · org:manager' })).toBeVisible();
  await expect(page.getByRole('option', { name: /org:admin|org:billing/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Manager · org:manager' }).click();
  const invitee = uniqueEmail('org-colleague');
  await dialog.getByRole('textbox', { name: 'E-mail address' }).fill(invitee);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(toast(page, `Invitation sent to ${invitee}`)).toBeVisible();
  await waitForMail(invitee, /invited to join Initech/);
  const invitations = (await (await request.get(`/api/v1/projects/${project.id}/organizations/${team.id}/invitations`)).json()) as { invitations: unknown[] };
  expect(invitations.invitations).toEqual([expect.objectContaining({ email: invitee, role: 'org:manager', status: 'pending' })]);

  // Screenshots of the dialog and its accessibility: light and dark (toggled with the dialog closed), 1280 and 375 px.
  await page.keyboard.press('Escape');
  for (const [scheme, width] of [['light', 1280], ['dark', 1280], ['dark', 375], ['light', 375]] as const) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    const toggle = page.getByRole('button', { name: `Switch to ${scheme} mode` }).first();
    if (await toggle.isVisible()) await toggle.click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await openTeam();
    await shoot(page, `hosted-members-${width === 375 ? '375-' : ''}${scheme}`, dialog);
    expect(await seriousAxeViolations(page, '[role="dialog"]'), `${scheme} ${width} px`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The last org:admin of Solo Ventures cannot leave: the server's 409, in words.
  await page.getByRole('button', { name: 'Members of Solo Ventures' }).click();
  const soloDialog = page.getByRole('dialog', { name: 'Members of Solo Ventures' });
  await soloDialog.getByRole('button', { name: 'Leave organization' }).click();
  await expect(soloDialog.getByText('Leave Solo Ventures?')).toBeVisible();
  await soloDialog.getByRole('button', { name: 'Leave organization' }).click();
  await expect(soloDialog.getByRole('alert')).toContainText('An organization needs at least one org:admin: make someone else an admin first');
  await shoot(page, 'hosted-leave-last-admin', soloDialog);
  await soloDialog.getByRole('button', { name: 'Cancel' }).click();
  await page.keyboard.press('Escape');

  // Leaving Initech, after the confirmation: gone from the list and from the organization.
  await page.getByRole('button', { name: 'Members of Initech' }).click();
  await dialog.getByRole('button', { name: 'Leave organization' }).click();
  await dialog.getByRole('button', { name: 'Leave organization' }).click();
  await expect(toast(page, 'You left Initech')).toBeVisible();
  const list = page.getByRole('list', { name: 'Organizations' });
  await expect(list.getByRole('listitem', { name: 'Initech' })).toHaveCount(0);
  await expect(list.getByRole('listitem', { name: 'Solo Ventures' })).toBeVisible();
  const members = (await (await request.get(`/api/v1/projects/${project.id}/organizations/${team.id}/members`)).json()) as { members: unknown[] };
  expect(members.members).toEqual([]);
});

import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, logInViaUi, signUpViaApi, toast, uniqueEmail, waitForMail } from './support';

/**
 * A project's team, end to end: the owner invites a colleague as a viewer from Project → Team; the
 * colleague opens the mailed link in their own browser, signs in, accepts, and finds the project with
 * read-only settings; the owner then makes them an admin.
 */

const { shoot, shootThemes } = screenshots('teams');

test('an invited colleague accepts from the mailed link, works read-only as a viewer, and is promoted', async ({ page, browser }) => {
  // The owner: a verified developer with a project, signed in in this browser.
  const owner = uniqueEmail('team-owner');
  await signUpViaApi(page.request, { email: owner, firstName: 'Olive' });
  await trpc(page.request, 'auth.verifyEmail', { token: linkIn(await waitForMail(owner, /verif/i), '/verify-email').searchParams.get('token') });
  await trpc(page.request, 'auth.logIn', { email: owner, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string }>(page.request, 'projects.create', { name: 'Acme Together', environment: 'development' });

  // The colleague already has an account (the link works for new accounts too, once verified).
  const colleague = uniqueEmail('team-colleague');
  const other = await browser.newContext();
  const colleaguePage = await other.newPage();
  try {
    await signUpViaApi(colleaguePage.request, { email: colleague, firstName: 'Cole' });
    await trpc(colleaguePage.request, 'auth.verifyEmail', { token: linkIn(await waitForMail(colleague, /verif/i), '/verify-email').searchParams.get('token') });

    await page.goto(`/projects/${project.id}/settings/team`);
    const members = page.getByRole('list', { name: 'Members' });
    await expect(members.getByRole('listitem', { name: owner })).toContainText('(you)');
    const invite = page.getByRole('region', { name: 'Invite someone' });
    await invite.getByRole('textbox', { name: 'E-mail address' }).fill(colleague);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(toast(page, `Invitation sent to ${colleague}`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem', { name: colleague })).toContainText('Viewer');
    await shootThemes(page, 'team', () => page.getByRole('tabpanel', { name: 'Settings' }));

    // The colleague opens the link, signs in and comes back to accept.
    const link = linkIn(await waitForMail(colleague, /invited to Acme Together/i), '/invitations');
    await colleaguePage.goto(link.pathname + link.search);
    await expect(colleaguePage.getByText('Join Acme Together')).toBeVisible();
    await shoot(colleaguePage, 'invitation-visitor-light');
    await colleaguePage.getByRole('link', { name: 'Sign in to accept' }).click();
    await logInViaUi(colleaguePage, colleague);
    await expect(colleaguePage).toHaveURL(/\/invitations\?token=/);
    await shootThemes(colleaguePage, 'invitation');
    await colleaguePage.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(toast(colleaguePage, 'You joined Acme Together')).toBeVisible();
    await expect(colleaguePage).toHaveURL(new RegExp(`/projects/${project.id}$`));

    // As a viewer: settings shown but disabled, no invitations, and the server refuses a change anyway.
    await colleaguePage.getByRole('tab', { name: 'Settings' }).click();
    await expect(colleaguePage.getByText('Read-only access')).toBeVisible();
    await expect(colleaguePage.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await colleaguePage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Danger zone' }).click();
    await expect(colleaguePage.getByRole('button', { name: 'Delete project' })).toBeDisabled();
    await shootThemes(colleaguePage, 'viewer-settings', () => colleaguePage.getByRole('tabpanel', { name: 'Settings' }));
    const refused = await colleaguePage.request.post('/trpc/projects.update', { data: { id: project.id, name: 'Renamed by a viewer' } });
    expect(refused.status()).toBe(403);
    await colleaguePage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Team' }).click();
    await expect(colleaguePage.getByRole('region', { name: 'Invite someone' })).toHaveCount(0);

    // The owner makes them an admin; their screen then allows changes.
    await page.reload();
    await page.getByRole('list', { name: 'Members' }).getByRole('textbox', { name: `Role of ${colleague}` }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await expect(toast(page, `${colleague} is now an admin`)).toBeVisible();
    await colleaguePage.goto(`/projects/${project.id}/settings/general`);
    await expect(colleaguePage.getByRole('textbox', { name: /^Project name/ })).toBeEnabled();
    await colleaguePage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Danger zone' }).click();
    await expect(colleaguePage.getByText('Only an owner can delete the project.')).toBeVisible();
    await expect(colleaguePage.getByRole('button', { name: 'Delete project' })).toBeDisabled();
  } finally {
    await other.close();
  }
});

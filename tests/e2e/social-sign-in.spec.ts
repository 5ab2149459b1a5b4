import { E2E } from './env';
import { screenshots, trpc } from './screenshots-support';
import { expect, test } from './fixtures';
import { PASSWORD, linkIn, signUpViaApi, uniqueEmail, waitForMail } from './support';

/**
 * "Continue with GitHub" against the GitHub stand-in the global setup starts (E2E.github): on the platform's
 * login page (configured through the server's GITHUB_* settings) and on a project's hosted sign-in page (a
 * connection the developer saves). The stand-in's one user authorizes every sign-in, so each test makes that
 * user's account in its own realm: the platform's, and the project's.
 */

const { github } = E2E;

const { shoot, shootThemes } = screenshots('social');

test('platform: "Continue with GitHub" signs in, and the account lists GitHub among its sign-in methods', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  const button = page.getByRole('button', { name: 'Continue with GitHub' });
  await expect(button).toBeVisible();
  await shootThemes(page, 'login');

  await button.click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const methods = page.getByRole('list', { name: 'Connected services' });
  await expect(methods.getByRole('listitem', { name: 'GitHub' })).toContainText(github.user.email);
  await expect(page.getByText('You sign in without a password.')).toBeVisible();
  const card = () => page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: 'Sign-in methods' }) });
  await card().scrollIntoViewIfNeeded();
  await shootThemes(page, 'settings-sign-in-methods', card);
});

test("hosted pages: a project's GitHub connection signs its end user in", async ({ page }) => {
  // A verified developer, signed in in this browser (page.request shares its cookies), with a project.
  const developer = uniqueEmail('social-dev');
  await signUpViaApi(page.request, { email: developer, firstName: 'Dana' });
  const token = linkIn(await waitForMail(developer, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(page.request, 'auth.verifyEmail', { token });
  await trpc(page.request, 'auth.logIn', { email: developer, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ id: string; project_key: string }>(page.request, 'projects.create', { name: 'Acme Notes', environment: 'development', accent_color: '#0ca678' });

  // The connection to the stand-in, in GitHub Enterprise's layout (any client id and secret work there).
  const saved = await page.request.put(`/api/v1/projects/${project.id}/connections/github`, {
    data: {
      client_id: 'hosted-e2e-client',
      client_secret: 'hosted-e2e-secret',
      authorize_url: `${github.origin}/login/oauth/authorize`,
      token_url: `${github.origin}/login/oauth/access_token`,
      api_url: `${github.origin}/api/v3`,
      enabled: true,
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  expect(((await saved.json()) as { callback_url: string }).callback_url).toBe(`${E2E.baseURL}/hosted/${project.project_key}/api/v1/auth/oauth/github/callback`);

  // The developer's view of it.
  await page.goto(`/projects/${project.id}/settings/sign-in`);
  const connections = () => page.getByRole('region', { name: 'Connections' });
  await expect(connections().getByRole('listitem', { name: 'GitHub' })).toContainText('Enabled');
  await connections().scrollIntoViewIfNeeded();
  await shootThemes(page, 'project-connections', connections);
  await connections().getByRole('button', { name: 'Edit GitHub' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit GitHub' });
  await expect(dialog.getByLabel('Client secret')).toHaveValue('');
  // Saved with Enterprise URLs: the advanced section starts open.
  await expect(dialog.getByLabel('Token URL')).toBeVisible();
  await expect(dialog.getByLabel('Token URL')).toHaveValue(`${github.origin}/login/oauth/access_token`);
  await shoot(page, 'project-connection-edit-light', dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The end user: the hosted sign-in page offers GitHub, and comes back signed in.
  const hosted = `/hosted/${project.project_key}`;
  await page.goto(`${hosted}/sign-in`);
  const button = page.getByRole('button', { name: 'Continue with GitHub' });
  await expect(button).toBeVisible();
  await shootThemes(page, 'hosted-sign-in');
  await button.click();
  await expect(page).toHaveURL(new RegExp(`${hosted}/account$`));
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByText(github.user.email).first()).toBeVisible();
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await expect(methods.getByRole('listitem', { name: 'GitHub' })).toContainText(github.user.email);
  await methods.scrollIntoViewIfNeeded();
  await shoot(page, 'hosted-account-sign-in-methods-light', methods);
});

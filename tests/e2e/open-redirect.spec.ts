import { expect, test } from './fixtures';
import { logInViaUi, signUpViaApi, uniqueEmail } from './support';

/**
 * An open redirect through the sign-in page, in a real browser: Chromium's URL parser drops the tab of
 * `/<TAB>/evil.example` and reads `//evil.example`, and the router falls back to a full navigation when
 * history refuses a cross-origin address. A link to our sign-in must leave the visitor on our site.
 */

const HOSTILE = ['/\t/evil.example', '/%09/evil.example', '/\\evil.example', '/.//evil.example'];

test.beforeEach(async ({ page }) => {
  // Were the browser sent there, it would land on this page instead of a DNS error.
  await page.context().route(/^https?:\/\/evil\.example\//, (route) => route.fulfill({ contentType: 'text/html', body: '<h1>evil.example</h1>' }));
});

test('a sign-in from a link whose return_to leaves the site lands on the dashboard, and so does every later visit of such a link', async ({ page, baseURL }) => {
  const email = uniqueEmail('open-redirect');
  await signUpViaApi(page.request, { email });
  await page.goto(`/login?return_to=${encodeURIComponent(HOSTILE[0]!)}`);
  await logInViaUi(page, email);
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  // Signed in: the sign-in page sends the visitor on by itself.
  for (const returnTo of HOSTILE) {
    await page.goto(`/login?return_to=${encodeURIComponent(returnTo)}`);
    await expect(page, returnTo).toHaveURL(`${baseURL}/dashboard`);
  }
});

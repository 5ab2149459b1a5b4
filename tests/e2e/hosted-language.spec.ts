import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PASSWORD, field, linkIn, signUpViaApi, uniqueEmail, waitForMail, captureScreen } from './support';

/**
 * Issue 25, "in the user's language": a browser that asks for German (Accept-Language: de-DE,
 * navigator.languages) signs up on a project's hosted pages in German, gets the verification mail in
 * German, and its link opens a German page; the sign-in page is checked light, dark and 375 px wide.
 */

test.use({ locale: 'de-DE' });

async function trpc<T>(request: APIRequestContext, procedure: string, data: unknown): Promise<T> {
  const response = await request.post(`/trpc/${procedure}`, { data });
  expect(response.ok(), `${procedure}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function developerProject(request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('lang-dev');
  await signUpViaApi(request, { email, firstName: 'Dana' });
  const token = linkIn(await waitForMail(email, /verif/i), '/verify-email').searchParams.get('token');
  await trpc(request, 'auth.verifyEmail', { token });
  await trpc(request, 'auth.logIn', { email, password: PASSWORD, captcha_token: '', device_fingerprint: null });
  const project = await trpc<{ project_key: string }>(request, 'projects.create', { name: 'Bäckerei Schmidt', environment: 'development', accent_color: '#c2255c' });
  return project.project_key;
}

async function shoot(page: Page, name: string) {
  await captureScreen(page, `hosted-de-${name}`);
}

test('a German browser signs up on the hosted pages in German, gets the German mail, and its link opens a German page', async ({ page, request }) => {
  test.setTimeout(180_000);
  const key = await developerProject(request);
  const hosted = `/hosted/${key}`;
  const email = uniqueEmail('grete');

  await page.goto(`${hosted}/sign-up`);
  await expect(page.getByRole('heading', { name: 'Konto erstellen', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page).toHaveTitle('Konto erstellen · Bäckerei Schmidt');
  await expect(page.getByText('um mit Bäckerei Schmidt fortzufahren')).toBeVisible();
  await page.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByText('Bitte gib eine gültige E-Mail-Adresse ein')).toBeVisible();
  await field(page, 'Vorname').fill('Grete');
  await field(page, 'E-Mail').fill(email);
  await field(page, 'Passwort').fill(PASSWORD);
  await field(page, 'Passwort bestätigen').fill(PASSWORD);
  await page.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByRole('heading', { name: 'Prüfe dein Postfach' })).toBeVisible();
  await expect(page.getByText(/Wir haben einen Bestätigungslink an/)).toBeVisible();

  const mail = await waitForMail(email, /Bestätige deine E-Mail-Adresse für Bäckerei Schmidt/);
  expect(mail.text).toContain(`Willkommen bei Bäckerei Schmidt! Bitte bestätige ${email}`);
  expect(mail.text).toContain('Geschützt durch AuthPlatform');
  expect(mail.html).toContain('>E-Mail-Adresse bestätigen</a>');
  const link = linkIn(mail, '/verify-email');
  expect(link.pathname).toBe(`${hosted}/verify-email`);

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByText('E-Mail-Adresse bestätigt!')).toBeVisible();
  await expect(page.getByText('Dein Konto ist bereit.')).toBeVisible();
  await page.getByRole('link', { name: 'Weiter zur Anmeldung' }).click();

  await expect(page.getByRole('heading', { name: 'Anmelden', level: 1 })).toBeVisible();
  await expect(page.getByText('E-Mail-Adresse bestätigt! Bitte melde dich an, um fortzufahren.')).toBeVisible();
  await expect(page.getByText('Geschützt durch AuthPlatform')).toBeVisible();
  await shoot(page, 'sign-in-light');
  await page.getByRole('button', { name: 'Zum dunklen Design wechseln' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await shoot(page, 'sign-in-dark');
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, 'sign-in-375-dark');
  await page.getByRole('button', { name: 'Zum hellen Design wechseln' }).click();
  await shoot(page, 'sign-in-375-light');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the German sign-in scrolls sideways at 375 px').toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  await field(page, 'E-Mail').fill(email);
  await field(page, 'Passwort').fill('Falsches-Passwort-1');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'E-Mail-Adresse oder Passwort ist falsch' })).toBeVisible();
  await field(page, 'Passwort').fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Dein Konto', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Sprache' })).toHaveValue('Deutsch');
  await shoot(page, 'account-light');
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_MAIL_TEMPLATES } from '../../shared/mail-templates.js';
import { MAIL_TEMPLATE_KINDS, type MailTemplateKind } from '../../shared/schemas/project-settings.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import type { CaughtMail } from '../helpers/smtp-catcher.js';

/**
 * Issue 25, mails in the project's name: a project's end users get mails from, about and signed by the
 * project (its name, colour and logo), with only a small "Secured by AuthPlatform" line it may turn
 * off; the built-in wording is one source, and the preview is exactly what is sent (apart from the token).
 */

let t: TestApp;
let developer: { email: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  const email = uniqueEmail('mails-dev');
  developer = { email, token: (await t.signUpAndLogIn(email)).access_token };
});
afterAll(() => t.close());

interface Project {
  id: string;
  key: string;
  apiKey: string;
}

async function createProject(fields: Record<string, unknown>): Promise<Project> {
  const created = await t.call('POST', '/api/v1/projects', { token: developer.token, body: { name: 'Shop', ...fields } });
  expect(created.statusCode, created.body).toBe(201);
  const key = await t.call('POST', `/api/v1/projects/${created.json().id}/api-keys`, { token: developer.token, body: { name: 'backend' } });
  return { id: created.json().id, key: created.json().project_key, apiKey: key.json().secret };
}

const api = (project: Project, path: string, body: unknown, ip = uniqueIp()) => t.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': project.apiKey }, ip });

/** Each of the mails a project may rewrite, sent to `email` through the public API; the caught mail. */
async function sendKind(project: Project, kind: MailTemplateKind, email: string): Promise<CaughtMail> {
  const before = t.mail.messages.length;
  const ip = uniqueIp();
  if (kind === 'verification') {
    expect((await api(project, '/auth/signup', { email, password: STRONG_PASSWORD }, ip)).statusCode).toBe(201);
    return t.mail.waitFor(email, /verify/i, { after: before });
  }
  if (kind === 'password_reset') {
    expect((await api(project, '/auth/forgot-password', { email }, ip)).statusCode).toBe(200);
    return t.mail.waitFor(email, /reset/i, { after: before });
  }
  if (kind === 'magic_link' || kind === 'email_code') {
    await t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: developer.token, body: { sign_in_methods: { magic_link: true, email_code: true } } });
    const path = kind === 'magic_link' ? 'magic-link' : 'email-code';
    const asked = await t.call('POST', `/hosted/${project.key}/api/v1/auth/${path}`, { body: { email }, ip });
    expect(asked.statusCode, asked.body).toBe(200);
    return t.mail.waitFor(email, kind === 'magic_link' ? /sign-in link/ : /sign-in code/, { after: before });
  }
  const login = await api(project, '/auth/login', { email, password: STRONG_PASSWORD }, ip);
  expect(login.statusCode, login.body).toBe(200);
  const changed = await t.call('POST', '/public/api/v1/auth/change-password', {
    body: { current_password: STRONG_PASSWORD, new_password: STRONG_PASSWORD.replace('42', '43') },
    headers: { 'x-api-key': project.apiKey },
    token: login.json().access_token,
    ip,
  });
  expect(changed.statusCode, changed.body).toBe(200);
  return t.mail.waitFor(email, /changed/i, { after: before });
}

const preview = async (project: Project, body: Record<string, unknown>) => {
  const answer = await t.call('POST', `/api/v1/projects/${project.id}/settings/mail-preview`, { token: developer.token, body });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { from_name: string; to: string; subject: string; text: string; html: string };
};

const withoutToken = (value: string) => value.replace(/token=[\w-]+/g, 'token=sample-token');

describe("a project's end-user mails", () => {
  it('are in the name of a project called "Shop": From, subject, body and sign-off; AuthPlatform only in the "Secured by" line', async () => {
    const shop = await createProject({ accent_color: '#e8590c', logo_url: 'https://cdn.shop.example/logo.png' });
    const email = uniqueEmail('shopper');
    for (const kind of MAIL_TEMPLATE_KINDS) {
      const mail = await sendKind(shop, kind, email);
      expect(mail.from, kind).toMatch(/^"?Shop"? <no-reply@localhost>$/);
      expect(mail.subject, kind).toContain('Shop');
      expect(mail.text, kind).toContain('— Shop');
      expect(mail.text.replace(/Secured by AuthPlatform/g, ''), kind).not.toContain('AuthPlatform');
      expect(mail.html.replace(/Secured by AuthPlatform/g, ''), kind).not.toContain('AuthPlatform');
      expect(mail.text, kind).toContain('Secured by AuthPlatform');
      expect(mail.html, kind).toContain('border-bottom:3px solid #e8590c');
      expect(mail.html, kind).toContain('<img src="https://cdn.shop.example/logo.png" alt="Shop"');
      if (kind === 'verification') {
        // The signup mail's first paragraph names the product; its link is the button.
        expect(mail.text).toContain(`Welcome to Shop! Please confirm ${email}`);
        expect(mail.html).toContain('>Verify email</a>');
      }
    }
  });

  it('name the project in the subject of the notices too (someone tried to sign up, a new sign-in)', async () => {
    const shop = await createProject({});
    const email = uniqueEmail('notices');
    const verification = await sendKind(shop, 'verification', email);
    expect((await api(shop, '/auth/verify-email', { token: new URL(verification.link!).searchParams.get('token') })).statusCode).toBe(200);
    const before = t.mail.messages.length;
    expect((await api(shop, '/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const notice = await t.mail.waitFor(email, /tried to sign up/i, { after: before });
    expect(notice.subject).toBe('Someone tried to sign up with your email – Shop');
    expect(notice.from).toContain('Shop');
    expect(notice.text.replace('Secured by AuthPlatform', '')).not.toContain('AuthPlatform');
  });

  it('may leave out the "Secured by" line, and then never name AuthPlatform', async () => {
    const shop = await createProject({});
    const settings = await t.call('PATCH', `/api/v1/projects/${shop.id}/settings`, { token: developer.token, body: { mail_secured_by: false } });
    expect(settings.json().mail_secured_by).toBe(false);
    const mail = await sendKind(shop, 'verification', uniqueEmail('no-secured-by'));
    expect(`${mail.from}${mail.subject}${mail.text}${mail.html}`).not.toContain('AuthPlatform');
  });

  it("follow a rename of the project at once (its settings' cached copy is dropped)", async () => {
    const shop = await createProject({});
    await sendKind(shop, 'verification', uniqueEmail('before-rename'));
    expect((await t.call('PATCH', `/api/v1/projects/${shop.id}`, { token: developer.token, body: { name: 'Corner Shop' } })).statusCode).toBe(200);
    const mail = await sendKind(shop, 'verification', uniqueEmail('after-rename'));
    expect(mail.subject).toBe('Verify your email address for Corner Shop');
    expect(mail.from).toContain('Corner Shop');
  });

  it("leave the platform's own developer mails in the platform's name", async () => {
    const email = uniqueEmail('developer-mail');
    const before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    expect(mail.subject).toBe('Verify your email address for AuthPlatform');
    expect(mail.text).toContain('— AuthPlatform');
    expect(mail.text).not.toContain('Secured by');
  });
});

describe('the preview', () => {
  const custom: Record<MailTemplateKind, { subject: string; text: string }> = {
    verification: { subject: 'Verify and welcome aboard {{product_name}}', text: 'Hi {{email}},\n\n{{link}}\n\nSee you soon.' },
    password_reset: { subject: 'Reset: a new password for {{product_name}}', text: 'Choose one here: {{link}}' },
    password_changed: { subject: '{{product_name}}: password changed', text: 'Not you? {{link}}' },
    magic_link: { subject: 'A sign-in link into {{product_name}}', text: 'Tap here: {{link}}' },
    email_code: { subject: '{{product_name}} sign-in code', text: 'Type {{code}} where you asked.' },
  };

  for (const [label, templates] of [
    ['built-in', null],
    ['custom', custom],
  ] as const) {
    it(`equals the mail sent, byte for byte apart from the token, for every kind (${label} templates)`, async () => {
      // Hosted sign-in in use: the links open the hosted pages (its website has no pages for them).
      const shop = await createProject({ website_url: 'https://shop.example', redirect_uris: ['https://shop.example/callback'] });
      if (templates) await t.call('PATCH', `/api/v1/projects/${shop.id}/settings`, { token: developer.token, body: { mail_templates: templates } });
      // The end user has the developer's address (another realm, another account): the preview is rendered for that address.
      for (const kind of MAIL_TEMPLATE_KINDS) {
        const sent = await sendKind(shop, kind, developer.email);
        const shown = await preview(shop, { kind });
        expect(shown.to).toBe(developer.email);
        expect(shown.from_name).toBe('Shop');
        // The preview shows a sample code where the e-mail code mail has its own.
        const sample = (value: string) => (kind === 'email_code' ? value.replace(/\b\d{6}\b/g, '123456') : value);
        expect(shown.subject, kind).toBe(sample(sent.subject));
        expect(shown.text, kind).toBe(sample(withoutToken(sent.text.trimEnd())));
        expect(shown.html, kind).toBe(sample(withoutToken(sent.html)));
        if (kind !== 'email_code') expect(shown.text).toContain(`http://app.test/hosted/${shop.key}/`);
      }
    });
  }

  it('of the built-in mail is the editor’s starting text, as shared/mail-templates.ts has it', async () => {
    const shop = await createProject({});
    for (const kind of MAIL_TEMPLATE_KINDS) {
      const builtIn = await preview(shop, { kind });
      const sameAsStarter = await preview(shop, { kind, template: BUILT_IN_MAIL_TEMPLATES[kind] });
      expect(sameAsStarter).toEqual(builtIn);
    }
  });

  it('"Send test mail" sends the previewed mail to the developer, a few a minute', async () => {
    const shop = await createProject({ website_url: 'https://shop.example' });
    const body = { kind: 'password_reset', mail_product_name: 'Shop Deluxe' };
    const shown = await preview(shop, body);
    const before = t.mail.messages.length;
    const sent = await t.call('POST', `/api/v1/projects/${shop.id}/settings/mail-test`, { token: developer.token, body });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(`Test mail sent to ${developer.email}`);
    const mail = await t.mail.waitFor(developer.email, /Shop Deluxe/, { after: before });
    expect(mail.subject).toBe(shown.subject);
    expect(mail.html).toBe(shown.html);
    expect(shown.text).toContain('https://shop.example/reset-password?token=sample-token');
    for (let i = 0; i < 4; i += 1) await t.call('POST', `/api/v1/projects/${shop.id}/settings/mail-test`, { token: developer.token, body });
    expect((await t.call('POST', `/api/v1/projects/${shop.id}/settings/mail-test`, { token: developer.token, body })).statusCode).toBe(429);
  });
});

describe('mail links', () => {
  it('open the hosted pages when hosted sign-in is configured or there is no website, the website otherwise', async () => {
    const cases: [Record<string, unknown>, (key: string) => string][] = [
      [{ website_url: 'https://shop.example' }, () => 'https://shop.example/verify-email?token='],
      [{ website_url: 'https://shop.example', redirect_uris: ['https://shop.example/callback'] }, (key) => `http://app.test/hosted/${key}/verify-email?token=`],
      [{}, (key) => `http://app.test/hosted/${key}/verify-email?token=`],
    ];
    for (const [fields, expected] of cases) {
      const shop = await createProject(fields);
      const mail = await sendKind(shop, 'verification', uniqueEmail('links'));
      expect(mail.link, JSON.stringify(fields)).toContain(expected(shop.key));
    }
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCESS_TOKEN_TTL_S, DEFAULT_REFRESH_TOKEN_TTL_S, PASSWORD_MIN_LENGTH } from '../../shared/constants.js';
import { VALIDATION } from '../../shared/messages.js';
import { SETTINGS_MESSAGES } from '../../shared/schemas/project-settings.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { TEST_REDIS_URL, redisAnswers, testKeyPrefix } from '../helpers/test-redis.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * Each project's own rules for its end users (project_settings), applied to its public API
 * (/public/api/v1 with X-API-Key) and its hosted pages (/hosted/{project_key}/api/v1). The platform
 * runs Turnstile here (against a stand-in verifier), so the hosted pages ask for the platform's
 * captcha until a project sets its own, and the public API never does.
 */
let verifier: Server;
let verifyUrl: string;
const verified: URLSearchParams[] = [];
const SECRETS = ['platform-secret', 'project-secret'];
beforeAll(async () => {
  verifier = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      verified.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: SECRETS.includes(form.get('secret') ?? '') && (form.get('response') ?? '').startsWith('good-') }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

let tokens = 0;
/** A captcha token the stand-in accepts (each works once). */
const goodToken = () => `good-${++tokens}`;
const VPN_ADDRESS = '3.80.12.34';
const SHORT_FOR_12 = 'Abcdefgh-12'; // 11 characters, fine for the platform's 8
const COMMON = 'Password123';

const platformEnv = () => ({ CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SITE_KEY: 'platform-site', CAPTCHA_SECRET: 'platform-secret', CAPTCHA_VERIFY_URL: verifyUrl });

interface Project {
  id: string;
  key: string;
  apiKey: string;
  owner: string;
}

async function createProject(t: TestApp, name = 'Shop'): Promise<Project> {
  const owner = (await t.signUpAndLogIn(uniqueEmail('owner'))).access_token;
  const project = (await t.call('POST', '/api/v1/projects', { token: owner, body: { name } })).json();
  const apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner, body: { name: 'backend' } })).json().secret;
  return { id: project.id, key: project.project_key, apiKey, owner };
}

function decodeJwt(token: string): { iat: number; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

function cookieOf(res: { cookies: Array<{ name: string; value: string; maxAge?: number }> }, name: string) {
  return res.cookies.find((cookie) => cookie.name === name);
}

describe('per-project settings on the public API and the hosted pages', () => {
  let t: TestApp;
  let p: Project;
  beforeAll(async () => {
    t = await createTestApp({ env: { CAPTCHA_VERIFY_URL: verifyUrl } });
    p = await createProject(t);
  });
  afterAll(() => t.close());

  /** The public API as the project's backend calls it (the end user's address in X-End-User-IP). */
  const publicCall = (path: string, body: unknown, ip = uniqueIp()) =>
    t.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': p.apiKey, 'x-end-user-ip': ip } });
  /** The hosted pages as a browser calls them (with a token for when the project asks for its captcha). */
  const hostedCall = (path: string, body: Record<string, unknown>, ip = uniqueIp()) =>
    t.call('POST', `/hosted/${p.key}/api/v1${path}`, { body: { captcha_token: goodToken(), ...body }, ip });
  const patch = (body: unknown, token = p.owner) => t.call('PATCH', `/api/v1/projects/${p.id}/settings`, { token, body });
  const settle = async (body: unknown) => {
    const res = await patch(body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  async function publicSignUp(email = uniqueEmail('end-user'), password = STRONG_PASSWORD) {
    const res = await publicCall('/auth/signup', { email, password });
    expect(res.statusCode, res.body).toBe(201);
    return email;
  }

  it('starts from the platform’s rules', async () => {
    const res = await t.call('GET', `/api/v1/projects/${p.id}/settings`, { token: p.owner });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      password_min_length: PASSWORD_MIN_LENGTH,
      password_check_breached: true,
      access_token_ttl_s: DEFAULT_ACCESS_TOKEN_TTL_S,
      refresh_token_ttl_s: DEFAULT_REFRESH_TOKEN_TTL_S,
      captcha_provider: 'platform',
      captcha_site_key: null,
      captcha_secret_set: false,
      vpn_policy: 'allow',
      allow_unverified_sign_in: true,
      mail_sender_name: null,
      mail_product_name: null,
      mail_accent_color: null,
      mail_templates: { verification: null, password_reset: null, password_changed: null },
      updated_at: null,
    });
  });

  it('refuses a password shorter than the project’s minimum, and may let common ones through', async () => {
    await settle({ password_min_length: 12, password_check_breached: false });
    for (const res of [
      await publicCall('/auth/signup', { email: uniqueEmail(), password: SHORT_FOR_12 }),
      await hostedCall('/auth/signup', { email: uniqueEmail(), password: SHORT_FOR_12 }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail: 'Password must be at least 12 characters' });
    }
    // Off: a common password of the right length is taken (the platform's accounts still refuse it).
    await publicSignUp(uniqueEmail(), `${COMMON}4`);
    const platform = await t.call('POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: COMMON } });
    expect(platform.json()).toEqual({ detail: VALIDATION.passwordTooCommon });
    // On again: refused on the public API too.
    await settle({ password_min_length: PASSWORD_MIN_LENGTH, password_check_breached: true });
    expect((await publicCall('/auth/signup', { email: uniqueEmail(), password: COMMON })).json()).toEqual({ detail: VALIDATION.passwordTooCommon });
    expect((await publicCall('/auth/signup', { email: uniqueEmail(), password: SHORT_FOR_12 })).statusCode).toBe(201);
  });

  it('issues tokens, sessions and hosted cookies with the project’s lifetimes', async () => {
    await settle({ access_token_ttl_s: 600, refresh_token_ttl_s: 3600 });
    const email = await publicSignUp();
    const login = await publicCall('/auth/login', { email, password: STRONG_PASSWORD });
    expect(login.json().expires_in).toBe(600);
    const claims = decodeJwt(login.json().access_token);
    expect(claims.exp - claims.iat).toBe(600);
    const refreshed = await publicCall('/auth/refresh', { refresh_token: login.json().refresh_token });
    expect(refreshed.json().expires_in).toBe(600);
    const session = await t.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select(['sessions.created_at', 'sessions.expires_at']).where('users.email', '=', email).executeTakeFirstOrThrow();
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBeGreaterThanOrEqual(3600_000 - 2000);
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBeLessThanOrEqual(3600_000 + 2000);

    const hosted = await hostedCall('/auth/login', { email, password: STRONG_PASSWORD });
    expect(hosted.statusCode, hosted.body).toBe(200);
    expect(cookieOf(hosted, 'hosted_access_token')?.maxAge).toBe(600);
    expect(cookieOf(hosted, 'hosted_refresh_token')?.maxAge).toBe(3600);
    expect(decodeJwt(cookieOf(hosted, 'hosted_access_token')!.value).exp - decodeJwt(cookieOf(hosted, 'hosted_access_token')!.value).iat).toBe(600);
    // The platform's own tokens keep the environment's lifetime.
    const developer = await t.signUpAndLogIn(uniqueEmail('developer'));
    expect(decodeJwt(developer.access_token).exp - decodeJwt(developer.access_token).iat).toBe(DEFAULT_ACCESS_TOKEN_TTL_S);
  });

  it('lets unverified end users in, or refuses them until they verify', async () => {
    const email = await publicSignUp();
    expect((await publicCall('/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    await settle({ allow_unverified_sign_in: false });
    for (const res of [await publicCall('/auth/login', { email, password: STRONG_PASSWORD }), await hostedCall('/auth/login', { email, password: STRONG_PASSWORD })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Please verify your email address before signing in' });
    }
    const attempt = await t.db.selectFrom('login_attempts').select('failure_reason').where('email', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(attempt.failure_reason).toBe('email_unverified');
    // A wrong password says nothing about verification.
    expect((await publicCall('/auth/login', { email, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
    // Once verified, in.
    const link = (await t.mail.waitFor(email, /verify/i)).link!;
    expect((await publicCall('/auth/verify-email', { token: new URL(link).searchParams.get('token') })).statusCode).toBe(200);
    expect((await publicCall('/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    await settle({ allow_unverified_sign_in: true });
  });

  it('blocks or allows sign-ins from VPN and hosting networks, per project', async () => {
    const email = await publicSignUp();
    expect((await publicCall('/auth/login', { email, password: STRONG_PASSWORD }, VPN_ADDRESS)).statusCode).toBe(200);
    await settle({ vpn_policy: 'block' });
    for (const res of [
      await publicCall('/auth/login', { email, password: STRONG_PASSWORD }, VPN_ADDRESS),
      await hostedCall('/auth/login', { email, password: STRONG_PASSWORD }, VPN_ADDRESS),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Sign-in from VPN, proxy or hosting networks is not allowed' });
    }
    expect((await publicCall('/auth/login', { email, password: STRONG_PASSWORD }, '79.192.20.30')).statusCode).toBe(200);
    await settle({ vpn_policy: 'allow' });
    expect((await publicCall('/auth/login', { email, password: STRONG_PASSWORD }, VPN_ADDRESS)).statusCode).toBe(200);
  });

  it('asks for the project’s own captcha on its public API and hosted pages, checked with its secret', async () => {
    const saved = await settle({ captcha_provider: 'turnstile', captcha_site_key: 'project-site', captcha_secret: 'project-secret' });
    expect(saved).toMatchObject({ captcha_provider: 'turnstile', captcha_site_key: 'project-site', captcha_secret_set: true });
    expect(JSON.stringify(saved)).not.toContain('project-secret');
    expect(JSON.stringify((await t.call('GET', `/api/v1/projects/${p.id}/settings`, { token: p.owner })).json())).not.toContain('project-secret');
    const stored = await t.db.selectFrom('project_settings').select('captcha_secret').where('project_id', '=', p.id).executeTakeFirstOrThrow();
    expect(stored.captcha_secret).not.toContain('project-secret');

    expect((await t.call('GET', `/hosted/${p.key}/api/v1/captcha/config`)).json()).toEqual({ enabled: true, provider: 'turnstile', site_key: 'project-site' });
    const email = uniqueEmail();
    for (const res of [await publicCall('/auth/signup', { email, password: STRONG_PASSWORD }), await publicCall('/auth/login', { email, password: STRONG_PASSWORD, captcha_token: 'bad' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Captcha verification failed' });
    }
    const ok = await publicCall('/auth/signup', { email, password: STRONG_PASSWORD, captcha_token: goodToken() });
    expect(ok.statusCode).toBe(201);
    expect(verified.at(-1)?.get('secret')).toBe('project-secret');
    expect((await hostedCall('/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect(verified.at(-1)?.get('secret')).toBe('project-secret');
    // The hosted pages' CSP lets any project's provider load.
    expect((await t.call('GET', `/hosted/${p.key}/sign-in`)).headers['content-security-policy']).toContain('https://hcaptcha.com');

    // A secret stays when only the site key changes; none again, and the public API asks nothing.
    expect((await settle({ captcha_site_key: 'project-site-2' })).captcha_secret_set).toBe(true);
    await settle({ captcha_provider: 'none' });
    expect((await publicCall('/auth/signup', { email: uniqueEmail(), password: STRONG_PASSWORD })).statusCode).toBe(201);
    await settle({ captcha_provider: 'platform' });
    expect((await publicCall('/auth/signup', { email: uniqueEmail(), password: STRONG_PASSWORD })).statusCode).toBe(201);
  });

  it('asks for the project’s captcha before mailing an e-mail code, on its public API and hosted pages (issue 30)', async () => {
    await settle({ sign_in_methods: { email_code: true }, captcha_provider: 'turnstile', captcha_site_key: 'project-site', captcha_secret: 'project-secret' });
    try {
      const email = uniqueEmail('code-captcha');
      const before = t.mail.messages.length;
      for (const res of [
        await publicCall('/auth/email-code', { email }),
        await publicCall('/auth/email-code', { email, captcha_token: 'bad' }),
        await t.call('POST', `/hosted/${p.key}/api/v1/auth/email-code`, { body: { email }, ip: uniqueIp() }),
      ]) {
        expect([res.statusCode, res.json()]).toEqual([400, { detail: 'Captcha verification failed' }]);
      }
      await t.mailSettled();
      expect(t.mail.messages.slice(before).filter((mail) => mail.to === email)).toEqual([]);

      const ok = await publicCall('/auth/email-code', { email, captcha_token: goodToken() });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(verified.at(-1)?.get('secret')).toBe('project-secret');
      await t.mail.waitFor(email, /sign-in code/, { after: before });
      expect((await hostedCall('/auth/email-code', { email })).statusCode).toBe(200);
    } finally {
      await settle({ sign_in_methods: { email_code: false }, captcha_provider: 'platform' });
    }
  });

  it('brands the verification, reset and notice mails of the project’s end users', async () => {
    await settle({ mail_sender_name: 'Shop Team', mail_product_name: 'Shop', mail_accent_color: '#AA3300' });
    const email = await publicSignUp();
    const verification = await t.mail.waitFor(email, /verify/i);
    expect(verification.from).toContain('Shop Team');
    expect(verification.text).toContain('— Shop');
    // AuthPlatform only in the small "Secured by" line a project may turn off.
    expect(verification.text.replace('Secured by AuthPlatform', '')).not.toContain('AuthPlatform');
    expect(verification.html).toContain('#aa3300');
    expect((await publicCall('/auth/forgot-password', { email })).statusCode).toBe(200);
    const reset = await t.mail.waitFor(email, /reset/i);
    expect(reset.text).toContain('— Shop');
    // The platform's own mails keep its name.
    const developer = uniqueEmail('developer');
    await t.call('POST', '/api/v1/auth/signup', { body: { email: developer, password: STRONG_PASSWORD } });
    const own = await t.mail.waitFor(developer, /verify/i);
    expect(own.text).toContain('— AuthPlatform');
    expect(own.from).not.toContain('Shop Team');
  });

  it('brands the security notices too: two factors turned on, an e-mail change asked for', async () => {
    await settle({ mail_sender_name: 'Shop Team', mail_product_name: 'Shop', mail_accent_color: '#AA3300' });
    const email = await publicSignUp();
    // Two factors are for a verified address only.
    const link = new URL((await t.mail.waitFor(email, /verify/i)).link!);
    expect((await publicCall('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);
    const login = await publicCall('/auth/login', { email, password: STRONG_PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    const signedIn = { 'x-api-key': p.apiKey, authorization: `Bearer ${login.json().access_token}` };
    const { secret } = (await t.call('POST', '/public/api/v1/auth/mfa/totp/setup', { headers: signedIn })).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await t.call('POST', '/public/api/v1/auth/mfa/totp/confirm', { headers: signedIn, body: { code } })).statusCode).toBe(200);
    const twoFactor = await t.mail.waitFor(email, /two-factor authentication is on/i);
    expect(twoFactor.from).toContain('Shop Team');
    expect(twoFactor.text).toContain('— Shop');
    expect(twoFactor.html).toContain('#aa3300');

    const newEmail = uniqueEmail('moved');
    const asked = await t.call('POST', '/public/api/v1/auth/change-email', { headers: signedIn, body: { new_email: newEmail, password: STRONG_PASSWORD } });
    expect(asked.statusCode, asked.body).toBe(200);
    for (const mail of [await t.mail.waitFor(newEmail, /confirm your new email/i), await t.mail.waitFor(email, /email change requested/i)]) {
      expect(mail.from).toContain('Shop Team');
      expect(mail.text).toContain('— Shop');
      expect(mail.text.replace('Secured by AuthPlatform', '')).not.toContain('AuthPlatform');
    }
  });

  it('sends the project’s own template, its values escaped in HTML, and previews it', async () => {
    const template = { subject: 'Reset your {{product_name}} password', text: 'Hello {{email}},\n\nOpen {{link}} <b>now</b>.\n\nThe {{product_name}} team' };
    await settle({ mail_templates: { password_reset: template } });
    const email = await publicSignUp();
    await publicCall('/auth/forgot-password', { email });
    const mail = await t.mail.waitFor(email, /Reset your Shop password/);
    expect(mail.text).toContain(`Hello ${email},`);
    expect(mail.link).toMatch(/\/reset-password\?token=/);
    expect(mail.html).toContain('&lt;b&gt;now&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>now');
    expect(mail.html).toContain(`<a href="${mail.link!.replace(/&/g, '&amp;')}"`);

    const preview = await t.call('POST', `/api/v1/projects/${p.id}/settings/mail-preview`, {
      token: p.owner,
      body: { kind: 'verification', template: { subject: 'Welcome to {{product_name}}', text: 'Confirm: {{link}}' }, mail_product_name: 'Acme & Co' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    // Rendered for the developer's own address, exactly as sent (tests/api/project-mails.test.ts).
    expect(preview.json()).toMatchObject({ from_name: 'Shop Team', subject: 'Welcome to Acme & Co' });
    expect(preview.json().text).toContain(`/hosted/${p.key}/verify-email?token=sample-token`);
    expect(preview.json().html).toContain('Welcome to Acme &amp; Co');
    expect(preview.json().html).not.toContain('Acme & Co');
    // Without a template of its own, the built-in mail in the brand.
    const builtIn = (await t.call('POST', `/api/v1/projects/${p.id}/settings/mail-preview`, { token: p.owner, body: { kind: 'password_changed' } })).json();
    expect(builtIn.subject).toBe('Your Shop password was changed');
    expect(builtIn.text).toContain('— Shop');
    // Back to the built-in reset mail.
    expect((await settle({ mail_templates: { password_reset: null } })).mail_templates.password_reset).toBeNull();
  });

  it('answers broken settings with 422 {detail} and changes nothing', async () => {
    for (const [body, detail] of [
      [{ password_min_length: 5 }, SETTINGS_MESSAGES.passwordMinLength],
      [{ password_min_length: 129 }, SETTINGS_MESSAGES.passwordMinLength],
      [{ access_token_ttl_s: 10 }, SETTINGS_MESSAGES.accessTokenTtl],
      [{ access_token_ttl_s: 3600, refresh_token_ttl_s: 600 }, SETTINGS_MESSAGES.refreshShorterThanAccess],
      [{ captcha_provider: 'hcaptcha', captcha_site_key: 'k' }, SETTINGS_MESSAGES.captchaKeysRequired],
      [{ captcha_provider: 'friendly' }, 'captcha_provider must be one of platform, none, turnstile, hcaptcha, recaptcha'],
      [{ vpn_policy: 'maybe' }, 'vpn_policy must be block or allow'],
      [{ mail_accent_color: 'red' }, 'The accent colour must be a colour like #3b5bdb'],
      [{ mail_templates: { verification: { subject: 'Hi {{name}}', text: '{{link}}' } } }, SETTINGS_MESSAGES.unknownPlaceholder],
      [{ mail_templates: { verification: { subject: 'Hi', text: 'no link here' } } }, SETTINGS_MESSAGES.linkRequired],
    ] as const) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ detail });
    }
    const preview = await t.call('POST', `/api/v1/projects/${p.id}/settings/mail-preview`, { token: p.owner, body: { kind: 'welcome' } });
    expect(preview.statusCode).toBe(422);
  });

  it('lets a viewer read but not change or preview (REST and tRPC), and records each change in the audit log', async () => {
    const viewerEmail = uniqueEmail('viewer');
    const viewer = await t.signUpAndLogIn(viewerEmail);
    await t.db.insertInto('project_members').values({ project_id: p.id, user_id: viewer.user.id, role: 'viewer', created_at: new Date().toISOString() }).execute();
    expect((await t.call('GET', `/api/v1/projects/${p.id}/settings`, { token: viewer.access_token })).statusCode).toBe(200);
    expect((await patch({ password_min_length: 10 }, viewer.access_token)).statusCode).toBe(403);
    expect((await t.call('POST', `/api/v1/projects/${p.id}/settings/mail-preview`, { token: viewer.access_token, body: { kind: 'verification' } })).statusCode).toBe(403);
    const tab = t.trpc();
    await tab.api.auth.logIn.mutate({ email: viewerEmail, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    expect((await tab.api.projectSettings.get.query({ id: p.id })).project_id).toBe(p.id);
    expect(await trpcFailure(tab.api.projectSettings.update.mutate({ id: p.id, password_min_length: 10 }))).toMatchObject({ status: 403 });
    // A stranger's project answers like a missing one.
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    expect((await t.call('GET', `/api/v1/projects/${p.id}/settings`, { token: stranger.access_token })).statusCode).toBe(404);

    await settle({ password_min_length: 14, captcha_provider: 'recaptcha', captcha_site_key: 'rk', captcha_secret: 'very-secret-value' });
    const entry = await t.db.selectFrom('audit_log').selectAll().where('project_id', '=', p.id).where('action', '=', 'settings.updated').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.after!)).toMatchObject({ password_min_length: 14, captcha_provider: 'recaptcha', captcha_secret_set: true, captcha_secret: '(changed)' });
    expect(JSON.parse(entry.before!)).toMatchObject({ password_min_length: PASSWORD_MIN_LENGTH, captcha_provider: 'platform' });
    expect(`${entry.before}${entry.after}`).not.toContain('very-secret-value');
    expect(entry.target_id).toBe(p.id);
    await settle({ password_min_length: PASSWORD_MIN_LENGTH, captcha_provider: 'platform' });
  });

  it('deletes a project’s settings with it', async () => {
    const other = await createProject(t, 'Gone');
    await t.call('PATCH', `/api/v1/projects/${other.id}/settings`, { token: other.owner, body: { password_min_length: 20 } });
    expect((await t.call('DELETE', `/api/v1/projects/${other.id}`, { token: other.owner })).statusCode).toBe(200);
    expect(await t.db.selectFrom('project_settings').select('project_id').where('project_id', '=', other.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('the platform’s captcha', () => {
  let setup: TestApp;
  let t: TestApp;
  let p: Project;
  beforeAll(async () => {
    // The developer and project are made on an instance without a captcha; the checks run on one with the platform's.
    setup = await createTestApp();
    p = await createProject(setup);
    t = await createTestApp({ env: platformEnv(), sameDatabaseAs: setup });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('is never asked of a developer’s backend on the public API, and stays on the hosted pages until the project sets its own', async () => {
    const headers = { 'x-api-key': p.apiKey, 'x-end-user-ip': uniqueIp() };
    const email = uniqueEmail('end-user');
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    expect((await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(200);
    expect((await t.call('POST', '/public/api/v1/auth/forgot-password', { headers, body: { email } })).statusCode).toBe(200);
    // The platform's own sign-up still asks for it.
    expect((await t.call('POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: STRONG_PASSWORD } })).statusCode).toBe(400);

    expect((await t.call('GET', `/hosted/${p.key}/api/v1/captcha/config`)).json()).toEqual({ enabled: true, provider: 'turnstile', site_key: 'platform-site' });
    const refused = await t.call('POST', `/hosted/${p.key}/api/v1/auth/login`, { body: { email, password: STRONG_PASSWORD, captcha_token: 'bad' }, ip: uniqueIp() });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: 'Captcha verification failed' });
    const accepted = await t.call('POST', `/hosted/${p.key}/api/v1/auth/login`, { body: { email, password: STRONG_PASSWORD, captcha_token: goodToken() }, ip: uniqueIp() });
    expect(accepted.statusCode).toBe(200);
    expect(verified.at(-1)?.get('secret')).toBe('platform-secret');
  });

  it('is not shown on the hosted pages of a project that chose no captcha, and comes back when it follows the platform again', async () => {
    const choose = async (captcha_provider: string) => {
      const res = await t.call('PATCH', `/api/v1/projects/${p.id}/settings`, { token: p.owner, body: { captcha_provider } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().captcha_provider).toBe(captcha_provider);
    };
    const hostedConfig = async () => (await t.call('GET', `/hosted/${p.key}/api/v1/captcha/config`)).json();
    const email = uniqueEmail('no-captcha');
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers: { 'x-api-key': p.apiKey }, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);

    await choose('none');
    expect(await hostedConfig()).toEqual({ enabled: false, provider: 'none', site_key: '' });
    const answered = await t.call('POST', `/hosted/${p.key}/api/v1/auth/login`, { body: { email, password: STRONG_PASSWORD, captcha_token: '' }, ip: uniqueIp() });
    expect(answered.statusCode, answered.body).toBe(200);

    await choose('platform');
    expect(await hostedConfig()).toEqual({ enabled: true, provider: 'turnstile', site_key: 'platform-site' });
    expect((await t.call('POST', `/hosted/${p.key}/api/v1/auth/login`, { body: { email, password: STRONG_PASSWORD, captcha_token: '' }, ip: uniqueIp() })).statusCode).toBe(400);
  });
});

const reachable = await redisAnswers();
const keys = testKeyPrefix();

describe.runIf(reachable)('a settings change on one instance applies on the other at once (Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keys.prefix };
    a = await createTestApp({ env });
    b = await createTestApp({ env, sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await keys.cleanUp();
  });

  it('b, its copy warm, refuses the short password right after a changed the minimum', async () => {
    const p = await createProject(a);
    const headers = { 'x-api-key': p.apiKey };
    expect((await b.call('POST', '/public/api/v1/auth/signup', { headers, body: { email: uniqueEmail(), password: SHORT_FOR_12 }, ip: uniqueIp() })).statusCode).toBe(201);
    expect((await a.call('PATCH', `/api/v1/projects/${p.id}/settings`, { token: p.owner, body: { password_min_length: 12 } })).statusCode).toBe(200);
    const res = await b.call('POST', '/public/api/v1/auth/signup', { headers, body: { email: uniqueEmail(), password: SHORT_FOR_12 }, ip: uniqueIp() });
    expect(res.statusCode).toBe(422);
  });
});

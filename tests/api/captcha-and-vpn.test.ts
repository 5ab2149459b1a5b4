import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/** A stand-in for Cloudflare's siteverify: accepts tokens starting with 'good-' for the right secret. */
let verifier: Server;
let verifyUrl: string;
const received: URLSearchParams[] = [];
beforeAll(async () => {
  verifier = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      const success = form.get('secret') === 'test-secret' && (form.get('response') ?? '').startsWith('good-');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

describe('captcha (turnstile against a fake verifier)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SITE_KEY: 'site-key-1', CAPTCHA_SECRET: 'test-secret', CAPTCHA_VERIFY_URL: verifyUrl } });
  });
  afterAll(() => t.close());

  it('reports the provider and its site key', async () => {
    expect((await t.call('GET', '/api/v1/captcha/config')).json()).toEqual({ enabled: true, provider: 'turnstile', site_key: 'site-key-1' });
    const csp = (await t.call('GET', '/health')).headers['content-security-policy'] as string;
    expect(csp).toContain('script-src \'self\' https://challenges.cloudflare.com');
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    expect((await t.call('GET', '/api/v1/captcha/challenge')).statusCode).toBe(404);
  });

  it('signup, login, forgot-password and the sign-in code without a valid token answer 400 Captcha verification failed', async () => {
    const email = uniqueEmail();
    for (const [url, body] of [
      ['/api/v1/auth/signup', { email, password: STRONG_PASSWORD }],
      ['/api/v1/auth/signup', { email, password: STRONG_PASSWORD, captcha_token: 'bad-token' }],
      ['/api/v1/auth/login', { email, password: STRONG_PASSWORD, captcha_token: '' }],
      ['/api/v1/auth/forgot-password', { email, captcha_token: 'bad' }],
      // A developer's sign-in code (issue 30) is asked for like a password sign-in.
      ['/api/v1/auth/email-code', { email }],
      ['/api/v1/auth/email-code', { email, captcha_token: 'bad' }],
    ] as const) {
      const res = await t.call('POST', url, { body, ip: uniqueIp() });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ detail: 'Captcha verification failed' });
    }
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(attempt.failure_reason).toBe('captcha_failed');
  });

  it('a valid token works once and is checked server-side with the secret and the client address', async () => {
    const email = uniqueEmail();
    const ip = uniqueIp();
    const ok = await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: 'good-1' }, ip });
    expect(ok.statusCode).toBe(201);
    expect(received.at(-1)).toMatchObject(new URLSearchParams({ secret: 'test-secret', response: 'good-1', remoteip: ip }));
    const replay = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, captcha_token: 'good-1' }, ip });
    expect(replay.statusCode).toBe(400);
    const fresh = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, captcha_token: 'good-2' }, ip });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('captcha (ALTCHA, self-hosted)', () => {
  it('serves signed challenges without a third party', async () => {
    const t = await createTestApp({ env: { CAPTCHA_PROVIDER: 'altcha' } });
    try {
      expect((await t.call('GET', '/api/v1/captcha/config')).json()).toMatchObject({ enabled: true, provider: 'altcha' });
      const challenge = await t.call('GET', '/api/v1/captcha/challenge');
      expect(challenge.statusCode).toBe(200);
      expect(challenge.headers['cache-control']).toBe('no-store');
      expect(challenge.json()).toHaveProperty('signature');
      const res = await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'x', captcha_token: 'forged' } });
      expect(res.json()).toEqual({ detail: 'Captcha verification failed' });
    } finally {
      await t.close();
    }
  });
});

describe('IP intelligence on login attempts, and BLOCK_VPN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BLOCK_VPN: 'on' } });
  });
  afterAll(() => t.close());

  it('records country and network flags from the shipped data; a home ISP signs in', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { ip: '73.15.20.30' });
    const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ success: 1, country_code: 'US', is_vpn: 0, is_proxy: 0 });
  });

  it('refuses a hosting-network address with 403 and counts it in blocked_vpn_attempts', async () => {
    const admin = await t.signUpAndLogIn('admin-vpn@example.com', { ip: '79.192.20.30' });
    await t.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { ip: '90.12.34.56' });
    const res = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: '3.80.12.34' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Sign-in from VPN, proxy or hosting networks is not allowed' });
    const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ failure_reason: 'vpn_blocked', is_vpn: 1, country_code: 'US', ip_address: '3.80.12.34' });
    const stats = (await t.call('GET', '/api/v1/admin/stats', { token: admin.access_token })).json();
    expect(stats.blocked_vpn_attempts).toBe(1);
  });

  it('forwarding headers we did not ask for mark a proxy (TRUST_PROXY off) and are refused under BLOCK_VPN', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { ip: '86.128.20.30' });
    const res = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: '86.128.20.30', headers: { 'x-forwarded-for': '1.2.3.4' } });
    expect(res.statusCode).toBe(403);
    const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_proxy: 1, ip_address: '86.128.20.30' });
  });

  it('private and loopback addresses are Unknown, never an error', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { ip: '127.0.0.1' });
    const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ success: 1, country_code: null, is_vpn: 0 });
  });
});

describe('TRUST_PROXY', () => {
  it('takes the client address from X-Forwarded-For only when on', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: 'on' } });
    try {
      const email = uniqueEmail();
      await t.signUpAndLogIn(email, { ip: '127.0.0.1' });
      await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip: '127.0.0.1', headers: { 'x-forwarded-for': '79.192.20.30' } });
      const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ ip_address: '79.192.20.30', country_code: 'DE', is_proxy: 0 });
    } finally {
      await t.close();
    }
  });
});

describe("passwordless sign-in under a project's rules (issue 30)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('an e-mail code sign-in from a hosting network is refused when the project blocks VPNs, and recorded with its method', async () => {
    const owner = await t.signUpAndLogIn(uniqueEmail('vpn-dev'), { ip: '73.15.20.31' });
    const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Shop' } })).json();
    const apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json().secret;
    const settings = await t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: owner.access_token, body: { sign_in_methods: { email_code: true }, vpn_policy: 'block' } });
    expect(settings.statusCode, settings.body).toBe(200);
    const api = (path: string, body: unknown, endUserIp: string) => t.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': apiKey, 'x-end-user-ip': endUserIp } });

    const email = uniqueEmail('vpn-code');
    const before = t.mail.messages.length;
    expect((await api('/auth/email-code', { email }, '73.15.20.32')).statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec((await t.mail.waitFor(email, /sign-in code/, { after: before })).text)![1]!;
    const refused = await api('/auth/email-code/verify', { email, code }, '3.80.12.34');
    expect([refused.statusCode, refused.json()]).toEqual([403, { detail: 'Sign-in from VPN, proxy or hosting networks is not allowed' }]);
    const row = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ failure_reason: 'vpn_blocked', method: 'email_code', is_vpn: 1 });
    // From a home network the same code still signs in.
    expect((await api('/auth/email-code/verify', { email, code }, '73.15.20.33')).statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

let t: TestApp;
let admin: { access_token: string };
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: 'abuse-admin@example.com' } });
  admin = await t.signUpAndLogIn('abuse-admin@example.com');
});
afterAll(() => t.close());

async function developerWithKey(tag: string) {
  const email = uniqueEmail(tag);
  const dev = await t.signUpAndLogIn(email);
  const project = (await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: tag, website_url: 'https://app.example' } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json();
  return { dev, project, secret: key.secret as string };
}
const pub = (secret: string, url: string, body: unknown, ip = uniqueIp()) =>
  t.call('POST', `/public/api/v1${url}`, { body, headers: { 'x-api-key': secret, 'x-end-user-ip': ip } });

describe('API keys of a deactivated developer', () => {
  it('stop working (403) until the developer is reactivated', async () => {
    const { dev, secret } = await developerWithKey('deactivated');
    expect((await pub(secret, '/auth/forgot-password', { email: uniqueEmail() })).statusCode).toBe(200);
    const toggle = () => t.call('PATCH', `/api/v1/admin/users/${dev.user.id}/toggle-active`, { token: admin.access_token });
    expect((await toggle()).json().is_active).toBe(false);
    const refused = await pub(secret, '/auth/forgot-password', { email: uniqueEmail() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: "This project is unavailable: its owner's account is deactivated" });
    expect((await t.call('GET', '/public/api/v1/profile', { headers: { 'x-api-key': secret } })).statusCode).toBe(403);
    expect((await toggle()).json().is_active).toBe(true);
    expect((await pub(secret, '/auth/forgot-password', { email: uniqueEmail() })).statusCode).toBe(200);
  });
});

describe('mail cannot be used as a weapon', () => {
  it('one address gets at most 5 reset mails an hour, however many realms and callers ask; the answers do not change', async () => {
    const victim = uniqueEmail('bombed');
    await t.signUpAndLogIn(victim);
    const realms = [null, ...(await Promise.all(['bomb-a', 'bomb-b', 'bomb-c'].map(developerWithKey))).map((d) => d.secret)];
    for (const secret of realms) if (secret) expect((await pub(secret, '/auth/signup', { email: victim, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const before = t.mail.messages.length;
    for (const secret of realms) {
      // Two requests a realm stay under each realm's own per-account budget.
      for (let i = 0; i < 2; i++) {
        const res = secret
          ? await pub(secret, '/auth/forgot-password', { email: victim })
          : await t.call('POST', '/api/v1/auth/forgot-password', { body: { email: victim }, ip: uniqueIp() });
        expect(res.statusCode).toBe(200);
      }
    }
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((m) => m.to === victim && /reset/i.test(m.subject))).toHaveLength(5);
  });

  it('the cap is per address across realms: projects cannot multiply it', async () => {
    const victim = uniqueEmail('across');
    const a = await developerWithKey('realm-a');
    const b = await developerWithKey('realm-b');
    const before = t.mail.messages.length;
    for (const secret of [a.secret, b.secret, a.secret, b.secret]) {
      for (let i = 0; i < 2; i++) expect((await pub(secret, '/auth/signup', { email: victim, password: STRONG_PASSWORD })).statusCode).toBe(201);
    }
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((m) => m.to === victim && /verify/i.test(m.subject))).toHaveLength(5);
  });

  it('each project has its own quota on public sign-ups, whatever X-End-User-IP says', async () => {
    const quota = await createTestApp({ limits: { projectSignups: { points: 3, durationS: 60 } } });
    try {
      const dev = await quota.signUpAndLogIn(uniqueEmail('quota'));
      const project = (await quota.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'q' } })).json();
      const { secret } = (await quota.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await quota.call('POST', '/public/api/v1/auth/signup', { body: { email: uniqueEmail(), password: STRONG_PASSWORD }, headers: { 'x-api-key': secret, 'x-end-user-ip': uniqueIp() } })).statusCode,
        );
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      // The platform's own sign-up is not the project's quota.
      expect((await quota.call('POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(201);
    } finally {
      await quota.close();
    }
  });

  it("one address's flood spends its own budget first, never its project's: the project's other end users still get in", async () => {
    const quota = await createTestApp({
      limits: {
        projectSignups: { points: 5, durationS: 60 },
        signupPerIp: { points: 2, durationS: 60 },
        projectLogins: { points: 5, durationS: 60 },
        loginPerIp: { points: 2, durationS: 60 },
        projectPasswordResets: { points: 5, durationS: 60 },
        forgotPerIp: { points: 2, durationS: 60 },
        projectVerificationResends: { points: 5, durationS: 60 },
        resendPerIp: { points: 2, durationS: 60 },
      },
    });
    try {
      const dev = await quota.signUpAndLogIn(uniqueEmail('flood-order'));
      const project = (await quota.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'q' } })).json();
      const { secret } = (await quota.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json();
      const call = (path: string, body: unknown, ip: string) => quota.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': secret, 'x-end-user-ip': ip } });
      const calls: Array<[string, (i: number) => unknown]> = [
        ['/auth/signup', (i) => ({ email: uniqueEmail(`flood-${i}`), password: STRONG_PASSWORD })],
        ['/auth/login', () => ({ email: 'nobody@example.com', password: 'Wrong-Pass-1' })],
        ['/auth/forgot-password', () => ({ email: 'nobody@example.com' })],
        ['/auth/resend-verification', () => ({ email: 'nobody@example.com' })],
      ];
      for (const [path, body] of calls) {
        const flooder = uniqueIp();
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) statuses.push((await call(path, body(i), flooder)).statusCode);
        expect(statuses.filter((status) => status === 429), path).toHaveLength(8);
        // Another end user of the project: the flood spent only the flooder's network's budget.
        expect((await call(path, body(99), uniqueIp())).statusCode, path).not.toBe(429);
      }
    } finally {
      await quota.close();
    }
  });

  it('refresh limits are kept per project: one project exhausting them leaves another untouched', async () => {
    const limited = await createTestApp({ limits: { refreshPerIp: { points: 2, durationS: 60 } } });
    try {
      const dev = await limited.signUpAndLogIn(uniqueEmail('refresh-scope'));
      const keys: string[] = [];
      for (const name of ['one', 'two']) {
        const project = (await limited.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name } })).json();
        keys.push((await limited.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json().secret);
      }
      const refresh = (secret: string) =>
        limited.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: 'unknown' }, headers: { 'x-api-key': secret, 'x-end-user-ip': '203.0.113.5' } });
      expect([(await refresh(keys[0]!)).statusCode, (await refresh(keys[0]!)).statusCode, (await refresh(keys[0]!)).statusCode]).toEqual([401, 401, 429]);
      expect((await refresh(keys[1]!)).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

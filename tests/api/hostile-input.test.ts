import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../server/openapi/document.js';
import { REST_ROUTES } from '../../server/routes.js';
import { createTestApp, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

const ADMIN = 'hostile-admin@example.com';
let t: TestApp;
let adminToken: string;
let apiKey: string;
let projectId: string;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off', ADMIN_EMAILS: ADMIN } });
  adminToken = (await t.signUpAndLogIn(ADMIN)).access_token;
  projectId = (await t.call('POST', '/api/v1/projects', { token: adminToken, body: { name: 'Target' } })).json().id;
  apiKey = (await t.call('POST', `/api/v1/projects/${projectId}/api-keys`, { token: adminToken, body: { name: 'k' } })).json().secret;
});
afterAll(() => t.close());

const REST_PATHS: Array<['POST' | 'PATCH' | 'GET', string]> = [
  ['POST', '/api/v1/auth/signup'],
  ['POST', '/api/v1/auth/login'],
  ['POST', '/api/v1/auth/refresh'],
  ['POST', '/api/v1/auth/logout'],
  ['POST', '/api/v1/auth/verify-email'],
  ['POST', '/api/v1/auth/resend-verification'],
  ['POST', '/api/v1/auth/forgot-password'],
  ['POST', '/api/v1/auth/reset-password'],
  ['POST', '/api/v1/auth/change-password'],
  ['PATCH', '/api/v1/auth/profile'],
  ['GET', '/api/v1/auth/me'],
  ['GET', '/api/v1/captcha/config'],
];

const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('__proto__', 'constructor', "' OR 1=1 --", '<script>alert(1)</script>', '\u0000', 'a@b.co', 'Correct-Horse-42', '../../etc/passwd'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);
const fieldName = fc.constantFrom('email', 'password', 'token', 'new_password', 'refresh_token', 'first_name', 'last_name', 'website_url', 'captcha_token', 'device_fingerprint', 'current_password', '__proto__');
const hostileBody = fc.oneof(
  fc.dictionary(fieldName, hostileValue, { maxKeys: 6 }),
  hostileValue.map((v) => JSON.stringify(v)),
  fc.string().map((s) => `{"email": ${s}`),
);

describe('hostile bodies', () => {
  it('never answer 500 and never crash the server', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...REST_PATHS), hostileBody, fc.constantFrom('application/json', 'application/json; charset=utf-8'), async ([method, url], body, type) => {
        const res = await t.call(method, url, {
          body: method === 'GET' ? undefined : body,
          headers: method === 'GET' ? { authorization: `Bearer ${typeof body === 'string' ? body.slice(0, 100).replace(/[^\x21-\x7e]/g, '') : 'x'}` } : { 'content-type': type },
          ip: uniqueIp(),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
        const parsed = res.json();
        if (res.statusCode >= 400) expect(typeof parsed.detail).toBe('string');
      }),
      { numRuns: 400 },
    );
    expect((await t.call('GET', '/health')).statusCode).toBe(200);
  });

  it('never answer 500 on any documented REST operation, signed in as an admin with a project key', async () => {
    const pathValue = fc.oneof(fc.constant('PROJECT'), fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom('..', '%00', "1' OR '1'='1", 'x'.repeat(100)));
    const operation = fc.constantFrom(...REST_ROUTES.filter((route) => !route.url.includes('openapi')));
    await fc.assert(
      fc.asyncProperty(operation, hostileBody, pathValue, fc.dictionary(fc.constantFrom('page', 'per_page', 'days'), fc.string(), { maxKeys: 3 }), async (route, body, value, query) => {
        const path = openApiPath(route.url).replace(/\{\w+\}/g, () => encodeURIComponent(value === 'PROJECT' ? projectId : value));
        const url = `${path}?${new URLSearchParams(query).toString()}`;
        const method = route.method;
        const res = await t.call(method, url, {
          body: method === 'GET' || method === 'DELETE' ? undefined : body,
          token: adminToken,
          headers: { 'x-api-key': apiKey, 'x-end-user-ip': typeof body === 'string' ? body.slice(0, 40).replace(/[^\x21-\x7e]/g, '') || '1.2.3.4' : '1.2.3.4' },
          ip: uniqueIp(),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 500 },
    );
    expect((await t.call('GET', '/health')).statusCode).toBe(200);
  });

  it('never answer 500 on tRPC either', async () => {
    const procedures = ['auth.signUp', 'auth.logIn', 'auth.refresh', 'auth.logOut', 'auth.verifyEmail', 'auth.resendVerification', 'auth.forgotPassword', 'auth.resetPassword', 'auth.changePassword', 'profile.update'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...procedures), hostileBody, async (procedure, body) => {
        const res = await t.call('POST', `/trpc/${procedure}`, { body, ip: uniqueIp() });
        expect(res.statusCode, `${procedure} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});

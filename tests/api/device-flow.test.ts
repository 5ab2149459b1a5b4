import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../server/lib/crypto.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { freePort } from '../helpers/tcp-probe.js';

/**
 * The device authorization grant (RFC 8628) of each project's OpenID Connect provider: a CLI asks
 * for codes and polls the token endpoint, the user types the code on the hosted device page's calls
 * (signed in on the hosted pages) and approves or denies. Time is the test's clock, never a wait.
 */

const clock = { offsetS: 0, now: () => new Date(Date.now() + clock.offsetS * 1000) };
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const ENTRIES_PER_IP = 5;
const WRONG_PER_PROJECT = 8;

let t: TestApp;
let appUrl: string;
let dev: { access_token: string };
let shop: { id: string; key: string; issuer: string };

/** A browser on the hosted pages: keeps its cookies, from an address of its own. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly ip = uniqueIp()) {}

  async post(path: string, body: unknown) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': this.ip };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${appUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  }
}

/** An end user of the project, signed in on its hosted pages in a browser. */
async function signedInBrowser(projectKey = shop.key): Promise<{ browser: Browser; userId: string }> {
  const email = uniqueEmail('viewer');
  const browser = new Browser();
  const before = t.mail.messages.length;
  expect((await browser.post(`/hosted/${projectKey}/api/v1/auth/signup`, { email, password: STRONG_PASSWORD, first_name: 'Tv', last_name: 'Owner' })).status).toBe(201);
  const mail = await t.mail.waitFor(email, /verify/i, { after: before });
  expect((await browser.post(`/hosted/${projectKey}/api/v1/auth/verify-email`, { token: new URL(mail.link!).searchParams.get('token') })).status).toBe(200);
  const login = await browser.post(`/hosted/${projectKey}/api/v1/auth/login`, { email, password: STRONG_PASSWORD });
  expect(login.status).toBe(200);
  return { browser, userId: (login.body.user as { id: string }).id };
}

async function form(path: string, values: Record<string, string>, ip: string) {
  const response = await fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, 'user-agent': 'tv-cli/1.0' },
    body: new URLSearchParams(values),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A device (a CLI) of its own address: asks for codes, then polls. */
function device(projectKey = shop.key) {
  const ip = uniqueIp();
  let deviceCode = '';
  return {
    async start(scope = 'openid email offline_access') {
      const answer = await form(`/projects/${projectKey}/oauth/device_authorization`, { client_id: projectKey, scope }, ip);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      deviceCode = answer.body.device_code as string;
      return answer.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };
    },
    poll: () => form(`/projects/${projectKey}/oauth/token`, { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: projectKey }, ip),
  };
}

const wait = (seconds: number) => {
  clock.offsetS += seconds;
};

beforeAll(async () => {
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    clock,
    env: { APP_URL: appUrl, TRUST_PROXY: '127.0.0.1' },
    limits: { deviceCodeEntriesPerIp: { points: ENTRIES_PER_IP, durationS: 900 }, wrongDeviceCodesPerProject: { points: WRONG_PER_PROJECT, durationS: 3600 } },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  dev = await t.signUpAndLogIn(uniqueEmail('dev'));
  const created = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Shop TV' } });
  shop = { id: created.json().id, key: created.json().project_key, issuer: created.json().issuer };
});
afterAll(() => t.close());

describe('device authorization endpoint', () => {
  it('is in discovery, and answers codes stored only as digests', async () => {
    const discovery = await (await fetch(`${shop.issuer}/.well-known/openid-configuration`)).json();
    expect(discovery.device_authorization_endpoint).toBe(`${shop.issuer}/oauth/device_authorization`);
    expect(discovery.grant_types_supported).toContain(DEVICE_GRANT);

    const codes = await device().start();
    expect(codes.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(codes.verification_uri).toBe(`${appUrl}/hosted/${shop.key}/device`);
    expect(codes.verification_uri_complete).toBe(`${appUrl}/hosted/${shop.key}/device?user_code=${codes.user_code}`);
    expect(codes).toMatchObject({ expires_in: 600, interval: 5 });

    const row = await t.db.selectFrom('device_authorizations').selectAll().where('device_code_hash', '=', sha256(codes.device_code)).executeTakeFirstOrThrow();
    expect(row.user_code_hash).toBe(sha256(codes.user_code.replace('-', '')));
    expect(JSON.stringify(row)).not.toContain(codes.device_code);
    expect(JSON.stringify(row)).not.toContain(codes.user_code.replace('-', ''));
  });

  it('refuses an unknown client and a machine client', async () => {
    const unknown = await form(`/projects/${shop.key}/oauth/device_authorization`, { client_id: 'pk_nobody' }, uniqueIp());
    expect(unknown.body.error).toBe('invalid_client');
    const machine = await t.call('POST', `/api/v1/projects/${shop.id}/machine-clients`, { token: dev.access_token, body: { name: 'Job' } });
    const { client_id, client_secret } = machine.json();
    const asMachine = await form(`/projects/${shop.key}/oauth/device_authorization`, { client_id, client_secret }, uniqueIp());
    expect(asMachine.body.error).toBe('unauthorized_client');
  });
});

describe('polling', () => {
  it('is pending, slows a device down, hands the tokens over once after approval, then refuses the code', async () => {
    const tv = device();
    const codes = await tv.start();
    const first = await tv.poll();
    expect(first.status).toBe(400);
    expect(first.body.error).toBe('authorization_pending');

    // Again at once: too fast, and from now on 10 s apart.
    expect((await tv.poll()).body.error).toBe('slow_down');
    wait(6);
    expect((await tv.poll()).body.error).toBe('slow_down');
    wait(15);
    expect((await tv.poll()).body.error).toBe('authorization_pending');

    const { browser, userId } = await signedInBrowser();
    const shown = await browser.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: codes.user_code.toLowerCase().replace('-', ' ') });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toMatchObject({ user_code: codes.user_code, app_name: 'Shop TV', scopes: ['openid', 'email', 'offline_access'] });
    const approved = await browser.post(`/hosted/${shop.key}/api/v1/device/approve`, { user_code: codes.user_code });
    expect(approved.status).toBe(200);

    wait(25);
    const tokens = await tv.poll();
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'openid email offline_access' });
    expect(typeof tokens.body.refresh_token).toBe('string');
    const keys = createRemoteJWKSet(new URL(`${appUrl}/public/api/v1/projects/${shop.key}/jwks.json`));
    const at = await jwtVerify(tokens.body.access_token as string, keys, { issuer: shop.issuer, audience: shop.key, currentDate: clock.now() });
    expect(at.payload.sub).toBe(userId);
    const id = await jwtVerify(tokens.body.id_token as string, keys, { issuer: shop.issuer, audience: shop.key, currentDate: clock.now() });
    expect(id.payload).toMatchObject({ sub: userId, email: expect.any(String), sid: at.payload.sid });

    // An ordinary session of the project, on the device's address and agent.
    const session = await t.db.selectFrom('sessions').selectAll().where('id', '=', at.payload.sid as string).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ user_agent: 'tv-cli/1.0', client: 'oidc', oauth_scope: 'openid email offline_access' });
    const refreshed = await form(`/projects/${shop.key}/oauth/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: shop.key }, uniqueIp());
    expect(refreshed.status).toBe(200);

    wait(10);
    const again = await tv.poll();
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    // The code is answered: the page no longer finds it.
    expect((await browser.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: codes.user_code })).status).toBe(404);
  });

  it('answers access_denied once the user denies', async () => {
    const tv = device();
    const codes = await tv.start('openid');
    const { browser } = await signedInBrowser();
    expect((await browser.post(`/hosted/${shop.key}/api/v1/device/deny`, { user_code: codes.user_code })).status).toBe(200);
    const answer = await tv.poll();
    expect(answer.body.error).toBe('access_denied');
    // Approving afterwards changes nothing.
    expect((await browser.post(`/hosted/${shop.key}/api/v1/device/approve`, { user_code: codes.user_code })).status).toBe(404);
  });

  it('answers expired_token after ten minutes, and the page no longer takes the code', async () => {
    const tv = device();
    const codes = await tv.start();
    wait(601);
    expect((await tv.poll()).body.error).toBe('expired_token');
    const { browser } = await signedInBrowser();
    expect((await browser.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: codes.user_code })).status).toBe(404);
  });

  it('lets only a signed-in user approve', async () => {
    const tv = device();
    const codes = await tv.start();
    const anonymous = new Browser();
    expect((await anonymous.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: codes.user_code })).status).toBe(200);
    expect((await anonymous.post(`/hosted/${shop.key}/api/v1/device/approve`, { user_code: codes.user_code })).status).toBe(401);
    expect((await tv.poll()).body.error).toBe('authorization_pending');
  });

  it('refuses a device code of another project, and an unknown one', async () => {
    const other = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Other' } });
    const foreign = device(other.json().project_key);
    const codes = await foreign.start();
    const answer = await form(`/projects/${shop.key}/oauth/token`, { grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: shop.key }, uniqueIp());
    expect(answer.body.error).toBe('invalid_grant');
    const unknown = await form(`/projects/${shop.key}/oauth/token`, { grant_type: DEVICE_GRANT, device_code: 'nope', client_id: shop.key }, uniqueIp());
    expect(unknown.body.error).toBe('invalid_grant');
  });
});

describe('guessing user codes', () => {
  it('limits the codes one network may try', async () => {
    const codes = await device().start();
    const guesser = new Browser();
    for (let i = 0; i < ENTRIES_PER_IP; i += 1) {
      expect((await guesser.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: 'BCDF-GHJK' })).status).toBe(404);
    }
    // Past the budget even the right code is refused.
    const refused = await guesser.post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: codes.user_code });
    expect(refused.status).toBe(429);
  });

  it("bounds the wrong codes tried against a project from anywhere", async () => {
    const created = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Guessed' } });
    const key = created.json().project_key as string;
    for (let i = 0; i < WRONG_PER_PROJECT; i += 1) {
      expect((await new Browser().post(`/hosted/${key}/api/v1/device/lookup`, { user_code: 'ZZZZ-ZZZZ' })).status).toBe(404);
    }
    expect((await new Browser().post(`/hosted/${key}/api/v1/device/lookup`, { user_code: 'ZZZZ-ZZZX' })).status).toBe(429);
    // The other project's users are not shut out.
    const elsewhere = await device().start();
    expect((await new Browser().post(`/hosted/${shop.key}/api/v1/device/lookup`, { user_code: elsewhere.user_code })).status).toBe(200);
  });
});

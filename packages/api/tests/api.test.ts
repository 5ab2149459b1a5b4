import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../../../tests/helpers/create-test-app.js';
import { AccessTokenError, createPublicApiClient, verifyAccessToken, type AccessTokenErrorCode, type PublicApiClient, type PublicApiPaths } from '../src/index.js';
import { freePort } from '../../../tests/helpers/tcp-probe.js';

/**
 * @authplatform/api against a real server on a loopback port, as a developer's backend uses it: the typed
 * client over HTTP, and end users' tokens verified offline against the project's published keys.
 */

/** Moves the server's time by hand while it still runs with the real one. */
const clock = { offsetS: 0, now: () => new Date(Date.now() + clock.offsetS * 1000) };
let t: TestApp;
let appUrl: string;
let dev: { access_token: string };
let shop: Project;
let blog: Project;

interface Project {
  projectKey: string;
  client: PublicApiClient;
}

async function createProject(name: string): Promise<Project> {
  const project = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name, website_url: `https://${name}.example` } });
  expect(project.statusCode, project.body).toBe(201);
  const { id, project_key: projectKey } = project.json();
  const key = await t.call('POST', `/api/v1/projects/${id}/api-keys`, { token: dev.access_token, body: { name: 'backend' } });
  expect(key.statusCode, key.body).toBe(201);
  // A trailing slash, as people write addresses in their settings.
  return { projectKey, client: createPublicApiClient({ appUrl: `${appUrl}/`, apiKey: key.json().secret }) };
}

/** Each end user calls from an address of its own, passed on as the public API expects. */
const endUser = () => ({ header: { 'X-End-User-IP': uniqueIp() } });

async function signUp({ client }: Project, email: string) {
  const { data, error, response } = await client.POST('/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, first_name: 'End' }, params: endUser() });
  expect(error).toBeUndefined();
  expect(response.status).toBe(201);
  return data;
}

async function logIn({ client }: Project, email: string) {
  const { data, error } = await client.POST('/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, params: endUser() });
  if (!data || 'mfa_required' in data) throw new Error(`login failed: ${JSON.stringify(error ?? data)}`);
  return data;
}

async function verifyFails(token: string, projectKey: string): Promise<AccessTokenErrorCode> {
  const error = await verifyAccessToken(token, { appUrl, projectKey }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AccessTokenError);
  return (error as AccessTokenError).code;
}

beforeAll(async () => {
  // The tokens' issuer is APP_URL: the server must know the address it will listen on.
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ clock, env: { APP_URL: appUrl } });
  await t.app.listen({ port, host: '127.0.0.1' });
  dev = await t.signUpAndLogIn(uniqueEmail('dev'));
  shop = await createProject('shop');
  blog = await createProject('blog');
});
afterAll(() => t.close());

describe('createPublicApiClient', () => {
  it('signs up, verifies and signs in an end user with typed calls', async () => {
    const email = uniqueEmail('enduser');
    expect(await signUp(shop, email)).toEqual({ message: expect.any(String) });
    const mail = await t.mail.waitFor(email, /verify/i);
    const token = new URL(mail.link!).searchParams.get('token')!;
    const verified = await shop.client.POST('/public/api/v1/auth/verify-email', { body: { token }, params: endUser() });
    expect(verified.response.status).toBe(200);

    const session = await logIn(shop, email);
    expect(session).toMatchObject({ token_type: 'bearer', user: { email, is_verified: true, first_name: 'End' } });
    const profile = await shop.client.GET('/public/api/v1/profile', { headers: { Authorization: `Bearer ${session.access_token}` } });
    expect(profile.data).toMatchObject({ id: session.user.id, email });
  });

  it('answers a refused call with the typed {detail} error and its status', async () => {
    const stranger = createPublicApiClient({ appUrl, apiKey: 'sk_test_not-a-key' });
    const { data, error, response } = await stranger.POST('/public/api/v1/auth/login', { body: { email: uniqueEmail(), password: STRONG_PASSWORD } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toEqual({ detail: 'Invalid API key' });
    expectTypeOf(error).toEqualTypeOf<{ detail: string; step_up_required?: true; step_up_methods?: ('password' | 'totp' | 'passkey' | 'email')[] } | undefined>();
  });

  it('offers the public API only', () => {
    expectTypeOf<'/public/api/v1/auth/login'>().toExtend<keyof PublicApiPaths>();
    expectTypeOf<'/api/v1/auth/login'>().not.toExtend<keyof PublicApiPaths>();
    expectTypeOf<'/api/v1/projects'>().not.toExtend<keyof PublicApiPaths>();
  });
});

describe('verifyAccessToken', () => {
  let email: string;
  let session: Awaited<ReturnType<typeof logIn>>;
  beforeAll(async () => {
    email = uniqueEmail('verify');
    await signUp(shop, email);
    session = await logIn(shop, email);
  });

  it("accepts the project's end-user token and says whose session it is", async () => {
    const verified = await verifyAccessToken(session.access_token, { appUrl: `${appUrl}/`, projectKey: shop.projectKey });
    expect(verified).toMatchObject({ userId: session.user.id, sessionId: expect.any(String) });
    expect(verified.payload).toMatchObject({ sub: session.user.id, iss: `${appUrl}/projects/${shop.projectKey}`, aud: shop.projectKey });
    expect(verified.expiresAt.getTime() - verified.issuedAt.getTime()).toBe(session.expires_in * 1000);
    const sessions = await shop.client.GET('/public/api/v1/auth/sessions', { headers: { Authorization: `Bearer ${session.access_token}` } });
    expect(sessions.data?.sessions.map((s) => s.id)).toContain(verified.sessionId);
  });

  it('refuses a token whose claims or signature were changed', async () => {
    const [header, payload, signature] = session.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherUser = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    expect(await verifyFails(`${header}.${otherUser}.${signature}`, shop.projectKey)).toBe('invalid');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await verifyFails(`${header}.${payload}.${flipped}`, shop.projectKey)).toBe('invalid');
    expect(await verifyFails('not a token', shop.projectKey)).toBe('invalid');
  });

  it('refuses a token signed with another key under the project kid and claims', async () => {
    const jwks = await (await fetch(`${appUrl}/public/api/v1/projects/${shop.projectKey}/jwks.json`)).json();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sid: 'forged' })
      .setProtectedHeader({ alg: 'ES256', kid: jwks.keys[0].kid })
      .setSubject(session.user.id)
      .setIssuer(`${appUrl}/projects/${shop.projectKey}`)
      .setAudience(shop.projectKey)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await verifyFails(forged, shop.projectKey)).toBe('invalid');
  });

  it("refuses another project's end-user token, and the platform's developer token", async () => {
    await signUp(blog, email);
    const elsewhere = await logIn(blog, email);
    expect(await verifyFails(elsewhere.access_token, shop.projectKey)).toBe('invalid');
    expect(await verifyFails(session.access_token, blog.projectKey)).toBe('invalid');
    expect((await verifyAccessToken(elsewhere.access_token, { appUrl, projectKey: blog.projectKey })).userId).toBe(elsewhere.user.id);
    expect(await verifyFails(dev.access_token, shop.projectKey)).toBe('invalid');
  });

  it('tells an expired token apart, and allows the clock tolerance asked for', async () => {
    clock.offsetS = -(session.expires_in + 60);
    let stale: Awaited<ReturnType<typeof logIn>>;
    try {
      stale = await logIn(shop, email);
    } finally {
      clock.offsetS = 0;
    }
    expect(await verifyFails(stale.access_token, shop.projectKey)).toBe('expired');
    const tolerated = await verifyAccessToken(stale.access_token, { appUrl, projectKey: shop.projectKey, clockTolerance: '5m' });
    expect(tolerated.userId).toBe(session.user.id);
  });

  it('calls a token invalid when checked against a project key that no project has (a typo)', async () => {
    expect(await verifyFails(session.access_token, 'pk_unknown')).toBe('invalid');
    const typo = `${shop.projectKey.slice(0, -1)}${shop.projectKey.endsWith('x') ? 'y' : 'x'}`;
    const error = await verifyAccessToken(session.access_token, { appUrl, projectKey: typo }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AccessTokenError', code: 'invalid', message: `Invalid access token: no project has the key ${typo}` });
  });

  it("says when the project's keys cannot be had, rather than calling the token invalid", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await verifyAccessToken(session.access_token, { appUrl: closed, projectKey: shop.projectKey }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AccessTokenError', code: 'unavailable' });
  });
});

import type { LightMyRequestResponse } from 'fastify';
import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp, type TestAppOptions } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * Routes that answer without a session (or with only an API key) and leave a row waiting: a passkey
 * sign-in's ceremony, an authorization request waiting for the hosted sign-in, a sign-in sent to a
 * provider. Each spends a budget of the client's network and one of the project, and the rows waiting
 * are capped in the database, so a flood is answered 429 and leaves no more rows than the limit.
 */

const FLOOD = 3_000;
const TOO_MANY = 'Too many requests. Please try again later.';
const WAITING = 'Too many sign-ins are waiting to be finished. Try again later.';
const SHOP_URL = 'https://shop.example';
const APP_CALLBACK = 'https://shop.example/callback';
/** RFC 7636's example S256 challenge. */
const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

type Table = 'webauthn_challenges' | 'oauth_interactions' | 'social_sign_ins';
const rowsIn = async (t: TestApp, table: Table) => Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** `total` requests, a hundred at a time (a flood does not wait for its answers). */
async function flood(total: number, send: (i: number) => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  for (let first = 0; first < total; first += 100) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(100, total - first) }, (_, i) => send(first + i)))));
  }
  return answers;
}

const statusesOf = (answers: LightMyRequestResponse[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
  return counts;
};
const lastRefusal = (answers: LightMyRequestResponse[]) => answers.findLast((answer) => answer.statusCode === 429)!;

/** A different client address for each request of a flood (198.19.0.0/16 is reserved for tests, apart from uniqueIp's). */
const addressOf = (i: number) => `198.19.${(i >> 8) & 255}.${i & 255}`;

interface TestProject {
  id: string;
  key: string;
  secret: string;
}

/** A project with a website (its passkeys' relying party), a registered redirect URI, GitHub as a provider and an API key. */
async function projectOf(t: TestApp, tag: string): Promise<TestProject> {
  const dev = await t.signUpAndLogIn(uniqueEmail(tag));
  const created = await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: tag, website_url: SHOP_URL, redirect_uris: [APP_CALLBACK] } });
  expect(created.statusCode).toBe(201);
  const project = created.json();
  const connection = await t.call('PUT', `/api/v1/projects/${project.id}/connections/github`, { token: dev.access_token, body: { client_id: 'shop-github', client_secret: 'shop-github-secret' } });
  expect(connection.statusCode).toBe(200);
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'backend' } })).json();
  return { id: project.id, key: project.project_key, secret: key.secret };
}

const authorizeUrl = (project: TestProject) =>
  `/hosted/${project.key}/authorize?${new URLSearchParams({
    client_id: project.key,
    redirect_uri: APP_CALLBACK,
    response_type: 'code',
    scope: 'openid',
    code_challenge: CODE_CHALLENGE,
    code_challenge_method: 'S256',
  })}`;

const publicCall = (t: TestApp, project: TestProject, endUserIp: string) => ({
  passkeyOptions: () => t.call('POST', '/public/api/v1/auth/passkeys/login/options', { body: {}, headers: { 'x-api-key': project.secret, 'x-end-user-ip': endUserIp } }),
  socialStart: () =>
    t.call('GET', `/public/api/v1/auth/oauth/github/authorize?${new URLSearchParams({ redirect_uri: APP_CALLBACK, state: 'app-state' })}`, {
      headers: { 'x-api-key': project.secret, 'x-end-user-ip': endUserIp },
    }),
});

/**
 * The platform offers GitHub (its authorize URL is built without calling GitHub). Public API calls are
 * counted in memory and written in batches, as the server does by default (the tests' default writes each).
 */
const ENV = { GITHUB_CLIENT_ID: 'platform-github', GITHUB_CLIENT_SECRET: 'platform-github-secret', API_USAGE_FLUSH_MS: '2000' };

describe('a flood from one address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
  });
  afterAll(() => t.close());

  it('3,000 passkey sign-in starts: 429 with Retry-After after 30, and 30 ceremonies stored', async () => {
    const ip = uniqueIp();
    const before = await rowsIn(t, 'webauthn_challenges');
    const answers = await flood(FLOOD, () => t.call('POST', '/api/v1/auth/passkeys/login/options', { body: {}, ip }));
    expect(statusesOf(answers)).toEqual({ 200: 30, 429: FLOOD - 30 });
    expect(lastRefusal(answers).json()).toEqual({ detail: TOO_MANY });
    expect(Number(lastRefusal(answers).headers['retry-after'])).toBeGreaterThan(0);
    expect(await rowsIn(t, 'webauthn_challenges')).toBe(before + 30);
    // The browser's own transport spends the same budget.
    expect(await trpcFailure(t.trpc({ ip }).api.passkeys.loginOptions.mutate({}))).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: TOO_MANY });
    // Another address starts as usual.
    expect((await t.call('POST', '/api/v1/auth/passkeys/login/options', { body: {}, ip: uniqueIp() })).statusCode).toBe(200);
  });

  it("3,000 passkey options for one waiting second step: 429 after 30, and one ceremony waiting (each replaces the one before)", async () => {
    const email = uniqueEmail('mfa-flood');
    const session = await t.signUpAndLogIn(email);
    const device = new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
    const creation = await t.call('POST', '/api/v1/auth/passkeys/register/options', { token: session.access_token });
    expect((await t.call('POST', '/api/v1/auth/passkeys/register/verify', { token: session.access_token, body: { response: device.createJSON(APP_URL, creation.json()) } })).statusCode).toBe(201);
    const { secret } = (await t.call('POST', '/api/v1/auth/mfa/totp/setup', { token: session.access_token })).json();
    expect((await t.call('POST', '/api/v1/auth/mfa/totp/confirm', { token: session.access_token, body: { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() } })).statusCode).toBe(200);
    const { mfa_token } = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).json();

    const ip = uniqueIp();
    const answers = await flood(FLOOD, () => t.call('POST', '/api/v1/auth/mfa/passkey/options', { body: { mfa_token }, ip }));
    expect(statusesOf(answers)).toEqual({ 200: 30, 429: FLOOD - 30 });
    const waiting = await t.db.selectFrom('webauthn_challenges').select('challenge').where('purpose', '=', 'mfa').where('used_at', 'is', null).execute();
    expect(waiting).toHaveLength(1);
    // The options of the ceremony left waiting (the last to be stored) still answer the second step.
    const options = answers.map((answer) => answer.json()).find((answer) => answer.challenge === waiting[0]!.challenge);
    const done = await t.call('POST', '/api/v1/auth/mfa/verify', { body: { mfa_token, passkey_response: device.getJSON(APP_URL, options) }, ip });
    expect(done.statusCode, done.body).toBe(200);
  });

  it('3,000 authorization requests at the hosted pages: a 429 page with Retry-After after 30, and 30 requests waiting', async () => {
    const shop = await projectOf(t, 'authorize-flood');
    const ip = uniqueIp();
    const before = await rowsIn(t, 'oauth_interactions');
    const answers = await flood(FLOOD, () => t.call('GET', authorizeUrl(shop), { ip }));
    expect(statusesOf(answers)).toEqual({ 303: 30, 429: FLOOD - 30 });
    const refused = lastRefusal(answers);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain(TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await rowsIn(t, 'oauth_interactions')).toBe(before + 30);
    expect((await t.call('GET', authorizeUrl(shop), { ip: uniqueIp() })).statusCode).toBe(303);
  });

  it('300 sign-ins sent to a provider: after 30 the browser is sent back with rate_limited, and 30 wait', async () => {
    const ip = uniqueIp();
    const before = await rowsIn(t, 'social_sign_ins');
    const answers = await flood(300, () => t.call('GET', '/api/v1/auth/oauth/github/authorize', { ip }));
    const toGitHub = answers.filter((answer) => String(answer.headers.location).startsWith('https://github.com/'));
    const backHome = answers.filter((answer) => answer.headers.location === '/login?social_error=rate_limited');
    expect([toGitHub.length, backHome.length]).toEqual([30, 270]);
    expect(await rowsIn(t, 'social_sign_ins')).toBe(before + 30);
  });

  it("one address's flood spends its own budget, not its project's: the project's other end users still start", async () => {
    const shop = await projectOf(t, 'own-budget');
    const attacker = publicCall(t, shop, uniqueIp());
    expect(statusesOf(await flood(300, attacker.passkeyOptions))).toEqual({ 200: 30, 429: 270 });
    expect(statusesOf(await flood(300, attacker.socialStart))).toEqual({ 200: 30, 429: 270 });
    expect((await publicCall(t, shop, uniqueIp()).passkeyOptions()).statusCode).toBe(200);
    expect((await publicCall(t, shop, uniqueIp()).socialStart()).statusCode).toBe(200);
  });
});

describe('a flood from many addresses: the project budget bounds it', () => {
  const PROJECT_BUDGET = 100;
  let t: TestApp;
  beforeAll(async () => {
    const budget = { points: PROJECT_BUDGET, durationS: 60 };
    t = await createTestApp({ env: ENV, limits: { passkeyOptionsPerProject: budget, authorizePerProject: budget, socialStartPerProject: budget } });
  });
  afterAll(() => t.close());

  it("3,000 passkey sign-in starts through the public API, each naming another end user's address: 429 after the project's budget, and no more ceremonies", async () => {
    const shop = await projectOf(t, 'public-passkeys');
    const before = await rowsIn(t, 'webauthn_challenges');
    const answers = await flood(FLOOD, (i) => publicCall(t, shop, addressOf(i)).passkeyOptions());
    expect(statusesOf(answers)).toEqual({ 200: PROJECT_BUDGET, 429: FLOOD - PROJECT_BUDGET });
    expect(lastRefusal(answers).json()).toEqual({ detail: TOO_MANY });
    expect(await rowsIn(t, 'webauthn_challenges')).toBe(before + PROJECT_BUDGET);
    // Another project's end users are not refused.
    expect((await publicCall(t, await projectOf(t, 'public-passkeys-other'), addressOf(0)).passkeyOptions()).statusCode).toBe(200);
  });

  it("300 sign-ins sent to a provider through the public API from as many addresses: 429 after the project's budget", async () => {
    const shop = await projectOf(t, 'public-social');
    const before = await rowsIn(t, 'social_sign_ins');
    const answers = await flood(300, (i) => publicCall(t, shop, addressOf(i)).socialStart());
    expect(statusesOf(answers)).toEqual({ 200: PROJECT_BUDGET, 429: 300 - PROJECT_BUDGET });
    expect(await rowsIn(t, 'social_sign_ins')).toBe(before + PROJECT_BUDGET);
  });

  it("3,000 authorization requests from as many addresses: 429 after the project's budget", async () => {
    const shop = await projectOf(t, 'many-authorize');
    const before = await rowsIn(t, 'oauth_interactions');
    const answers = await flood(FLOOD, (i) => t.call('GET', authorizeUrl(shop), { ip: addressOf(i) }));
    expect(statusesOf(answers)).toEqual({ 303: PROJECT_BUDGET, 429: FLOOD - PROJECT_BUDGET });
    expect(await rowsIn(t, 'oauth_interactions')).toBe(before + PROJECT_BUDGET);
  });
});

describe('several instances without a shared store (no REDIS_URL): the database caps the rows waiting', () => {
  // A project budget as long as a ceremony lives: the project's cap is then the budget itself.
  const options: TestAppOptions = { env: ENV, limits: { passkeyOptionsPerProject: { points: 10, durationS: 300 } } };
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp(options);
    second = await createTestApp({ ...options, sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("a second instance's own budget adds one ceremony to an address's 29 waiting, however many ask at once: 429 until the first of them ends", async () => {
    const ip = uniqueIp();
    const start = (t: TestApp, total: number) => flood(total, () => t.call('POST', '/api/v1/auth/passkeys/login/options', { body: {}, ip }));
    expect(statusesOf(await start(first, 29))).toEqual({ 200: 29 });
    // All of the second instance's budget at once: counting and inserting are one step, so one gets the last place.
    const answers = await start(second, 30);
    expect(statusesOf(answers)).toEqual({ 200: 1, 429: 29 });
    for (const answer of answers.filter((one) => one.statusCode === 429)) {
      expect(answer.json()).toEqual({ detail: WAITING });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(300);
    }
    expect(await rowsIn(second, 'webauthn_challenges')).toBe(30);
  });

  it("a flood filling a project's waiting rows is refused rather than pushing out a real user's ceremony, which still signs them in", async () => {
    const shop = await projectOf(first, 'cap');
    const realm = (ip: string) => ({ headers: { 'x-api-key': shop.secret, 'x-end-user-ip': ip } });
    const shopper = uniqueEmail('shopper');
    const shopperIp = uniqueIp();
    const mailsBefore = first.mail.messages.length;
    expect((await first.call('POST', '/public/api/v1/auth/signup', { body: { email: shopper, password: STRONG_PASSWORD }, ...realm(shopperIp) })).statusCode).toBe(201);
    // A passkey is for a verified address only.
    const link = new URL((await first.mail.waitFor(shopper, /verify/i, { after: mailsBefore })).link!);
    expect((await first.call('POST', '/public/api/v1/auth/verify-email', { body: { token: link.searchParams.get('token') }, ...realm(shopperIp) })).statusCode).toBe(200);
    const session = (await first.call('POST', '/public/api/v1/auth/login', { body: { email: shopper, password: STRONG_PASSWORD }, ...realm(shopperIp) })).json();
    const device = new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
    const creation = await first.call('POST', '/public/api/v1/auth/passkeys/register/options', { token: session.access_token, ...realm(shopperIp) });
    const registered = await first.call('POST', '/public/api/v1/auth/passkeys/register/verify', {
      token: session.access_token,
      body: { response: device.createJSON(SHOP_URL, creation.json()) },
      ...realm(shopperIp),
    });
    expect(registered.statusCode).toBe(201);

    // The shopper starts signing in; then the flood, on both instances, from as many addresses.
    const options = await first.call('POST', '/public/api/v1/auth/passkeys/login/options', { body: {}, ...realm(shopperIp) });
    expect(options.statusCode).toBe(200);
    const before = await rowsIn(first, 'webauthn_challenges');
    expect(statusesOf(await flood(100, (i) => publicCall(first, shop, addressOf(i)).passkeyOptions()))).toEqual({ 200: 9, 429: 91 });
    const answers = await flood(10, (i) => publicCall(second, shop, addressOf(1000 + i)).passkeyOptions());
    expect(answers.map((answer) => [answer.statusCode, answer.json()])).toEqual(Array(10).fill([429, { detail: WAITING }]));
    expect(await rowsIn(first, 'webauthn_challenges')).toBe(before + 9);

    const signedIn = await second.call('POST', '/public/api/v1/auth/passkeys/login/verify', { body: { response: device.getJSON(SHOP_URL, options.json()) }, ...realm(shopperIp) });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email: shopper } });
  });
});

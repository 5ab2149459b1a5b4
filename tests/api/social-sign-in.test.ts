import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_MESSAGES } from '../../shared/schemas/social.js';
import { sweepExpiredWaiting } from '../../server/modules/retention/retention.service.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestGitHub, startTestOidcProvider, type TestGitHub, type TestOidcProvider } from '../helpers/identity-providers.js';

/**
 * Sign-in with providers, against real ones on loopback: oidc-provider as "Google", "Microsoft" and a
 * generic OpenID Connect provider, and a server shaped like GitHub's OAuth app flow and API. Our
 * server is driven over app.inject; the provider's side of the browser through real HTTP redirects.
 */

const PLATFORM_CALLBACK = (provider: string) => `${APP_URL}/api/v1/auth/oauth/${provider}/callback`;
const APP_CALLBACK = 'https://app.example/auth/callback';

const clock = manualClock(new Date());
let t: TestApp;
let github: TestGitHub;
let idp: TestOidcProvider;
let nextGitHubId = 1000;
let nextSub = 1;

/** The platform's GitHub connection to the stand-in. */
const gitHubEnv = () => ({
  GITHUB_CLIENT_ID: 'platform-github',
  GITHUB_CLIENT_SECRET: 'platform-github-secret',
  GITHUB_AUTHORIZE_URL: github.authorizeUrl,
  GITHUB_TOKEN_URL: github.tokenUrl,
  GITHUB_API_URL: github.apiBaseUrl,
});

/** A new GitHub user, who is the next to sign in there (`github.nextLogin(id)` signs them in again). */
function gitHubUser(email: string | null, verified = true) {
  nextGitHubId += 1;
  github.setUser({ id: nextGitHubId, login: `user${nextGitHubId}`, name: 'Grace Hopper', emails: email ? [{ email, primary: true, verified }] : [] });
  github.nextLogin(nextGitHubId);
  return nextGitHubId;
}

function oidcUser(email: string, verified = true) {
  const sub = `sub-${nextSub++}`;
  idp.setUser({ sub, email, email_verified: verified, given_name: 'Ada', family_name: 'Lovelace' });
  return sub;
}

interface Started {
  providerUrl: URL;
  stateCookie: string | undefined;
}

/** A browser navigation to our start URL: where it sends the browser, and the state cookie it sets. */
async function start(path: string, options: { token?: string; cookies?: Record<string, string>; ip?: string } = {}): Promise<Started & { location: string }> {
  const res = await t.call('GET', path, { token: options.token, cookies: options.cookies, ip: options.ip });
  expect(res.statusCode, res.body).toBe(302);
  const location = res.headers.location as string;
  return { providerUrl: new URL(location, APP_URL), location, stateCookie: res.cookies.find((cookie) => cookie.name === 'oauth_state')?.value };
}

/** The provider's part of the browser's way: from its authorize URL to the Location pointing back at us. */
async function throughProvider(providerUrl: URL, callbackPrefix: string): Promise<URL> {
  return new URL(await followToRedirect(providerUrl, callbackPrefix, { jar: new CookieJar() }));
}

async function callback(url: URL, options: { stateCookie?: string; cookies?: Record<string, string>; ip?: string }) {
  const cookies = { ...options.cookies, ...(options.stateCookie !== undefined && { oauth_state: options.stateCookie }) };
  return t.call('GET', `${url.pathname}${url.search}`, { cookies, ip: options.ip });
}

/** The whole platform sign-in: start, provider, callback. Answers our callback's response. */
async function platformSignIn(provider: string, query = '', options: { token?: string; cookies?: Record<string, string>; ip?: string; alterProviderUrl?: (url: URL) => void } = {}) {
  const ip = options.ip ?? uniqueIp();
  const started = await start(`/api/v1/auth/oauth/${provider}/authorize${query}`, { ...options, ip });
  expect(started.providerUrl.origin).not.toBe(new URL(APP_URL).origin);
  options.alterProviderUrl?.(started.providerUrl);
  const back = await throughProvider(started.providerUrl, PLATFORM_CALLBACK(provider));
  return callback(back, { stateCookie: started.stateCookie, cookies: options.cookies, ip });
}

const cookieOf = (res: { cookies: Array<{ name: string; value: string }> }, name: string) => res.cookies.find((cookie) => cookie.name === name && cookie.value !== '')?.value;
const redirectOf = (res: { headers: Record<string, unknown> }) => new URL(res.headers.location as string, APP_URL);

async function me(accessToken: string) {
  const res = await t.call('GET', '/api/v1/auth/me', { token: accessToken });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function identities(accessToken: string) {
  const res = await t.call('GET', '/api/v1/auth/identities', { token: accessToken });
  expect(res.statusCode).toBe(200);
  return res.json();
}

beforeAll(async () => {
  github = await startTestGitHub({ clients: [{ client_id: 'platform-github', client_secret: 'platform-github-secret' }] });
  idp = await startTestOidcProvider({
    clients: ['google', 'microsoft', 'oidc'].map((provider) => ({
      client_id: `platform-${provider}`,
      client_secret: `platform-${provider}-secret`,
      redirect_uris: [PLATFORM_CALLBACK(provider)],
      token_endpoint_auth_method: 'client_secret_post' as const,
    })),
  });
  t = await createTestApp({
    clock,
    env: {
      ...gitHubEnv(),
      GOOGLE_CLIENT_ID: 'platform-google',
      GOOGLE_CLIENT_SECRET: 'platform-google-secret',
      GOOGLE_ISSUER: idp.issuer,
      MICROSOFT_CLIENT_ID: 'platform-microsoft',
      MICROSOFT_CLIENT_SECRET: 'platform-microsoft-secret',
      MICROSOFT_ISSUER: idp.issuer,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'platform-oidc',
      OIDC_CLIENT_SECRET: 'platform-oidc-secret',
      OIDC_NAME: 'Acme SSO',
      // The projects' providers below are on loopback.
      CONNECTIONS_ALLOW_PRIVATE: 'on',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await github?.close();
  await idp?.close();
});

describe('the providers a sign-in page offers', () => {
  it('lists the configured ones, by name', async () => {
    const res = await t.call('GET', '/api/v1/auth/oauth/providers');
    expect(res.statusCode).toBe(200);
    expect(res.json().providers).toEqual([
      { id: 'github', name: 'GitHub' },
      { id: 'google', name: 'Google' },
      { id: 'microsoft', name: 'Microsoft' },
      { id: 'oidc', name: 'Acme SSO' },
    ]);
  });

  it('lists none when none is configured, and refuses to start one', async () => {
    const bare = await createTestApp();
    try {
      expect((await bare.call('GET', '/api/v1/auth/oauth/providers')).json()).toEqual({ providers: [] });
      const res = await bare.call('GET', '/api/v1/auth/oauth/github/authorize');
      expect(res.statusCode).toBe(302);
      expect(redirectOf(res).pathname).toBe('/login');
      expect(redirectOf(res).searchParams.get('social_error')).toBe('unavailable');
    } finally {
      await bare.close();
    }
  });

  it('answers 422 with a detail for a provider it does not know', async () => {
    const res = await t.call('GET', '/api/v1/auth/oauth/myspace/authorize');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/github, google, microsoft or oidc/);
  });
});

describe('a first sign-in', () => {
  it('with GitHub makes a verified account, signs it in, and records the attempt with its provider', async () => {
    const email = uniqueEmail('gh-new');
    gitHubUser(email);
    const res = await platformSignIn('github', '?return_to=/projects&device_fingerprint=fp-gh-new');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/projects');
    const access = cookieOf(res, 'access_token')!;
    expect(access).toBeTruthy();
    expect(cookieOf(res, 'oauth_state')).toBeUndefined();
    const user = await me(access);
    expect(user).toMatchObject({ email, is_verified: true, first_name: 'Grace', last_name: 'Hopper' });
    const methods = await identities(access);
    expect(methods.has_password).toBe(false);
    expect(methods.identities).toEqual([expect.objectContaining({ provider: 'github', provider_name: 'GitHub', email })]);

    // PKCE S256 and a state went to GitHub.
    const sent = github.requests.at(-1)!;
    expect(sent.code_challenge_method).toBe('S256');
    expect(sent.state).toBeTruthy();

    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 1, method: 'github', device_fingerprint: 'fp-gh-new' });
  });

  it('with an OpenID Connect provider sends a nonce and PKCE, and makes a verified account', async () => {
    const email = uniqueEmail('google-new');
    idp.nextLogin(oidcUser(email));
    const res = await platformSignIn('google');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(await me(cookieOf(res, 'access_token')!)).toMatchObject({ email, is_verified: true, first_name: 'Ada', last_name: 'Lovelace' });
    const sent = idp.requests.at(-1)!;
    expect(sent.nonce).toBeTruthy();
    expect(sent.code_challenge_method).toBe('S256');
    expect(sent.scope).toBe('openid email profile');
  });

  it('with an address the provider has not verified makes an unverified account and mails our verification link', async () => {
    const email = uniqueEmail('oidc-unverified');
    idp.nextLogin(oidcUser(email, false));
    const before = t.mail.messages.length;
    const res = await platformSignIn('oidc');
    expect(res.statusCode).toBe(302);
    expect(await me(cookieOf(res, 'access_token')!)).toMatchObject({ email, is_verified: false });
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    const token = new URL(mail.link!).searchParams.get('token');
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token } })).statusCode).toBe(200);
    // The link sets no password: the account still signs in only with its provider.
    const user = await t.db.selectFrom('users').select(['password_set', 'is_verified']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toEqual({ password_set: 0, is_verified: 1 });
  });

  it('refuses a provider that shares no e-mail address', async () => {
    gitHubUser(null);
    const res = await platformSignIn('github');
    expect(redirectOf(res).searchParams.get('social_error')).toBe('no_email');
    expect(cookieOf(res, 'access_token')).toBeUndefined();
  });
});

describe('a returning user', () => {
  it('is found by provider and subject, even after changing the address at the provider', async () => {
    const email = uniqueEmail('gh-return');
    const id = gitHubUser(email);
    const first = await platformSignIn('github');
    const userId = (await me(cookieOf(first, 'access_token')!)).id;

    github.setUser({ id, login: `user${id}`, emails: [{ email: uniqueEmail('gh-moved'), primary: true, verified: true }] });
    github.nextLogin(id);
    const again = await platformSignIn('github');
    expect(again.statusCode).toBe(302);
    expect((await me(cookieOf(again, 'access_token')!)).id).toBe(userId);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });
});

describe('an address that already has an account', () => {
  it('is not taken over: a verified provider address gets a link mailed to the owner, and the link connects the provider', async () => {
    const email = uniqueEmail('owner');
    const owner = await t.signUpAndLogIn(email);
    const githubId = gitHubUser(email);
    const before = t.mail.messages.length;

    const refused = await platformSignIn('github');
    expect(refused.statusCode).toBe(302);
    expect(redirectOf(refused).pathname).toBe('/login');
    expect(redirectOf(refused).searchParams.get('social_error')).toBe('link_sent');
    expect(cookieOf(refused, 'access_token')).toBeUndefined();
    expect((await identities(owner.access_token)).identities).toEqual([]);
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('method', '=', 'github').executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 0, failure_reason: 'link_required', user_id: null });

    const mail = await t.mail.waitFor(email, /connect github/i, { after: before });
    const link = new URL(mail.link!);
    expect(link.pathname).toBe('/link-account');
    const confirmed = await t.call('POST', '/api/v1/auth/oauth/link', { body: { token: link.searchParams.get('token') } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(SOCIAL_MESSAGES.linked);
    expect((await t.call('POST', '/api/v1/auth/oauth/link', { body: { token: link.searchParams.get('token') } })).json().detail).toBe(SOCIAL_MESSAGES.linkUsed);

    github.nextLogin(githubId);
    const signedIn = await platformSignIn('github');
    expect(signedIn.statusCode).toBe(302);
    expect((await me(cookieOf(signedIn, 'access_token')!)).id).toBe(owner.user.id);
  });

  it('keeps where the sign-in was going with the mailed link, so its page can sign in and go on there (issue 25)', async () => {
    const email = uniqueEmail('owner-going-on');
    await t.signUpAndLogIn(email);
    gitHubUser(email);
    const before = t.mail.messages.length;
    const refused = await platformSignIn('github', `?return_to=${encodeURIComponent('/projects?tab=settings')}`);
    expect(redirectOf(refused).searchParams.get('return_to')).toBe('/projects?tab=settings');
    const link = new URL((await t.mail.waitFor(email, /connect github/i, { after: before })).link!);
    expect([...link.searchParams.keys()]).toEqual(['token']);
    const confirmed = await t.call('POST', '/api/v1/auth/oauth/link', { body: { token: link.searchParams.get('token') } });
    expect(confirmed.json()).toEqual({ message: SOCIAL_MESSAGES.linked, return_to: '/projects?tab=settings' });
  });

  it('is refused without a mail when the provider has not verified the address', async () => {
    const email = uniqueEmail('owner-unverified');
    const owner = await t.signUpAndLogIn(email);
    idp.nextLogin(oidcUser(email, false));
    const before = t.mail.messages.length;
    const refused = await platformSignIn('google');
    expect(redirectOf(refused).searchParams.get('social_error')).toBe('link_required');
    expect(cookieOf(refused, 'access_token')).toBeUndefined();
    expect((await identities(owner.access_token)).identities).toEqual([]);
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((message) => message.to === email)).toEqual([]);
  });

  it('refuses an invalid link with a detail', async () => {
    const res = await t.call('POST', '/api/v1/auth/oauth/link', { body: { token: 'not-a-link' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(SOCIAL_MESSAGES.linkInvalid);
  });
});

describe('connecting a provider from the security settings', () => {
  it('connects it to the signed-in account, which can then sign in with it', async () => {
    const email = uniqueEmail('linker');
    const owner = await t.signUpAndLogIn(email);
    const githubId = gitHubUser(uniqueEmail('linker-at-github'), false);
    const res = await platformSignIn('github', '?intent=link&return_to=/settings', { token: owner.access_token, cookies: { access_token: owner.access_token } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/settings?social_linked=github');
    const methods = await identities(owner.access_token);
    expect(methods.identities.map((identity: { provider: string }) => identity.provider)).toEqual(['github']);
    expect(methods.has_password).toBe(true);
    expect(methods.available.map((provider: { id: string }) => provider.id)).toEqual(['google', 'microsoft', 'oidc']);

    github.nextLogin(githubId);
    const signedIn = await platformSignIn('github');
    expect((await me(cookieOf(signedIn, 'access_token')!)).id).toBe(owner.user.id);
  });

  it('needs a signed-in account, the same one that started', async () => {
    const anonymous = await t.call('GET', '/api/v1/auth/oauth/github/authorize?intent=link');
    expect(redirectOf(anonymous).pathname).toBe('/settings');
    expect(redirectOf(anonymous).searchParams.get('social_error')).toBe('link_not_signed_in');

    const first = await t.signUpAndLogIn(uniqueEmail('link-a'));
    const second = await t.signUpAndLogIn(uniqueEmail('link-b'));
    gitHubUser(uniqueEmail('link-gh'));
    const res = await platformSignIn('github', '?intent=link', { token: first.access_token, cookies: { access_token: second.access_token } });
    expect(redirectOf(res).searchParams.get('social_error')).toBe('link_not_signed_in');
    expect((await identities(first.access_token)).identities).toEqual([]);
  });

  it('refuses an identity already connected to another account', async () => {
    const email = uniqueEmail('taken-gh');
    const githubId = gitHubUser(email);
    await platformSignIn('github');
    github.nextLogin(githubId);
    const other = await t.signUpAndLogIn(uniqueEmail('thief'));
    const res = await platformSignIn('github', '?intent=link', { cookies: { access_token: other.access_token } });
    expect(redirectOf(res).searchParams.get('social_error')).toBe('already_linked');
    expect((await identities(other.access_token)).identities).toEqual([]);
  });
});

describe('the callback refuses', () => {
  it('a sign-in that comes back to another browser (no state cookie), without a session', async () => {
    gitHubUser(uniqueEmail('csrf'));
    const started = await start('/api/v1/auth/oauth/github/authorize');
    const back = await throughProvider(started.providerUrl, PLATFORM_CALLBACK('github'));
    const res = await callback(back, { stateCookie: 'someone-elses-state' });
    expect(redirectOf(res).searchParams.get('social_error')).toBe('state_mismatch');
    expect(cookieOf(res, 'access_token')).toBeUndefined();
    // And the state is spent: its own browser cannot use it afterwards either.
    expect(redirectOf(await callback(back, { stateCookie: started.stateCookie })).searchParams.get('social_error')).toBe('expired');
  });

  it('an unknown or replayed state', async () => {
    const unknown = await t.call('GET', '/api/v1/auth/oauth/github/callback?code=x&state=made-up', { cookies: { oauth_state: 'made-up' } });
    expect(redirectOf(unknown).searchParams.get('social_error')).toBe('expired');

    gitHubUser(uniqueEmail('replay'));
    const started = await start('/api/v1/auth/oauth/github/authorize');
    const back = await throughProvider(started.providerUrl, PLATFORM_CALLBACK('github'));
    expect(cookieOf(await callback(back, { stateCookie: started.stateCookie }), 'access_token')).toBeTruthy();
    expect(redirectOf(await callback(back, { stateCookie: started.stateCookie })).searchParams.get('social_error')).toBe('expired');
  });

  it('an ID token whose nonce is not the one sent', async () => {
    idp.nextLogin(oidcUser(uniqueEmail('nonce')));
    const res = await platformSignIn('google', '', { alterProviderUrl: (url) => url.searchParams.set('nonce', 'a-nonce-of-the-attackers-choice') });
    expect(redirectOf(res).searchParams.get('social_error')).toBe('provider_error');
    expect(cookieOf(res, 'access_token')).toBeUndefined();
  });

  it('a cancelled sign-in and a provider error, each with its own message code', async () => {
    idp.nextOutcome({ error: 'access_denied', error_description: 'The user said no' });
    const cancelled = await platformSignIn('microsoft', '?return_to=/projects');
    expect(redirectOf(cancelled).pathname).toBe('/login');
    expect(redirectOf(cancelled).searchParams.get('social_error')).toBe('cancelled');
    expect(redirectOf(cancelled).searchParams.get('return_to')).toBe('/projects');

    github.nextOutcome({ error: 'server_error', error_description: 'Down for maintenance' });
    const failed = await platformSignIn('github');
    expect(redirectOf(failed).searchParams.get('social_error')).toBe('provider_error');
  });
});

describe('the ways to sign in', () => {
  it('refuses to remove the last one, and removes one when another is left', async () => {
    const email = uniqueEmail('last-way');
    gitHubUser(email);
    const signedIn = await platformSignIn('github');
    const access = cookieOf(signedIn, 'access_token')!;
    const [onlyOne] = (await identities(access)).identities;
    const refused = await t.call('DELETE', `/api/v1/auth/identities/${onlyOne.id}`, { token: access });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(SOCIAL_MESSAGES.lastSignInMethod);

    idp.nextLogin(oidcUser(uniqueEmail('last-way-google')));
    const linked = await platformSignIn('google', '?intent=link', { cookies: { access_token: access } });
    expect(redirectOf(linked).searchParams.get('social_linked')).toBe('google');
    const removed = await t.call('DELETE', `/api/v1/auth/identities/${onlyOne.id}`, { token: access });
    expect(removed.statusCode).toBe(200);
    expect((await identities(access)).identities.map((identity: { provider: string }) => identity.provider)).toEqual(['google']);
    expect((await t.call('DELETE', `/api/v1/auth/identities/${onlyOne.id}`, { token: access })).statusCode).toBe(404);
  });

  it('lets an account without a password set one with "forgot password"', async () => {
    const email = uniqueEmail('no-password');
    gitHubUser(email);
    const signedIn = await platformSignIn('github');
    expect((await identities(cookieOf(signedIn, 'access_token')!)).has_password).toBe(false);
    const wrong = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } });
    expect(wrong.statusCode).toBe(401);

    const before = t.mail.messages.length;
    expect((await t.call('POST', '/api/v1/auth/forgot-password', { body: { email } })).statusCode).toBe(200);
    const mail = await t.mail.waitFor(email, /reset/i, { after: before });
    const reset = await t.call('POST', '/api/v1/auth/reset-password', {
      body: { token: new URL(mail.link!).searchParams.get('token'), new_password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect((await identities(login.json().access_token)).has_password).toBe(true);
  });
});

describe('two factors after a provider', () => {
  const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

  async function accountWithTwoFactors() {
    const email = uniqueEmail('mfa-social');
    const session = await t.signUpAndLogIn(email);
    const { secret } = (await t.call('POST', '/api/v1/auth/mfa/totp/setup', { token: session.access_token })).json();
    expect((await t.call('POST', '/api/v1/auth/mfa/totp/confirm', { token: session.access_token, body: { code: codeFor(secret) } })).statusCode).toBe(200);
    const sub = oidcUser(uniqueEmail('mfa-social-idp'));
    idp.nextLogin(sub);
    const linked = await platformSignIn('oidc', '?intent=link', { cookies: { access_token: session.access_token } });
    expect(redirectOf(linked).searchParams.get('social_linked')).toBe('oidc');
    return { email, secret, sub, userId: session.user.id };
  }

  it('are still asked unless the provider asserts them', async () => {
    const account = await accountWithTwoFactors();
    idp.nextLogin(account.sub);
    const res = await platformSignIn('oidc', '?return_to=/projects');
    expect(cookieOf(res, 'access_token')).toBeUndefined();
    const next = redirectOf(res);
    expect(next.pathname).toBe('/login');
    expect(next.searchParams.get('return_to')).toBe('/projects');
    const fragment = new URLSearchParams(next.hash.slice(1));
    const mfaToken = fragment.get('mfa_token');
    expect(mfaToken).toBeTruthy();
    expect(fragment.get('methods')).toBe('totp,recovery_code');
    clock.advance(30);
    const verified = await t.call('POST', '/api/v1/auth/mfa/verify', { body: { mfa_token: mfaToken, code: codeFor(account.secret) } });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user.id).toBe(account.userId);
    // The session's proof and the attempt name the provider, not a password.
    const session = await t.db.selectFrom('sessions').select('auth_methods').where('user_id', '=', account.userId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(session.auth_methods).toBe('fed otp mfa');
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('user_id', '=', account.userId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 1, method: 'oidc+code' }); // both factors: the provider, then a code
  });

  it('are not asked again when the provider asserts a second factor (amr mfa)', async () => {
    const account = await accountWithTwoFactors();
    idp.nextLogin(account.sub, { amr: ['pwd', 'otp', 'mfa'] });
    const res = await platformSignIn('oidc');
    expect(res.headers.location).toBe('/dashboard');
    expect((await me(cookieOf(res, 'access_token')!)).id).toBe(account.userId);
  });
});

describe('the rules of a password sign-in', () => {
  it('apply: a deactivated account is refused', async () => {
    const email = uniqueEmail('deactivated');
    const githubId = gitHubUser(email);
    const first = await platformSignIn('github');
    const userId = (await me(cookieOf(first, 'access_token')!)).id;
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', userId).execute();
    github.nextLogin(githubId);
    const refused = await platformSignIn('github');
    expect(redirectOf(refused).searchParams.get('social_error')).toBe('account_inactive');
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('user_id', '=', userId).where('success', '=', 0).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ failure_reason: 'account_inactive', method: 'github' });
  });

  it('apply: a blocked device is refused', async () => {
    const email = uniqueEmail('blocked-device');
    const githubId = gitHubUser(email);
    const first = await platformSignIn('github', '?device_fingerprint=fp-to-block');
    const userId = (await me(cookieOf(first, 'access_token')!)).id;
    await t.db.updateTable('devices').set({ is_blocked: 1 }).where('user_id', '=', userId).execute();
    github.nextLogin(githubId);
    const refused = await platformSignIn('github', '?device_fingerprint=fp-to-block');
    expect(redirectOf(refused).searchParams.get('social_error')).toBe('device_blocked');
    expect(cookieOf(refused, 'access_token')).toBeUndefined();
  });

  it('apply: with a captcha configured, a start without a solved one is refused', async () => {
    const guarded = await createTestApp({
      env: { CAPTCHA_PROVIDER: 'altcha', ...gitHubEnv() },
    });
    try {
      const res = await guarded.call('GET', '/api/v1/auth/oauth/github/authorize');
      expect(res.statusCode).toBe(302);
      expect(redirectOf(res).searchParams.get('social_error')).toBe('captcha_failed');
    } finally {
      await guarded.close();
    }
  });

  it('apply: the per-address sign-in limit', async () => {
    const limited = await createTestApp({
      limits: { loginPerIp: { points: 1, durationS: 60 } },
      env: gitHubEnv(),
    });
    try {
      const ip = uniqueIp();
      const signIn = async () => {
        const res = await limited.call('GET', '/api/v1/auth/oauth/github/authorize', { ip });
        const back = await throughProvider(new URL(res.headers.location as string), PLATFORM_CALLBACK('github'));
        const state = res.cookies.find((cookie) => cookie.name === 'oauth_state')!.value;
        return limited.call('GET', `${back.pathname}${back.search}`, { cookies: { oauth_state: state }, ip });
      };
      const githubId = gitHubUser(uniqueEmail('limited'));
      expect(cookieOf(await signIn(), 'access_token')).toBeTruthy();
      github.nextLogin(githubId);
      expect(redirectOf(await signIn()).searchParams.get('social_error')).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});

describe("a project's end users", () => {
  let developer: { access_token: string };
  let project: { id: string; project_key: string };
  let apiKey: string;
  const hostedCallback = (provider: string) => `${APP_URL}/hosted/${project.project_key}/api/v1/auth/oauth/${provider}/callback`;

  beforeAll(async () => {
    developer = await t.signUpAndLogIn(uniqueEmail('connections-dev'));
    const created = await t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: 'Shop', redirect_uris: [APP_CALLBACK] } });
    project = created.json();
    apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'backend' } })).json().secret;
    github.addClient({ client_id: 'shop-github', client_secret: 'shop-github-secret' });
    await idp.addClient({ client_id: 'shop-google', client_secret: 'shop-google-secret', redirect_uris: [hostedCallback('google')], token_endpoint_auth_method: 'client_secret_post' });
  });

  const save = (provider: string, body: Record<string, unknown>, token = developer.access_token) =>
    t.call('PUT', `/api/v1/projects/${project.id}/connections/${provider}`, { token, body });

  it('are offered the connections their developer saves; the secret is sealed and never shown', async () => {
    expect((await t.call('GET', `/hosted/${project.project_key}/api/v1/auth/oauth/providers`)).json()).toEqual({ providers: [] });

    const saved = await save('github', {
      client_id: 'shop-github',
      client_secret: 'shop-github-secret',
      authorize_url: github.authorizeUrl,
      token_url: github.tokenUrl,
      api_url: `${github.apiBaseUrl}/`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ provider: 'github', name: 'GitHub', client_id: 'shop-github', api_url: github.apiBaseUrl, enabled: true, callback_url: hostedCallback('github') });
    expect(saved.body).not.toContain('shop-github-secret');
    const row = await t.db.selectFrom('project_connections').select('client_secret').where('project_id', '=', project.id).executeTakeFirstOrThrow();
    expect(row.client_secret).not.toContain('shop-github-secret');

    // A change without a secret keeps the stored one.
    expect((await save('google', { client_id: 'shop-google', client_secret: 'shop-google-secret', issuer: idp.issuer })).statusCode).toBe(200);
    expect((await save('google', { client_id: 'shop-google', issuer: idp.issuer })).statusCode).toBe(200);

    const listed = await t.call('GET', `/api/v1/projects/${project.id}/connections`, { token: developer.access_token });
    expect(listed.json().connections.map((connection: { provider: string }) => connection.provider)).toEqual(['github', 'google']);
    expect(listed.body).not.toContain('secret-');
    expect((await t.call('GET', `/hosted/${project.project_key}/api/v1/auth/oauth/providers`)).json().providers.map((p: { id: string }) => p.id)).toEqual(['github', 'google']);
    const publicList = await t.call('GET', '/public/api/v1/auth/oauth/providers', { headers: { 'x-api-key': apiKey } });
    expect(publicList.json().providers.map((p: { id: string }) => p.id)).toEqual(['github', 'google']);
  });

  it("refuse bad connection settings with a detail, and another developer's changes", async () => {
    const noSecret = await save('microsoft', { client_id: 'x' });
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.json().detail).toBe('client_secret is required');
    const noIssuer = await save('oidc', { client_id: 'x', client_secret: 'y' });
    expect(noIssuer.statusCode).toBe(422);
    expect(noIssuer.json().detail).toMatch(/issuer is required/);
    const badUrl = await save('github', { client_id: 'x', client_secret: 'y', token_url: 'javascript:alert(1)' });
    expect(badUrl.statusCode).toBe(422);
    expect(badUrl.json().detail).toMatch(/token_url/);
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    expect((await save('github', { client_id: 'x', client_secret: 'y' }, stranger.access_token)).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/v1/projects/${project.id}/connections/github`, { token: stranger.access_token })).statusCode).toBe(404);
  });

  it('sign in on the hosted pages into their own account, apart from the developer accounts', async () => {
    const email = uniqueEmail('hosted-gh');
    const githubId = gitHubUser(email);
    // The same GitHub user as a developer first: a separate account.
    const platform = await platformSignIn('github');
    const developerAccount = await me(cookieOf(platform, 'access_token')!);
    github.nextLogin(githubId);

    const ip = uniqueIp();
    const started = await start(`/hosted/${project.project_key}/api/v1/auth/oauth/github/authorize?return_to=/hosted/${project.project_key}/account`, { ip });
    expect(started.providerUrl.searchParams.get('client_id')).toBe('shop-github');
    const back = await throughProvider(started.providerUrl, hostedCallback('github'));
    const res = await callback(back, { stateCookie: started.stateCookie, ip });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/hosted/${project.project_key}/account`);
    const hostedAccess = cookieOf(res, 'hosted_access_token')!;
    expect(res.cookies.find((cookie) => cookie.name === 'hosted_access_token')!.path).toBe(`/hosted/${project.project_key}`);
    const profile = await t.call('GET', `/hosted/${project.project_key}/api/v1/profile`, { cookies: { hosted_access_token: hostedAccess } });
    expect(profile.json()).toMatchObject({ email });
    expect(profile.json().id).not.toBe(developerAccount.id);
    const endUser = await t.db.selectFrom('users').select('project_id').where('id', '=', profile.json().id).executeTakeFirstOrThrow();
    expect(endUser.project_id).toBe(project.id);
  });

  it('wait for a verified address when the project keeps unverified end users out', async () => {
    const settings = (body: unknown) => t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: developer.access_token, body });
    expect((await settings({ allow_unverified_sign_in: false })).statusCode).toBe(200);
    try {
      const email = uniqueEmail('hosted-unverified');
      const signIn = async () => {
        const ip = uniqueIp();
        const started = await start(`/hosted/${project.project_key}/api/v1/auth/oauth/github/authorize`, { ip });
        return callback(await throughProvider(started.providerUrl, hostedCallback('github')), { stateCookie: started.stateCookie, ip });
      };
      const before = t.mail.messages.length;
      gitHubUser(email, false);
      const refused = await signIn();
      expect(redirectOf(refused).searchParams.get('social_error')).toBe('email_unverified');
      expect(cookieOf(refused, 'hosted_access_token')).toBeUndefined();
      const attempt = await t.db.selectFrom('login_attempts').select(['success', 'failure_reason', 'method']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(attempt).toEqual({ success: 0, failure_reason: 'email_unverified', method: 'github' });

      // The account was made and our link mailed: once it is opened, the same GitHub user gets in.
      const mail = await t.mail.waitFor(email, /verify/i, { after: before });
      const token = new URL(mail.link!).searchParams.get('token');
      expect((await t.call('POST', `/hosted/${project.project_key}/api/v1/auth/verify-email`, { body: { token } })).statusCode).toBe(200);
      github.nextLogin(nextGitHubId);
      expect(cookieOf(await signIn(), 'hosted_access_token')).toBeDefined();
    } finally {
      await settings({ allow_unverified_sign_in: true });
    }
  });

  it("sign in to the developer's app through the project's OpenID Connect provider with GitHub on the hosted sign-in page", async () => {
    const email = uniqueEmail('oidc-app-gh');
    gitHubUser(email);
    const verifier = 'a-pkce-verifier-of-the-app-that-is-long-enough-0123456789';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = `/hosted/${project.project_key}/authorize?${new URLSearchParams({
      client_id: project.project_key,
      redirect_uri: APP_CALLBACK,
      response_type: 'code',
      scope: 'openid email',
      state: 'app-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`;
    const ip = uniqueIp();
    const toSignIn = redirectOf(await t.call('GET', authorize, { ip }));
    expect(toSignIn.pathname).toBe(`/hosted/${project.project_key}/sign-in`);
    // The hosted sign-in page comes back to the waiting request after the provider.
    const continueAt = `/hosted/${project.project_key}/authorize/continue?interaction=${toSignIn.searchParams.get('interaction')}`;
    const started = await start(`/hosted/${project.project_key}/api/v1/auth/oauth/github/authorize?return_to=${encodeURIComponent(continueAt)}`, { ip });
    const back = await throughProvider(started.providerUrl, hostedCallback('github'));
    const signedIn = await callback(back, { stateCookie: started.stateCookie, ip });
    expect(signedIn.headers.location).toBe(continueAt);
    const atApp = redirectOf(await t.call('GET', continueAt, { ip, cookies: { hosted_access_token: cookieOf(signedIn, 'hosted_access_token')! } }));
    expect(`${atApp.origin}${atApp.pathname}`).toBe(APP_CALLBACK);
    expect(atApp.searchParams.get('state')).toBe('app-state');

    const token = await t.call('POST', `/projects/${project.project_key}/oauth/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: project.project_key, code: atApp.searchParams.get('code')!, redirect_uri: APP_CALLBACK, code_verifier: verifier }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const idToken = JSON.parse(Buffer.from(token.json().id_token.split('.')[1], 'base64url').toString());
    expect(idToken).toMatchObject({ email, amr: ['fed'] });
  });

  it("refuse a return_to outside the project's hosted pages", async () => {
    gitHubUser(uniqueEmail('hosted-return'));
    const res = await t.call('GET', `/hosted/${project.project_key}/api/v1/auth/oauth/github/authorize?return_to=/dashboard`);
    const started = new URL(res.headers.location as string);
    const back = await throughProvider(started, hostedCallback('github'));
    const done = await callback(back, { stateCookie: res.cookies.find((cookie) => cookie.name === 'oauth_state')!.value });
    expect(done.headers.location).toBe(`/hosted/${project.project_key}/account`);
  });

  it("sign in through the public API: the backend's redirect gets a one-time code, exchanged for the login answer", async () => {
    const email = uniqueEmail('api-google');
    idp.nextLogin(oidcUser(email));
    const startRes = await t.call('GET', `/public/api/v1/auth/oauth/google/authorize?redirect_uri=${encodeURIComponent(APP_CALLBACK)}&state=backend-state-123`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(startRes.statusCode, startRes.body).toBe(200);
    const providerUrl = new URL(startRes.json().authorization_url);
    expect(providerUrl.origin).toBe(new URL(idp.issuer).origin);
    const back = await throughProvider(providerUrl, hostedCallback('google'));
    // The browser comes back without any cookie of ours.
    const res = await callback(back, {});
    const atApp = redirectOf(res);
    expect(`${atApp.origin}${atApp.pathname}`).toBe(APP_CALLBACK);
    expect(atApp.searchParams.get('state')).toBe('backend-state-123');
    const code = atApp.searchParams.get('code')!;

    const exchanged = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': apiKey }, body: { code } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.json()).toMatchObject({ token_type: 'bearer', user: { email, is_verified: true } });
    const profile = await t.call('GET', '/public/api/v1/profile', { headers: { 'x-api-key': apiKey }, token: exchanged.json().access_token });
    expect(profile.json().email).toBe(email);

    const again = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': apiKey }, body: { code } });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe('Invalid or expired code');
  });

  it('keep a one-time code for its minute even when the sign-in came back at the end of its 10: the sweep of expired sign-ins leaves it', async () => {
    const email = uniqueEmail('api-late');
    idp.nextLogin(oidcUser(email));
    const startRes = await t.call('GET', `/public/api/v1/auth/oauth/google/authorize?redirect_uri=${encodeURIComponent(APP_CALLBACK)}&state=late-backend-state`, { headers: { 'x-api-key': apiKey } });
    expect(startRes.statusCode, startRes.body).toBe(200);
    clock.advance(10 * 60 - 5);
    const code = redirectOf(await callback(await throughProvider(new URL(startRes.json().authorization_url), hostedCallback('google')), {})).searchParams.get('code')!;
    expect(code).toEqual(expect.any(String));
    clock.advance(30);
    await sweepExpiredWaiting(t.deps);
    const exchanged = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': apiKey }, body: { code } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.json()).toMatchObject({ user: { email } });
  });

  it('refuse an unregistered redirect URI, and hand a cancel back to the backend as an error', async () => {
    const unregistered = await t.call('GET', `/public/api/v1/auth/oauth/google/authorize?redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=backend-state-123`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(unregistered.statusCode).toBe(400);
    expect(unregistered.json().detail).toMatch(/redirect_uri/);
    expect((await t.call('GET', '/public/api/v1/auth/oauth/google/authorize?redirect_uri=x&state=s', { headers: { 'x-api-key': apiKey } })).statusCode).toBe(422);

    idp.nextOutcome({ error: 'access_denied' });
    const started = await t.call('GET', `/public/api/v1/auth/oauth/google/authorize?redirect_uri=${encodeURIComponent(APP_CALLBACK)}&state=backend-state-456`, {
      headers: { 'x-api-key': apiKey },
    });
    const back = await throughProvider(new URL(started.json().authorization_url), hostedCallback('google'));
    const atApp = redirectOf(await callback(back, {}));
    expect(atApp.searchParams.get('error')).toBe('access_denied');
    expect(atApp.searchParams.get('state')).toBe('backend-state-456');
    expect(atApp.searchParams.get('code')).toBeNull();
  });

  it("are not a way into the server's own network: without CONNECTIONS_ALLOW_PRIVATE, a connection reaches public addresses only", async () => {
    const strict = await createTestApp();
    try {
      const owner = await strict.signUpAndLogIn(uniqueEmail('strict-dev'));
      const created = (await strict.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Strict' } })).json();
      const saveHere = (body: Record<string, unknown>) => strict.call('PUT', `/api/v1/projects/${created.id}/connections/oidc`, { token: owner.access_token, body: { client_id: 'c', client_secret: 's', ...body } });
      for (const issuer of [idp.issuer, 'https://localhost/sso', 'https://10.1.2.3/sso', 'https://169.254.169.254/latest', 'https://[::1]/sso']) {
        const refused = await saveHere({ issuer });
        expect(refused.statusCode, issuer).toBe(422);
        expect(refused.json().detail).toBe('issuer must be a public address: this server does not reach providers on private or local networks');
      }
      expect((await saveHere({ issuer: 'http://sso.example.com' })).json().detail).toBe('issuer must be an https URL');

      // A name that resolves to a private address is refused when connecting (here: stored behind the check's back).
      expect((await saveHere({ issuer: 'https://sso.example.com' })).statusCode).toBe(200);
      await strict.db.updateTable('project_connections').set({ issuer: idp.issuer.replace('127.0.0.1', 'localhost') }).where('project_id', '=', created.id).execute();
      const asked = idp.requests.length;
      const res = await strict.call('GET', `/hosted/${created.project_key}/api/v1/auth/oauth/oidc/authorize`);
      expect(redirectOf(res).searchParams.get('social_error')).toBe('provider_error');
      expect(idp.requests.length).toBe(asked);
    } finally {
      await strict.close();
    }
  });

  it('stop being offered once the connection is removed', async () => {
    const removed = await t.call('DELETE', `/api/v1/projects/${project.id}/connections/google`, { token: developer.access_token });
    expect(removed.statusCode).toBe(200);
    expect((await t.call('GET', `/hosted/${project.project_key}/api/v1/auth/oauth/providers`)).json().providers.map((p: { id: string }) => p.id)).toEqual(['github']);
    expect((await t.call('DELETE', `/api/v1/projects/${project.id}/connections/google`, { token: developer.access_token })).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, VALIDATION } from '../../shared/messages.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * Changing the account's e-mail address, for developers (/api/v1, tRPC) and a project's end users
 * (/public/api/v1 with X-API-Key): the request needs the password and never tells whether the new
 * address is taken; the link mailed to the new address (1 hour, once) makes the change.
 */
const clock = manualClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

interface Realm {
  name: string;
  prefix: string;
  headers: Record<string, string>;
  /** Where the realm's mail links point. */
  linkBase: string;
  /** A signed-in account of the realm. */
  account(tag: string): Promise<{ email: string; access_token: string; refresh_token: string }>;
}

const PLATFORM: Realm = {
  name: 'platform',
  prefix: '/api/v1',
  headers: {},
  linkBase: APP_URL,
  async account(tag) {
    const email = uniqueEmail(tag);
    return { email, ...(await t.signUpAndLogIn(email)) };
  },
};

/** A project whose end users sign up and in through the public API; its mail links point at its website. */
async function projectRealm(): Promise<Realm> {
  const owner = await PLATFORM.account('owner');
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Shop', website_url: 'https://shop.example/app' } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json().secret;
  const headers = { 'x-api-key': key };
  return {
    name: 'project',
    prefix: '/public/api/v1',
    headers,
    linkBase: 'https://shop.example/app',
    async account(tag) {
      const email = uniqueEmail(tag);
      expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(201);
      const login = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
      expect(login.statusCode).toBe(200);
      return { email, ...login.json() };
    },
  };
}

const post = (realm: Realm, path: string, body: unknown, token?: string) =>
  t.call('POST', `${realm.prefix}${path}`, { body, token, headers: realm.headers, ip: uniqueIp() });
const requestChange = (realm: Realm, token: string, newEmail: string, password = STRONG_PASSWORD) =>
  post(realm, '/auth/change-email', { new_email: newEmail, password }, token);
const confirmChange = (realm: Realm, token: string, accessToken?: string) => post(realm, '/auth/confirm-email-change', { token }, accessToken);
const me = (realm: Realm, accessToken: string) =>
  t.call('GET', realm.name === 'platform' ? '/api/v1/auth/me' : '/public/api/v1/profile', { token: accessToken, headers: realm.headers });
const logIn = (realm: Realm, email: string, password = STRONG_PASSWORD) => post(realm, '/auth/login', { email, password });

/** The confirmation link mailed to `to` after `before` messages; checks where it points and answers its token. */
async function linkTokenFor(realm: Realm, to: string, before: number): Promise<string> {
  const mail = await t.mail.waitFor(to, /Confirm your new email address/, { after: before });
  expect(mail.link!.startsWith(`${realm.linkBase}/confirm-email-change?token=`), mail.link!).toBe(true);
  return new URL(mail.link!).searchParams.get('token')!;
}

describe.each([
  ['platform', async () => PLATFORM],
  ['project', projectRealm],
])('changing the address (%s)', (_name, makeRealm) => {
  let realm: Realm;
  beforeAll(async () => {
    realm = await makeRealm();
  });

  it('mails a link to the new address and a notice to the old; the link moves the account, which then signs in with the new address only', async () => {
    const account = await realm.account('mover');
    const newEmail = uniqueEmail('moved');
    const before = t.mail.messages.length;
    const res = await requestChange(realm, account.access_token, newEmail.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.emailChangeRequested });
    const token = await linkTokenFor(realm, newEmail, before);
    const requested = await t.mail.waitFor(account.email, /Email change requested/, { after: before });
    expect(requested.text).toContain(newEmail);
    // Nothing changes until the link is used.
    expect((await me(realm, account.access_token)).json().email).toBe(account.email);

    const confirmed = await confirmChange(realm, token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: MESSAGES.emailChanged });
    const changedNotice = await t.mail.waitFor(account.email, /Your email address was changed/, { after: before });
    expect(changedNotice.text).toContain(newEmail);

    expect((await logIn(realm, account.email)).statusCode).toBe(401);
    const signedIn = await logIn(realm, newEmail);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({ email: newEmail, is_verified: true });
  });

  it('answers exactly the same for a taken address as for a free one; the taken one gets a notice and no link', async () => {
    const account = await realm.account('prober');
    const other = await realm.account('taken');
    const free = uniqueEmail('free');
    const before = t.mail.messages.length;
    const forFree = await requestChange(realm, account.access_token, free);
    const forTaken = await requestChange(realm, account.access_token, other.email);
    expect(forTaken.statusCode).toBe(forFree.statusCode);
    expect(forTaken.body).toBe(forFree.body);
    expect(forTaken.headers['content-length']).toBe(forFree.headers['content-length']);

    await linkTokenFor(realm, free, before);
    const notice = await t.mail.waitFor(other.email, /Someone tried to move an account to your email/, { after: before });
    expect(notice.link).toBeNull();
    expect(notice.text).not.toMatch(/token=/);
    await t.mailSettled();
    expect(t.mail.to(other.email).filter((m) => /Confirm your new email address/.test(m.subject))).toEqual([]);
    // The old address is told about both requests.
    expect(t.mail.messages.slice(before).filter((m) => m.to === account.email && /Email change requested/.test(m.subject))).toHaveLength(2);
  });

  it('checks the current password when given (401) and needs a different address (422); a wrong password sends nothing', async () => {
    const account = await realm.account('guarded');
    const newEmail = uniqueEmail('never');
    const before = t.mail.messages.length;
    const wrong = await requestChange(realm, account.access_token, newEmail, 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
    const same = await requestChange(realm, account.access_token, `  ${account.email.toUpperCase()} `);
    expect(same.statusCode).toBe(422);
    expect(same.json()).toEqual({ detail: VALIDATION.emailUnchanged });
    expect((await post(realm, '/auth/change-email', { new_email: 'not-an-address', password: STRONG_PASSWORD }, account.access_token)).json()).toEqual({
      detail: VALIDATION.emailInvalid,
    });
    // An empty password is no proof (without the field, the session's own recent proof counts: tests/api/step-up.test.ts).
    expect((await post(realm, '/auth/change-email', { new_email: newEmail, password: '' }, account.access_token)).json()).toEqual({ detail: VALIDATION.currentPasswordRequired });
    expect((await post(realm, '/auth/change-email', { new_email: newEmail, password: STRONG_PASSWORD })).statusCode).toBe(401);
    await t.mailSettled();
    expect(t.mail.to(newEmail)).toEqual([]);
    expect(t.mail.messages.slice(before).filter((m) => m.to === account.email && /email change/i.test(m.subject))).toEqual([]);
  });

  it('the link works once; an unknown link is 400', async () => {
    const account = await realm.account('once');
    const newEmail = uniqueEmail('once-new');
    const before = t.mail.messages.length;
    await requestChange(realm, account.access_token, newEmail);
    const token = await linkTokenFor(realm, newEmail, before);
    expect((await confirmChange(realm, token)).statusCode).toBe(200);
    const again = await confirmChange(realm, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: MESSAGES.emailChangeLinkUsed });
    const unknown = await confirmChange(realm, 'no-such-token');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ detail: VALIDATION.emailChangeLinkInvalid });
    expect((await post(realm, '/auth/confirm-email-change', {}, undefined)).json()).toEqual({ detail: VALIDATION.emailChangeLinkInvalid });
  });

  it('the link expires after 1 hour', async () => {
    const slow = await realm.account('slow');
    const quick = await realm.account('quick');
    const late = uniqueEmail('late');
    const onTime = uniqueEmail('on-time');
    const before = t.mail.messages.length;
    await requestChange(realm, slow.access_token, late);
    await requestChange(realm, quick.access_token, onTime);
    const lateToken = await linkTokenFor(realm, late, before);
    const onTimeToken = await linkTokenFor(realm, onTime, before);
    clock.advance(60 * 60 - 5);
    expect((await confirmChange(realm, onTimeToken)).statusCode).toBe(200);
    clock.advance(10);
    const expired = await confirmChange(realm, lateToken);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ detail: MESSAGES.emailChangeLinkExpired });
    expect((await logIn(realm, slow.email)).statusCode).toBe(200);
  });

  it('an address taken between the request and the link is 409, and the account keeps its address', async () => {
    const account = await realm.account('raced');
    const contested = uniqueEmail('contested');
    const before = t.mail.messages.length;
    await requestChange(realm, account.access_token, contested);
    const token = await linkTokenFor(realm, contested, before);
    expect((await post(realm, '/auth/signup', { email: contested, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const res = await confirmChange(realm, token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: MESSAGES.emailTaken });
    expect((await me(realm, account.access_token)).json().email).toBe(account.email);
    expect((await logIn(realm, account.email)).statusCode).toBe(200);
  });

  it("confirming with a session keeps that one and revokes the account's others; without one, all of them", async () => {
    const account = await realm.account('sessions');
    const second = (await logIn(realm, account.email)).json();
    const third = (await logIn(realm, account.email)).json();

    const first = uniqueEmail('first-move');
    let before = t.mail.messages.length;
    await requestChange(realm, account.access_token, first);
    expect((await confirmChange(realm, await linkTokenFor(realm, first, before), account.access_token)).statusCode).toBe(200);
    expect((await me(realm, account.access_token)).json().email).toBe(first);
    expect((await me(realm, second.access_token)).statusCode).toBe(401);
    expect((await post(realm, '/auth/refresh', { refresh_token: third.refresh_token })).statusCode).toBe(401);

    const secondMove = uniqueEmail('second-move');
    before = t.mail.messages.length;
    await requestChange(realm, account.access_token, secondMove);
    expect((await confirmChange(realm, await linkTokenFor(realm, secondMove, before))).statusCode).toBe(200);
    expect((await me(realm, account.access_token)).statusCode).toBe(401);
  });

  it('ends pending password-reset links of the account', async () => {
    const account = await realm.account('pending');
    let before = t.mail.messages.length;
    await post(realm, '/auth/forgot-password', { email: account.email });
    const resetToken = new URL((await t.mail.waitFor(account.email, /Reset your \w+ password/, { after: before })).link!).searchParams.get('token');
    const moved = uniqueEmail('pending-new');
    before = t.mail.messages.length;
    await requestChange(realm, account.access_token, moved);
    expect((await confirmChange(realm, await linkTokenFor(realm, moved, before))).statusCode).toBe(200);
    expect((await post(realm, '/auth/reset-password', { token: resetToken, new_password: 'Another-Horse-43' })).statusCode).toBe(400);
  });
});

describe('between realms and transports', () => {
  it("a link of one realm does not work in another, and the same address may be taken on the platform but free in a project", async () => {
    const shop = await projectRealm();
    const developer = await PLATFORM.account('developer');
    const endUser = await shop.account('end-user');
    const before = t.mail.messages.length;
    // The developer's address is free in the shop's realm: the end user gets a link, not a notice.
    expect((await requestChange(shop, endUser.access_token, developer.email)).statusCode).toBe(200);
    const token = await linkTokenFor(shop, developer.email, before);
    expect((await confirmChange(PLATFORM, token)).statusCode).toBe(400);
    expect((await confirmChange(shop, token, endUser.access_token)).statusCode).toBe(200);
    expect((await me(shop, endUser.access_token)).json().email).toBe(developer.email);
    expect((await me(PLATFORM, developer.access_token)).json().email).toBe(developer.email);
  });

  it('over tRPC: auth.changeEmail and auth.confirmEmailChange, and the tab that confirms stays signed in', async () => {
    const account = await PLATFORM.account('browser');
    const tab = t.trpc({ ip: uniqueIp() });
    await tab.api.auth.logIn.mutate({ email: account.email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    expect(await trpcFailure(tab.api.auth.changeEmail.mutate({ new_email: uniqueEmail('x'), password: 'Wrong-Password-1' }))).toMatchObject({
      status: 401,
      message: 'Incorrect password',
    });
    expect(await trpcFailure(tab.api.auth.changeEmail.mutate({ new_email: account.email, password: STRONG_PASSWORD }))).toMatchObject({
      status: 422,
      message: VALIDATION.emailUnchanged,
    });
    const newEmail = uniqueEmail('browser-new');
    const before = t.mail.messages.length;
    expect(await tab.api.auth.changeEmail.mutate({ new_email: newEmail, password: STRONG_PASSWORD })).toEqual({ message: MESSAGES.emailChangeRequested });
    const token = await linkTokenFor(PLATFORM, newEmail, before);
    expect(await tab.api.auth.confirmEmailChange.mutate({ token })).toEqual({ message: MESSAGES.emailChanged });
    expect((await tab.api.auth.me.query()).email).toBe(newEmail);
    // The REST session of the same account was another session: revoked.
    expect((await me(PLATFORM, account.access_token)).statusCode).toBe(401);
    expect(await trpcFailure(t.trpc().api.auth.confirmEmailChange.mutate({ token }))).toMatchObject({ status: 400, message: MESSAGES.emailChangeLinkUsed });
  });

  it('mail caps: a new address receives at most 5 change mails an hour, and the answer does not change', async () => {
    const target = uniqueEmail('flooded');
    const before = t.mail.messages.length;
    for (let i = 0; i < 2; i++) {
      const account = await PLATFORM.account(`flooder-${i}`);
      for (let j = 0; j < 3; j++) {
        const res = await requestChange(PLATFORM, account.access_token, target);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: MESSAGES.emailChangeRequested });
      }
    }
    await t.mail.waitFor(target, undefined, { after: before });
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((m) => m.to === target)).toHaveLength(5);
  });

  it('one account asks for at most 5 changes an hour (429 past it)', async () => {
    const account = await PLATFORM.account('eager');
    for (let i = 0; i < 5; i++) expect((await requestChange(PLATFORM, account.access_token, uniqueEmail('eager-new'))).statusCode).toBe(200);
    const refused = await requestChange(PLATFORM, account.access_token, uniqueEmail('eager-new'));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeTruthy();
  });
});

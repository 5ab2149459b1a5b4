import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERACTION_TTL_S } from '../../server/modules/oidc/oidc.service.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { APP_CALLBACK, HostedBrowser, exchangeAtApp, hostedProject, type HostedProject } from '../helpers/hosted-browser.js';

/**
 * Issue 25, never stranded: an app's sign-in (a waiting OpenID Connect request) survives the detours
 * through a mailbox. The mailed link carries it, bound to the account and the browser that asked:
 * opened there it signs in and the app gets its code; opened in another browser it proves the address
 * and the password is asked there; a reset signs in with the new password anywhere; two factors are
 * still asked; a sign-in that is over says so and offers the way back to the app.
 */

const clock = { offsetS: 0, now: () => new Date(Date.now() + clock.offsetS * 1000) };
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

let t: TestApp;
let shop: HostedProject;

beforeAll(async () => {
  t = await createTestApp({ clock });
  shop = await hostedProject(t, { website_url: 'https://shop.example' });
});
afterAll(() => t.close());

const linkToken = (link: string) => new URL(link).searchParams.get('token')!;

/** Signs up on the hosted page of an app's sign-in; answers the mailed link. */
async function signUpDuringAppSignIn(browser: HostedBrowser, email: string, interaction: string): Promise<URL> {
  const before = t.mail.messages.length;
  const signup = await browser.api('/auth/signup', { email, password: STRONG_PASSWORD, first_name: 'Grace', interaction });
  expect(signup.statusCode, signup.body).toBe(201);
  return new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!);
}

describe('the verification link of a sign-up made during an app sign-in', () => {
  it('carries only its token, and in the browser that signed up it signs in and the app gets its code', async () => {
    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    const email = uniqueEmail('journey');
    const link = await signUpDuringAppSignIn(browser, email, started.interaction);
    expect([...link.searchParams.keys()]).toEqual(['token']);
    expect(link.href).toContain(`/hosted/${shop.key}/verify-email`);

    // A new tab of the same browser: the flow cookie the sign-up set comes along.
    const verified = await browser.api('/auth/verify-email', { token: linkToken(link.href) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().next).toEqual({ kind: 'signed_in', interaction: started.interaction, return_to: null });
    expect(browser.signedIn()).toBe(true);

    const back = await browser.continueAppSignIn(started.interaction);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(new RegExp(`^${APP_CALLBACK}\\?code=`));
    const claims = await exchangeAtApp(t, shop, back.headers.location as string, started.verifier);
    expect(claims).toMatchObject({ email, email_verified: true, amr: ['email'] });
  });

  it('in another browser proves the address only: the password is asked there, then the app gets its code', async () => {
    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    const email = uniqueEmail('journey-other');
    const link = await signUpDuringAppSignIn(browser, email, started.interaction);

    const elsewhere = new HostedBrowser(t, shop);
    const verified = await elsewhere.api('/auth/verify-email', { token: linkToken(link.href) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().next).toEqual({ kind: 'sign_in', email, interaction: started.interaction, return_to: null });
    expect(elsewhere.signedIn()).toBe(false);
    // Without a session there, the request only goes back to the sign-in page.
    expect((await elsewhere.continueAppSignIn(started.interaction)).headers.location).toContain(`/hosted/${shop.key}/sign-in?interaction=`);

    expect((await elsewhere.logIn(email)).statusCode).toBe(200);
    const back = await elsewhere.continueAppSignIn(started.interaction);
    expect(back.headers.location).toMatch(new RegExp(`^${APP_CALLBACK}\\?code=`));
    expect(await exchangeAtApp(t, shop, back.headers.location as string, started.verifier)).toMatchObject({ email, amr: ['pwd'] });
  });

  it('of another attempt than the owner’s still signs nobody in where it is opened', async () => {
    // Someone signs up first with the owner's address, during an app sign-in of their own.
    const intruder = new HostedBrowser(t, shop);
    const intruderFlow = await intruder.startAppSignIn();
    const email = uniqueEmail('journey-victim');
    const intruderLink = await signUpDuringAppSignIn(intruder, email, intruderFlow.interaction);

    // The owner opens that (intruder's) link in their own browser: the address is verified, nobody is signed in.
    const owner = new HostedBrowser(t, shop);
    const verified = await owner.api('/auth/verify-email', { token: linkToken(intruderLink.href) });
    expect(verified.json().next.kind).toBe('sign_in');
    expect(owner.signedIn()).toBe(false);
    expect(intruder.signedIn()).toBe(false);
  });

  it('resent from the "check your e-mail" page carries the sign-in too', async () => {
    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    const email = uniqueEmail('journey-resend');
    await signUpDuringAppSignIn(browser, email, started.interaction);
    const before = t.mail.messages.length;
    expect((await browser.api('/auth/resend-verification', { email, interaction: started.interaction })).statusCode).toBe(200);
    const resent = await t.mail.waitFor(email, /verify/i, { after: before });
    const verified = await browser.api('/auth/verify-email', { token: linkToken(resent.link!) });
    expect(verified.json().next).toMatchObject({ kind: 'signed_in', interaction: started.interaction });
  });

  it('continues nothing it was not given: another project’s or a made-up request, or a return_to off the hosted pages', async () => {
    const other = await hostedProject(t);
    const foreign = await new HostedBrowser(t, other).startAppSignIn();
    for (const continuation of [{ interaction: foreign.interaction }, { interaction: 'made-up' }, { return_to: 'https://evil.example/' }, { return_to: `/hosted/${other.key}/account` }]) {
      const browser = new HostedBrowser(t, shop);
      const email = uniqueEmail('journey-foreign');
      const before = t.mail.messages.length;
      expect((await browser.api('/auth/signup', { email, password: STRONG_PASSWORD, ...continuation })).statusCode).toBe(201);
      const link = (await t.mail.waitFor(email, /verify/i, { after: before })).link!;
      expect(browser.cookies.has('hosted_flow')).toBe(false);
      const verified = await browser.api('/auth/verify-email', { token: linkToken(link) });
      expect(verified.json().next, JSON.stringify(continuation)).toBeNull();
      expect(browser.signedIn()).toBe(false);
    }
  });

  it('keeps a return_to of the project’s own hosted pages', async () => {
    const browser = new HostedBrowser(t, shop);
    const email = uniqueEmail('journey-return');
    const before = t.mail.messages.length;
    const returnTo = `/hosted/${shop.key}/account`;
    expect((await browser.api('/auth/signup', { email, password: STRONG_PASSWORD, return_to: returnTo })).statusCode).toBe(201);
    const link = (await t.mail.waitFor(email, /verify/i, { after: before })).link!;
    const verified = await browser.api('/auth/verify-email', { token: linkToken(link) });
    expect(verified.json().next).toEqual({ kind: 'signed_in', interaction: null, return_to: returnTo });
  });

  it('after the app sign-in is over, says so; the expired request offers the way back to the app and a fresh start', async () => {
    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    const email = uniqueEmail('journey-late');
    const link = await signUpDuringAppSignIn(browser, email, started.interaction);
    clock.offsetS += INTERACTION_TTL_S + 1;
    try {
      const verified = await browser.api('/auth/verify-email', { token: linkToken(link.href) });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({ message: expect.any(String), next: { kind: 'expired' } });
      expect(browser.signedIn()).toBe(false);
      const page = await browser.continueAppSignIn(started.interaction);
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('Sign-in request expired');
      expect(page.body).toContain('<a href="https://shop.example" class="primary">Back to Shop</a>');
      expect(page.body).toContain(`href="http://app.test/hosted/${shop.key}/sign-in"`);
    } finally {
      clock.offsetS -= INTERACTION_TTL_S + 1;
    }
  });
});

describe('the reset link of a forgotten password during an app sign-in', () => {
  async function verifiedEndUser(): Promise<string> {
    const email = uniqueEmail('journey-reset');
    const browser = new HostedBrowser(t, shop);
    const before = t.mail.messages.length;
    await browser.api('/auth/signup', { email, password: STRONG_PASSWORD });
    const link = (await t.mail.waitFor(email, /verify/i, { after: before })).link!;
    expect((await browser.api('/auth/verify-email', { token: linkToken(link) })).statusCode).toBe(200);
    return email;
  }

  async function forgotDuringAppSignIn(browser: HostedBrowser, email: string, interaction: string): Promise<string> {
    const before = t.mail.messages.length;
    expect((await browser.api('/auth/forgot-password', { email, interaction })).statusCode).toBe(200);
    return (await t.mail.waitFor(email, /reset/i, { after: before })).link!;
  }

  it('signs in with the new password wherever it is opened, and the app gets its code', async () => {
    const email = await verifiedEndUser();
    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    const link = await forgotDuringAppSignIn(browser, email, started.interaction);
    expect([...new URL(link).searchParams.keys()]).toEqual(['token']);

    const elsewhere = new HostedBrowser(t, shop);
    const reset = await elsewhere.api('/auth/reset-password', { token: linkToken(link), new_password: 'Another-Horse-43' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().next).toEqual({ kind: 'signed_in', interaction: started.interaction, return_to: null });
    const back = await elsewhere.continueAppSignIn(started.interaction);
    expect(await exchangeAtApp(t, shop, back.headers.location as string, started.verifier)).toMatchObject({ email, amr: ['email'] });
  });

  it('asks the second factor of an account with two factors before the app gets anything', async () => {
    const email = await verifiedEndUser();
    const browser = new HostedBrowser(t, shop);
    expect((await browser.logIn(email)).statusCode).toBe(200);
    const setup = await browser.api('/auth/mfa/totp/setup');
    const secret = setup.json().secret as string;
    expect((await browser.api('/auth/mfa/totp/confirm', { code: codeFor(secret) })).statusCode).toBe(200);

    // A fresh browser is the one that forgot its password.
    const fresh = new HostedBrowser(t, shop);
    const flow = await fresh.startAppSignIn();
    const link = await forgotDuringAppSignIn(fresh, email, flow.interaction);
    const reset = await fresh.api('/auth/reset-password', { token: linkToken(link), new_password: 'Another-Horse-43' });
    const next = reset.json().next;
    expect(next).toMatchObject({ kind: 'second_factor', interaction: flow.interaction, challenge: { mfa_required: true } });
    expect(fresh.signedIn()).toBe(false);
    expect((await fresh.continueAppSignIn(flow.interaction)).headers.location).toContain('/sign-in?interaction=');

    clock.offsetS += 30; // the next time step: the code used to turn two factors on works once
    const verified = await fresh.api('/auth/mfa/verify', { mfa_token: next.challenge.mfa_token, code: codeFor(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    const back = await fresh.continueAppSignIn(flow.interaction);
    expect(await exchangeAtApp(t, shop, back.headers.location as string, flow.verifier)).toMatchObject({ email, amr: ['email', 'otp', 'mfa'] });
  });
});

describe('the hosted project', () => {
  it('tells the pages where "Back to the app" goes: the website, else the last redirect URI’s origin', async () => {
    const project = await t.call('GET', `/hosted/${shop.key}/api/v1/project`);
    expect(project.json().app_url).toBe('https://shop.example');
    const withoutWebsite = await hostedProject(t, { redirect_uris: ['https://first.example/cb', 'https://app.shop.example:8443/callback'] });
    expect((await t.call('GET', `/hosted/${withoutWebsite.key}/api/v1/project`)).json().app_url).toBe('https://app.shop.example:8443/');
  });
});

describe('deleting an account', () => {
  it('takes the password, or without one a recent proof (the hosted account page’s step-up)', async () => {
    const email = uniqueEmail('journey-delete');
    const browser = new HostedBrowser(t, shop);
    const before = t.mail.messages.length;
    await browser.api('/auth/signup', { email, password: STRONG_PASSWORD });
    await browser.api('/auth/verify-email', { token: linkToken((await t.mail.waitFor(email, /verify/i, { after: before })).link!) });
    expect((await browser.logIn(email)).statusCode).toBe(200);

    clock.offsetS += 3600;
    try {
      const refused = await browser.api('/auth/delete-account', {});
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ step_up_required: true, step_up_methods: ['password'] });
      expect((await browser.api('/auth/refresh')).statusCode).toBe(200);
      expect((await browser.api('/auth/step-up', { password: STRONG_PASSWORD })).statusCode).toBe(200);
      const deleted = await browser.api('/auth/delete-account', {});
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await browser.logIn(email)).statusCode).toBe(401);
    } finally {
      clock.offsetS -= 3600;
    }
  });
});

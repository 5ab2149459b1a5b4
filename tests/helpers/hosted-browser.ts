import { createHash, randomBytes } from 'node:crypto';
import { STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from './create-test-app.js';

/** A developer's project with the example app's addresses registered, and its hosted pages' key. */
export interface HostedProject {
  id: string;
  key: string;
  ownerToken: string;
}

export const APP_CALLBACK = 'https://shop.example/callback';

export async function hostedProject(t: TestApp, fields: Record<string, unknown> = {}): Promise<HostedProject> {
  const owner = await t.signUpAndLogIn(uniqueEmail('hosted-owner'));
  const created = await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Shop', redirect_uris: [APP_CALLBACK], ...fields } });
  if (created.statusCode !== 201) throw new Error(`project: ${created.statusCode} ${created.body}`);
  const project = created.json();
  return { id: project.id, key: project.project_key, ownerToken: owner.access_token };
}

/**
 * One browser on the hosted pages, over app.inject: it keeps the cookies the server sets (each
 * scoped to the project's path, which every call here is under) and comes from one address.
 */
export class HostedBrowser {
  readonly cookies = new Map<string, string>();
  /** Sent with every request (the browser's Accept-Language, say). */
  readonly headers: Record<string, string> = {};

  constructor(
    private readonly t: TestApp,
    private readonly project: HostedProject,
    readonly ip = uniqueIp(),
  ) {}

  async request(method: 'GET' | 'POST', path: string, body?: unknown) {
    const response = await this.t.call(method, path, { body, ip: this.ip, cookies: Object.fromEntries(this.cookies), headers: this.headers });
    for (const cookie of response.cookies) {
      const cleared = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires instanceof Date && cookie.expires.getTime() < Date.now());
      if (cleared) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  api(path: string, body: unknown = {}) {
    return this.request('POST', `/hosted/${this.project.key}/api/v1${path}`, body);
  }

  signedIn(): boolean {
    return this.cookies.has('hosted_access_token');
  }

  /** The app sends the browser to the authorization endpoint; answers the waiting request's id and the PKCE verifier. */
  async startAppSignIn(): Promise<{ interaction: string; verifier: string; state: string }> {
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const query = new URLSearchParams({
      client_id: this.project.key,
      redirect_uri: APP_CALLBACK,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state,
    });
    const response = await this.request('GET', `/hosted/${this.project.key}/authorize?${query}`);
    if (response.statusCode !== 303) throw new Error(`authorize: ${response.statusCode} ${response.body}`);
    const interaction = new URL(response.headers.location as string).searchParams.get('interaction');
    if (!interaction) throw new Error(`authorize did not wait for a sign-in: ${response.headers.location}`);
    return { interaction, verifier, state };
  }

  /** Back from the hosted pages to the provider: where it sends the browser (the app's callback with a code, or a page). */
  continueAppSignIn(interaction: string) {
    return this.request('GET', `/hosted/${this.project.key}/authorize/continue?interaction=${encodeURIComponent(interaction)}`);
  }

  logIn(email: string, password = STRONG_PASSWORD) {
    return this.api('/auth/login', { email, password });
  }
}

/** The app's backend exchanges the code it was sent (public client with PKCE): the ID token's claims. */
export async function exchangeAtApp(t: TestApp, project: HostedProject, callback: string, verifier: string): Promise<Record<string, unknown>> {
  const code = new URL(callback).searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback}`);
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: project.key, code, redirect_uri: APP_CALLBACK, code_verifier: verifier });
  const response = await t.call('POST', `/projects/${project.key}/oauth/token`, { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
  const idToken = response.json().id_token as string;
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

import { expect } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../../../../tests/helpers/create-test-app.js';
import { freePort } from '../../../../tests/helpers/tcp-probe.js';
import { HttpBrowser } from '../../../../tests/helpers/http-browser.js';

export const APP_ORIGIN = 'https://app.example';
export const APP_CALLBACK = `${APP_ORIGIN}/callback`;

export interface Server {
  t: TestApp;
  appUrl: string;
  clock: { offsetS: number; now(): Date };
  developerToken: string;
}

export interface Project {
  id: string;
  key: string;
  issuer: string;
}

/** The real app on a port, as tests/api/oidc-provider.test.ts starts it, with a developer signed in. */
export async function startServer(): Promise<Server> {
  const clock = { offsetS: 0, now: () => new Date(Date.now() + clock.offsetS * 1000) };
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ clock, env: { APP_URL: appUrl, TRUST_PROXY: '127.0.0.1' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  const developer = await t.signUpAndLogIn(uniqueEmail('dev'));
  return { t, appUrl, clock, developerToken: developer.access_token };
}

export async function createProject(server: Server, name: string): Promise<Project> {
  const created = await server.t.call('POST', '/api/v1/projects', {
    token: server.developerToken,
    body: { name, redirect_uris: [APP_CALLBACK], post_logout_redirect_uris: [`${APP_ORIGIN}/signed-out`], allowed_origins: [APP_ORIGIN] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const project = created.json();
  return { id: project.id, key: project.project_key, issuer: project.issuer };
}

/** The user's browser on the hosted pages: keeps the server's cookies, follows nothing by itself. */
export class HostedBrowser extends HttpBrowser {}

/** An end user of the project, signed up and verified on its hosted pages. */
export async function signUpEndUser(server: Server, project: Project, email: string): Promise<HostedBrowser> {
  const browser = new HostedBrowser(server.appUrl);
  const before = server.t.mail.messages.length;
  const signup = await browser.post(`/hosted/${project.key}/api/v1/auth/signup`, { email, password: STRONG_PASSWORD, first_name: 'Ada', last_name: 'Lovelace' });
  expect(signup.status).toBe(201);
  const mail = await server.t.mail.waitFor(email, /verify/i, { after: before });
  const verified = await browser.post(`/hosted/${project.key}/api/v1/auth/verify-email`, { token: new URL(mail.link!).searchParams.get('token') });
  expect(verified.status).toBe(200);
  return browser;
}

/** The front channel: the authorization URL the client built → hosted sign-in → back at the app's callback with a code. */
export async function hostedSignIn(browser: HostedBrowser, project: Project, email: string, authorizationUrl: string): Promise<string> {
  let next = await browser.location(authorizationUrl);
  if (next.includes(`/hosted/${project.key}/sign-in`)) {
    const login = await browser.post(`/hosted/${project.key}/api/v1/auth/login`, { email, password: STRONG_PASSWORD });
    expect(login.status, await login.clone().text()).toBe(200);
    next = await browser.location(`/hosted/${project.key}/authorize/continue?interaction=${new URL(next).searchParams.get('interaction')}`);
  }
  expect(next.startsWith(APP_CALLBACK), next).toBe(true);
  return next;
}

/**
 * The page's fetch: one browser's address and user agent (the server's reuse window keys on them),
 * counting the token endpoint's refresh calls, and failing the next `failures` calls as a network would.
 */
export function pageFetch() {
  const ip = uniqueIp();
  const counts = { refreshAttempts: 0, refreshAnswered: 0, failures: 0 };
  const wrapped = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = init.body instanceof URLSearchParams ? init.body.toString() : typeof init.body === 'string' ? init.body : '';
    const isRefresh = url.endsWith('/oauth/token') && body.includes('grant_type=refresh_token');
    if (isRefresh) counts.refreshAttempts += 1;
    if (counts.failures > 0 && url.includes('/oauth/')) {
      counts.failures -= 1;
      throw new TypeError('fetch failed');
    }
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', ip);
    headers.set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36');
    const response = await fetch(input, { ...init, headers });
    if (isRefresh) counts.refreshAnswered += 1;
    return response;
  }) as typeof fetch;
  return { fetch: wrapped, counts };
}

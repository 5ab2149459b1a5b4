import { APP_URL, uniqueEmail, uniqueIp, type TestApp } from './create-test-app.js';

/** Where a test reaches an account: a developer's (/api/v1) or a project's end user's (/public/api/v1 with its key). */
export interface AccountRealm {
  prefix: string;
  headers: Record<string, string>;
  /** The passkeys' origin: APP_URL for developers, the project's website for its end users. */
  origin: string;
}

export const PLATFORM_REALM: AccountRealm = { prefix: '/api/v1', headers: {}, origin: APP_URL };

/** A new developer's project with a website (the passkeys' relying party) and an API key: its end users' realm. */
export async function projectRealm(t: TestApp, websiteUrl = 'https://shop.example'): Promise<AccountRealm> {
  const owner = await t.signUpAndLogIn(uniqueEmail('shop-owner'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Shop', website_url: websiteUrl } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  return { prefix: '/public/api/v1', headers: { 'x-api-key': key.secret }, origin: websiteUrl };
}

/** Calls into a realm from one client address (a fresh one unless given). */
export function realmClient(t: TestApp, realm: AccountRealm, ip = uniqueIp()) {
  return {
    post: (path: string, body?: unknown, token?: string) => t.call('POST', `${realm.prefix}${path}`, { body, token, ip, headers: realm.headers }),
    get: (path: string, token?: string) => t.call('GET', `${realm.prefix}${path}`, { token, ip, headers: realm.headers }),
  };
}

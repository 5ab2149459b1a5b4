import type { FastifyRequest } from 'fastify';
import { EndUserHeadersSchema } from './end-user-headers.js';
import type { TokenCookies } from '../plugins/auth-cookies.js';
import { accessTokenOf, TOKEN_COOKIES } from './callers.js';
import type { AccessRealm, RouteDoc } from './route.js';

/**
 * Where the account routes are mounted: the platform's developers (browser cookies or Bearer), a
 * project's end users reached by the developer's backend (X-API-Key), or a project's end users in its
 * hosted pages (the realm from the path, tokens in the hosted pages' own cookies).
 */
export interface AccountMount {
  realm: 'platform' | 'project' | 'hosted';
}
export const PLATFORM_ACCOUNTS: AccountMount = { realm: 'platform' };
export const PROJECT_ACCOUNTS: AccountMount = { realm: 'project' };
export const HOSTED_ACCOUNTS: AccountMount = { realm: 'hosted' };

const MOUNTS = {
  platform: { prefix: '/api/v1', realm: 'platform' },
  project: { prefix: '/public/api/v1', realm: 'apiKey' },
  hosted: { prefix: '/hosted/:project_key/api/v1', realm: 'hosted' },
} as const satisfies Record<AccountMount['realm'], { prefix: string; realm: AccessRealm }>;

/**
 * What a route declared once for every realm needs: its prefix, the access of a caller (signed in,
 * anonymous, or either), where a browser realm keeps its tokens (`cookies`, null on the public API),
 * its document entry (the project's version is tagged Public API and names the end-user headers),
 * and its procedure name, which only the platform's version has (the dashboard calls it).
 */
export function accountMountOf(mount: AccountMount) {
  const { prefix, realm } = MOUNTS[mount.realm];
  const platform = mount.realm === 'platform';
  const cookies: TokenCookies | null = TOKEN_COOKIES[realm];
  return {
    platform,
    prefix,
    signedIn: { realm, session: 'required' } as const,
    anonymous: { realm, session: 'none' } as const,
    optionalSession: { realm, session: 'optional' } as const,
    cookies,
    accessTokenOf: (request: FastifyRequest): string | undefined => accessTokenOf(request, realm),
    doc: (forPlatform: RouteDoc, forProject: Omit<RouteDoc, 'tag'>): RouteDoc =>
      platform ? forPlatform : { ...forProject, tag: 'Public API', headers: EndUserHeadersSchema },
    procedure: <N extends string>(name: N): N | undefined => (platform ? name : undefined),
  };
}

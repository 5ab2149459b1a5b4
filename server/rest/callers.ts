import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { RequestInfo } from '../lib/request-info.js';
import { projectScopeOf, requireAdmin, roleForReading } from '../modules/realms/project-access.js';
import type { ProjectRow } from '../db/schema.js';
import { PLATFORM_SCOPE, type MonitorScope, type Realm } from '../modules/realms/realm.js';
import type { Authenticated } from '../modules/sessions/sessions.service.js';
import type { PortalSession } from '../modules/sso/admin-portal.service.js';
import { HOSTED_COOKIES, hostedProjectKeyOf, PLATFORM_COOKIES, type TokenCookies } from '../plugins/auth-cookies.js';
import { readBearer } from '../lib/bearer.js';
import { dashboardInfoOf, endUserInfoOf, hostedInfoOf } from '../plugins/request-info.js';
import type { ProjectRole } from '../../shared/schemas/teams.js';
import type { AccessRealm, Anonymous, AnyRoute } from './route.js';

/** What a caller may be, once its credentials are checked: every field a route's access can add. */
export type Caller = Anonymous & { session?: Authenticated | null; project?: ProjectRow; scope?: MonitorScope; portal?: PortalSession };

/**
 * How each realm's tokens travel, written once: a Bearer header wins; else the browser realms'
 * HttpOnly cookie (the platform's, or the hosted pages' scoped to the project's path). The public
 * API (X-API-Key) carries end users' tokens in headers only, never cookies.
 */
export const TOKEN_COOKIES: Record<AccessRealm, TokenCookies | null> = { platform: PLATFORM_COOKIES, apiKey: null, hosted: HOSTED_COOKIES, portal: null };

export function accessTokenOf(request: FastifyRequest, realm: AccessRealm): string | undefined {
  if (request.headers.authorization !== undefined) return readBearer(request);
  return TOKEN_COOKIES[realm]?.readAccess(request);
}

/**
 * A caller of `realm`; its client info is worked out on first use, since most handlers never read
 * it. A class rather than an object literal with a getter: building that literal (a fresh closure
 * and accessor per request) cost about as much as a whole bare Fastify request.
 */
class RequestCaller {
  // Set only for the callers that have them: handlers tell the kinds apart with `'project' in caller`.
  declare session?: Caller['session'];
  declare project?: Caller['project'];
  declare scope?: Caller['scope'];
  declare portal?: Caller['portal'];
  #info: RequestInfo | undefined;

  constructor(
    readonly realm: Realm,
    private readonly request: FastifyRequest,
    private readonly infoOf: (request: FastifyRequest) => RequestInfo,
  ) {}

  get info(): RequestInfo {
    return (this.#info ??= this.infoOf(this.request));
  }
}

/** Who calls a route: checks the credentials its access asks for, on either transport. */
export type Identify = (request: FastifyRequest, projectId: () => string | undefined | Promise<string | undefined>) => Promise<Caller>;

/**
 * The one place a route's access is enforced, for REST and tRPC alike: the realm (the platform, the
 * API key's project, the hosted pages' project, or the setup portal's session), the session (none, optional, required), and the
 * role (admin; a role on the team of the project the call names, as `projectId()` reads it from the
 * raw path or input, so before the input is validated).
 */
export function identifierOf(deps: Deps, route: Pick<AnyRoute, 'access' | 'method'>): Identify {
  const { realm, session, role } = route.access;
  const neededOnTeam: ProjectRole | undefined = role === undefined || role === 'admin' ? undefined : role === 'team' ? roleForReading(route.method === 'GET') : role;

  const realmOf = async (request: FastifyRequest): Promise<RequestCaller> => {
    switch (realm) {
      case 'platform':
        return new RequestCaller(deps.platform, request, dashboardInfoOf);
      case 'apiKey': {
        const key = request.headers['x-api-key'];
        const found = await deps.projectRealms.authenticateApiKey(Array.isArray(key) ? key[0] : key);
        const caller = new RequestCaller(found.realm, request, endUserInfoOf);
        caller.project = found.project;
        return caller;
      }
      case 'hosted': {
        const found = await deps.projectRealms.hostedRealm(hostedProjectKeyOf(request));
        const caller = new RequestCaller(found.realm, request, hostedInfoOf);
        caller.project = found.project;
        return caller;
      }
      case 'portal': {
        // No account: the session a setup link opened, pinned to one organization (401 without a live one).
        const caller = new RequestCaller(deps.platform, request, dashboardInfoOf);
        caller.portal = await deps.portalSessionCheck(request, caller.info);
        return caller;
      }
    }
  };

  return async (request, projectId) => {
    const caller = await realmOf(request);
    if (session === 'required') caller.session = await deps.sessionCheck.authenticate(caller.realm, accessTokenOf(request, realm));
    else if (session === 'optional') caller.session = await deps.sessionCheck.authenticateIfSignedIn(caller.realm, accessTokenOf(request, realm));
    if (role === 'admin') {
      requireAdmin(caller.session!.user);
      caller.scope = PLATFORM_SCOPE;
    } else if (neededOnTeam) {
      // The raw id: a malformed one finds no project (404), like another developer's.
      caller.scope = await projectScopeOf(deps, caller.session!.user, (await projectId()) ?? '', neededOnTeam);
    }
    return caller as Caller;
  };
}

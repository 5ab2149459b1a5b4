import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import type { RequestInfo } from '../lib/request-info.js';
import { parseInput } from '../lib/validate.js';
import { projectScopeOf, roleForReading } from '../modules/projects/project-access.js';
import { PLATFORM_SCOPE, type Realm } from '../modules/realms/realm.js';
import { authenticate } from '../modules/sessions/sessions.service.js';
import { HOSTED_COOKIES, hostedProjectKeyOf } from '../plugins/auth-cookies.js';
import { authenticateRequest, readBearer, requireAdmin } from '../plugins/authenticate.js';
import { endUserInfoOf, requestInfoOf } from '../plugins/request-info.js';
import { successStatus, type Anonymous, type AnyRoute, type ApiClient, type Auth, type Monitoring } from './route.js';

type Caller = Anonymous & Partial<Omit<Monitoring & ApiClient, keyof Anonymous>>;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Set on every route registered through mountRoutes. */
    declared?: boolean;
  }
}

/**
 * A caller of `realm`; its client info is worked out on first use, since most handlers never read
 * it. A class rather than an object literal with a getter: building that literal (a fresh closure
 * and accessor per request) cost about as much as a whole bare Fastify request.
 */
class RequestCaller implements Caller {
  // Set only for the callers that have them: handlers tell the kinds apart with `'project' in caller`.
  declare session?: Caller['session'];
  declare project?: Caller['project'];
  declare scope?: Caller['scope'];
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

/** Bodies, queries and path parameters are parsed with the route's zod schemas: the first broken rule is a 422, as on tRPC. */
const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    try {
      return { value: parseInput(schema, data) };
    } catch (error) {
      return { error: error as Error };
    }
  };

/**
 * Answers go out through their declared schema: fields it does not name are dropped (zod objects
 * strip unknown keys), and an answer that breaks it fails as a 500 here rather than in a client.
 */
const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new Error(`Answer of ${method} ${url} does not match its documented schema: ${result.error.message}`);
    return JSON.stringify(result.data);
  };

const API_PREFIXES = ['/api/', '/public/api/', '/.well-known/', '/health', '/ready', '/hosted/:project_key/api/'];

/**
 * Registers the declared routes: an onRequest hook per the route's `auth` (credentials are checked
 * before the input is read), validation and serialization with its schemas; for project routes the
 * caller's role on the team of `:id` is checked in the same hook, also before the input is read. A
 * REST path registered any other way refuses to start, so the OpenAPI document (built from the same
 * list) cannot miss a route.
 */
export async function mountRoutes(app: FastifyInstance, deps: Deps, routes: readonly AnyRoute[]): Promise<void> {
  const callerOf = (request: FastifyRequest, realm: Realm, infoOf: (request: FastifyRequest) => RequestInfo): Caller => new RequestCaller(realm, request, infoOf);
  const signedIn = async (request: FastifyRequest): Promise<Caller> => {
    const caller = callerOf(request, deps.platform, requestInfoOf);
    caller.session = await authenticateRequest(deps, deps.platform, request);
    return caller;
  };
  const apiClient = async (request: FastifyRequest): Promise<Caller> => {
    const key = request.headers['x-api-key'];
    const { realm, project } = await deps.projectRealms.authenticateApiKey(Array.isArray(key) ? key[0] : key);
    const caller = callerOf(request, realm, endUserInfoOf);
    caller.project = project;
    return caller;
  };
  const hostedVisitor = async (request: FastifyRequest): Promise<Caller> => {
    const { realm, project } = await deps.projectRealms.hostedRealm(hostedProjectKeyOf(request));
    const caller = callerOf(request, realm, requestInfoOf);
    caller.project = project;
    return caller;
  };
  const anonymous = async (request: FastifyRequest) => callerOf(request, deps.platform, requestInfoOf);
  const callers: Record<Auth, (request: FastifyRequest) => Promise<Caller>> = {
    none: anonymous,
    optionalBearer: anonymous,
    bearer: signedIn,
    admin: async (request) => {
      const caller = await signedIn(request);
      requireAdmin(caller.session!.user);
      caller.scope = PLATFORM_SCOPE;
      return caller;
    },
    // The route's role is checked in its own hook (below), before the input is validated.
    projectMember: signedIn,
    apiKey: apiClient,
    apiKeyAndOptionalBearer: apiClient,
    apiKeyAndBearer: async (request) => {
      const caller = await apiClient(request);
      caller.session = await authenticateRequest(deps, caller.realm, request);
      return caller;
    },
    hosted: hostedVisitor,
    hostedSession: async (request) => {
      const caller = await hostedVisitor(request);
      const token = request.headers.authorization !== undefined ? readBearer(request) : HOSTED_COOKIES.readAccess(request);
      caller.session = await authenticate(deps, caller.realm, token);
      return caller;
    },
  };

  app.decorateRequest('caller', null);
  app.addHook('onRoute', (options) => {
    const url = options.url ?? '';
    if (API_PREFIXES.some((prefix) => url.startsWith(prefix)) && !options.config?.declared) {
      throw new Error(`${options.method} ${url} is not declared: add it to a module's REST route list (server/rest/routes.ts)`);
    }
  });

  await app.register(async (scope) => {
    scope.setValidatorCompiler(zodValidatorCompiler);
    scope.setSerializerCompiler(zodSerializerCompiler);
    for (const route of routes) {
      if (route.url.startsWith('/api/v1/projects/:id') && route.auth !== 'projectMember') {
        throw new Error(`${route.method} ${route.url} works on a project: declare it with auth 'projectMember' so its role is checked`);
      }
      const status = successStatus(route);
      const identify = callers[route.auth];
      const projectRole = route.role ?? roleForReading(route.method === 'GET');
      const options: RouteOptions = {
        method: route.method,
        url: route.url,
        config: { declared: true },
        schema: {
          ...(route.body && { body: route.body }),
          ...(route.query && { querystring: route.query }),
          ...(route.params && { params: route.params }),
          response: route.response,
        },
        onRequest:
          route.auth === 'projectMember'
            ? async (request) => {
                const caller = await identify(request);
                // The raw `:id`: a malformed one finds no project (404), like another developer's.
                caller.scope = await projectScopeOf(deps, caller.session!.user, (request.params as { id: string }).id, projectRole);
                request.caller = caller;
              }
            : async (request) => {
                request.caller = await identify(request);
              },
        handler: async (request, reply) => {
          reply.code(status);
          return route.handler({
            deps,
            caller: request.caller as never,
            body: request.body as never,
            query: request.query as never,
            params: request.params as never,
            request,
            reply,
          });
        },
      };
      scope.route(options);
    }
  });
}

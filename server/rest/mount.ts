import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import { parseInput } from '../lib/validate.js';
import { identifierOf, type Caller } from './callers.js';
import { onProjectTeam, successStatus, type AnyRoute } from './route.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Set on every route registered through mountRoutes. */
    declared?: boolean;
    /** A route that reads its body as a stream (route.streamedBody): the media types it takes. */
    streamedBody?: string[];
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

const API_PREFIXES = ['/api/', '/public/api/', '/.well-known/', '/health', '/ready', '/hosted/:project_key/api/', '/portal/api/'];

/**
 * Registers the declared routes: an onRequest hook that checks the route's access (callers.ts:
 * credentials, and for project routes the caller's role on the team of `:id`) before the input is
 * read, then validation and serialization with its schemas. A REST path registered any other way
 * refuses to start, so the OpenAPI document (built from the same list) cannot miss a route.
 */
export async function mountRoutes(app: FastifyInstance, deps: Deps, routes: readonly AnyRoute[]): Promise<void> {
  app.decorateRequest('caller', null);
  app.addHook('onRoute', (options) => {
    const url = options.url ?? '';
    if (API_PREFIXES.some((prefix) => url.startsWith(prefix)) && !options.config?.declared) {
      throw new Error(`${options.method} ${url} is not declared: add it to a module's REST route list (server/routes.ts)`);
    }
  });

  await app.register(async (scope) => {
    scope.setValidatorCompiler(zodValidatorCompiler);
    scope.setSerializerCompiler(zodSerializerCompiler);
    for (const route of routes) {
      if (route.url.startsWith('/api/v1/projects/:id') !== onProjectTeam(route.access)) {
        throw new Error(`${route.method} ${route.url}: a route on a project (and only such a route) is declared with a team role, so the caller's role is checked`);
      }
      const status = successStatus(route);
      const identify = identifierOf(deps, route);
      const options: RouteOptions = {
        method: route.method,
        url: route.url,
        config: { declared: true, ...(route.streamedBody && { streamedBody: Object.keys(route.streamedBody.types) }) },
        schema: {
          ...(route.body && { body: route.body }),
          ...(route.query && { querystring: route.query }),
          ...(route.params && { params: route.params }),
          response: route.response,
        },
        onRequest: async (request) => {
          // The raw `:id`, before validation.
          request.caller = await identify(request, () => (request.params as { id?: string }).id);
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
      if (route.streamedBody) {
        // Its own scope, whose parsers hand the handler the request stream as it arrives (no body limit, no buffering).
        const types = Object.keys(route.streamedBody.types);
        await scope.register(async (streaming) => {
          streaming.removeContentTypeParser(types.filter((type) => streaming.hasContentTypeParser(type)));
          streaming.addContentTypeParser(types, (_request, payload, done) => done(null, payload));
          streaming.route(options);
        });
      } else scope.route(options);
    }
  });
}

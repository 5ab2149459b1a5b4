import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { answerableError } from '../../errors.js';
import { readBearer } from '../../lib/bearer.js';
import { requestInfoOf } from '../../plugins/request-info.js';
import { authenticateScim, type ScimContext } from './scim-context.js';
import { ScimError, scimErrorBody, scimErrorOfAppError } from './scim-errors.js';
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from './scim-groups.service.js';
import { GROUP_SCHEMA, listResponse, resourceTypes, schemas, serviceProviderConfig, USER_SCHEMA } from './scim-resources.js';
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from './scim-users.service.js';

const SCIM_JSON = 'application/scim+json; charset=utf-8';
const BODY_LIMIT = 1024 * 1024;

type Params = { connection_id: string; id?: string };
type Handler = (ctx: ScimContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * SCIM 2.0 (RFC 7643/7644) for enterprise connections, at APP_URL/scim/v2/{connection_id}: what an
 * IdP (Okta, Microsoft Entra ID) calls with the connection's bearer token to provision users and groups.
 * Outside the declared REST routes (and the OpenAPI document) because SCIM sets their shape: bodies are
 * application/scim+json (plain JSON too), errors are SCIM's (`schemas`, `status` as a string, `detail`,
 * `scimType`). A bearer endpoint with no cookies, so the request guard lets its JSON types through.
 */
export async function registerScimEndpoints(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addContentTypeParser(['application/scim+json', 'application/json'], { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
        try {
          done(null, (body as string).length === 0 ? undefined : JSON.parse(body as string));
        } catch {
          done(new ScimError(400, 'The body is not valid JSON', 'invalidSyntax'), undefined);
        }
      });

      scope.setErrorHandler((error, request, reply) => {
        const app = answerableError(error);
        const scim =
          error instanceof ScimError
            ? error
            : app?.code === 'SERVICE_UNAVAILABLE'
              ? new ScimError(503, app.detail)
              : app
                ? scimErrorOfAppError(app)
                : typeof (error as { statusCode?: unknown }).statusCode === 'number' && (error as { statusCode: number }).statusCode < 500
                  ? new ScimError((error as { statusCode: number }).statusCode === 413 ? 413 : 400, 'The request is not a valid SCIM request', 'invalidSyntax')
                  : null;
        if (!scim) {
          request.log.error({ err: error }, 'scim: request failed');
          return reply.code(500).type(SCIM_JSON).send(scimErrorBody(500, 'Internal server error'));
        }
        if (app?.retryAfterS !== undefined) reply.header('retry-after', String(app.retryAfterS));
        if (scim.status === 401) reply.header('www-authenticate', 'Bearer realm="SCIM"');
        return reply.code(scim.status).type(SCIM_JSON).send(scimErrorBody(scim.status, scim.detail, scim.scimType));
      });

      const route = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, handler: Handler, status = 200) => {
        scope.route({
          method,
          url,
          config: { oauthEndpoint: true },
          handler: async (request, reply) => {
            reply.header('cache-control', 'no-store');
            const params = request.params as Params;
            const ctx = await authenticateScim(deps, params.connection_id, readBearer(request), requestInfoOf(request, 'public_api'));
            const answer = await handler(ctx, request, reply);
            if (status === 204) return reply.code(204).send();
            const location = (answer as { meta?: { location?: string } } | undefined)?.meta?.location;
            if (status === 201 && location) reply.header('location', location);
            return reply.code(status).type(SCIM_JSON).send(answer);
          },
        });
      };
      const id = (request: FastifyRequest) => (request.params as Params).id!;
      const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

      // Discovery (RFC 7644 §4): behind the token too, as Entra ID and Okta call them with it.
      route('GET', '/ServiceProviderConfig', async (ctx) => serviceProviderConfig(deps.config, ctx.connection.id));
      route('GET', '/ResourceTypes', async (ctx) => {
        const types = resourceTypes(deps.config, ctx.connection.id);
        return listResponse(types, types.length, 1);
      });
      route('GET', '/ResourceTypes/:id', async (ctx, request) => {
        const found = resourceTypes(deps.config, ctx.connection.id).find((type) => type.id === id(request));
        if (!found) throw new ScimError(404, `ResourceType ${id(request)} not found`);
        return found;
      });
      route('GET', '/Schemas', async (ctx) => {
        const all = schemas(deps.config, ctx.connection.id);
        return listResponse(all, all.length, 1);
      });
      route('GET', '/Schemas/:id', async (ctx, request) => {
        const found = schemas(deps.config, ctx.connection.id).find((schema) => schema.id === id(request));
        if (!found) throw new ScimError(404, `Schema ${id(request)} not found (${USER_SCHEMA} and ${GROUP_SCHEMA} are served)`);
        return found;
      });

      route('GET', '/Users', (ctx, request) => listScimUsers(deps, ctx, query(request)));
      route('POST', '/Users', (ctx, request) => createScimUser(deps, ctx, request.body), 201);
      route('GET', '/Users/:id', (ctx, request) => getScimUser(deps, ctx, id(request)));
      route('PUT', '/Users/:id', (ctx, request) => replaceScimUser(deps, ctx, id(request), request.body));
      route('PATCH', '/Users/:id', (ctx, request) => patchScimUser(deps, ctx, id(request), request.body));
      route('DELETE', '/Users/:id', (ctx, request) => deleteScimUser(deps, ctx, id(request)), 204);

      route('GET', '/Groups', (ctx, request) => listScimGroups(deps, ctx, query(request)));
      route('POST', '/Groups', (ctx, request) => createScimGroup(deps, ctx, request.body), 201);
      route('GET', '/Groups/:id', (ctx, request) => getScimGroup(deps, ctx, id(request), query(request)));
      route('PUT', '/Groups/:id', (ctx, request) => replaceScimGroup(deps, ctx, id(request), request.body));
      route('PATCH', '/Groups/:id', (ctx, request) => patchScimGroup(deps, ctx, id(request), request.body));
      route('DELETE', '/Groups/:id', (ctx, request) => deleteScimGroup(deps, ctx, id(request)), 204);

      scope.setNotFoundHandler((_request, reply) => reply.code(404).type(SCIM_JSON).send(scimErrorBody(404, 'No such SCIM endpoint')));
    },
    { prefix: '/scim/v2/:connection_id' },
  );
}

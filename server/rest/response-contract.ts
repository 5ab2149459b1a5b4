import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { OPERATIONS } from '../openapi/operations.js';

/** `/api/v1/projects/{id}` (OpenAPI) → `/api/v1/projects/:id` (Fastify). */
const fastifyPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

/**
 * Every REST answer goes out through the schema the OpenAPI document promises for it: fields a
 * service adds without a schema never reach a caller (zod objects drop unknown keys), and an
 * answer that breaks its contract fails as a 500 here, in the tests, rather than in a client.
 */
export function registerResponseContract(app: FastifyInstance): void {
  const schemas = new Map<string, z.ZodType>();
  for (const operation of OPERATIONS) {
    for (const response of [operation.response, ...(operation.otherResponses ?? [])]) {
      schemas.set(`${operation.method.toUpperCase()} ${fastifyPath(operation.path)} ${response.status}`, response.schema);
    }
  }

  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 400) return payload;
    const schema = schemas.get(`${request.method} ${request.routeOptions.url} ${reply.statusCode}`);
    if (!schema) return payload;
    const result = schema.safeParse(payload);
    if (result.success) return result.data;
    request.log.error({ issues: result.error.issues, route: request.routeOptions.url }, 'answer does not match its documented schema');
    throw new Error(`Answer of ${request.method} ${request.routeOptions.url} does not match its documented schema`);
  });
}

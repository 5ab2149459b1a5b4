import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

/** GET /api/openapi.json: the OpenAPI 3.1 document, built once (on the first request) and cacheable for 5 minutes. */
export function openApiRoutes(app: FastifyInstance, version: string): void {
  let document: OpenApiDocument | undefined;
  app.get('/api/openapi.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return (document ??= buildOpenApiDocument(version));
  });
}

import type { z } from 'zod';
import type { AnyRoute } from '../rest/route.js';
import { defineRoute, ANYONE } from '../rest/route.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';
import { OpenApiDocumentSchema } from './schemas.js';

/** GET /api/openapi.json: the document of `routes()` (this route included), built on the first request and cacheable for 5 minutes. */
export function openApiRoute(routes: () => readonly AnyRoute[]): AnyRoute {
  let document: OpenApiDocument | undefined;
  return defineRoute({
    method: 'GET',
    url: '/api/openapi.json',
    access: ANYONE,
    response: { 200: OpenApiDocumentSchema },
    doc: {
      operationId: 'getOpenApiDocument',
      tag: 'Health',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of /api/v1 and /public/api/v1, generated from the schemas that validate the requests.',
    },
    async handler({ deps, reply }) {
      reply.header('cache-control', 'public, max-age=300');
      document ??= buildOpenApiDocument(deps.version, routes());
      return document as unknown as z.input<typeof OpenApiDocumentSchema>;
    },
  });
}

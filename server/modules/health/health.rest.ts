import type { z } from 'zod';
import { HealthSchema, JwksSchema } from '../../openapi/schemas.js';
import { defineRoute } from '../../rest/route.js';
import { checkHealth } from './health.service.js';

export const healthRoutes = [
  defineRoute({
    method: 'GET',
    url: '/health',
    auth: 'none',
    response: { 200: HealthSchema, 503: HealthSchema },
    doc: {
      operationId: 'getHealth',
      tag: 'Health',
      summary: 'Health check',
      description: 'Answers 200 when the database answers, 503 when it does not. Never cached.',
      responses: { 200: 'Healthy', 503: 'The database does not answer' },
    },
    async handler({ deps, reply }) {
      const health = await checkHealth(deps);
      reply.header('cache-control', 'no-store');
      if (health.database !== 'ok') reply.code(503);
      return health;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/.well-known/jwks.json',
    auth: 'none',
    response: { 200: JwksSchema },
    doc: {
      operationId: 'getPlatformJwks',
      tag: 'Health',
      summary: "The platform's public signing keys",
      description: 'Verifies the ES256 access tokens the platform issues to developers. Cacheable for 5 minutes.',
    },
    async handler({ deps, reply }) {
      reply.header('cache-control', 'public, max-age=300');
      return deps.accessTokens.jwks() as z.input<typeof JwksSchema>;
    },
  }),
];

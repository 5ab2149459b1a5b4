import type { z } from 'zod';
import { HealthSchema, JwksSchema, ReadinessSchema } from '../../openapi/schemas.js';
import { defineRoute, ANYONE } from '../../rest/route.js';
import { checkHealth, checkReadiness } from './health.service.js';

export const healthRoutes = [
  defineRoute({
    method: 'GET',
    url: '/health',
    access: ANYONE,
    response: { 200: HealthSchema },
    doc: {
      operationId: 'getHealth',
      tag: 'Health',
      summary: 'Liveness',
      description:
        'Answers 200 while the process serves requests, whatever the database does (`status: degraded`, `database: unavailable` when it did not answer within half a second): a liveness probe. Use `/ready` to take an instance out of a load balancer. Never cached.',
      responses: { 200: 'The process answers' },
    },
    async handler({ deps, reply }) {
      reply.header('cache-control', 'no-store');
      return checkHealth(deps);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/ready',
    access: ANYONE,
    response: { 200: ReadinessSchema, 503: ReadinessSchema },
    doc: {
      operationId: 'getReadiness',
      tag: 'Health',
      summary: 'Readiness',
      description:
        'Answers 200 when this instance can serve requests, 503 while the database does not answer (`database: unavailable`) or has migrations of this version still to run (`migrations: pending`, with their names). A readiness probe. Never cached.',
      responses: { 200: 'Ready', 503: 'Not ready: the database does not answer, or migrations are pending' },
    },
    async handler({ deps, reply }) {
      const readiness = await checkReadiness(deps);
      reply.header('cache-control', 'no-store');
      if (readiness.status !== 'ready') reply.code(503);
      return readiness;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/.well-known/jwks.json',
    access: ANYONE,
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

import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { checkHealth } from './health.service.js';

export function healthRoutes(app: FastifyInstance, deps: Deps, version: string): void {
  const startedAt = deps.clock.now();
  app.get('/health', async (_request, reply) => {
    const health = await checkHealth(deps, version, startedAt);
    reply.header('cache-control', 'no-store');
    return reply.code(health.database === 'ok' ? 200 : 503).send(health);
  });
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return deps.accessTokens.jwks();
  });
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { constantTimeEqual, sha256 } from '../lib/crypto.js';
import type { AppMetrics } from '../lib/metrics.js';
import { readBearer } from '../lib/bearer.js';

/** The route label of every request no route matched, whatever path it asked for. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Counts every answer by its route's pattern. Call before registering any plugin, so every scope inherits the hook. */
export function countRequests(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * GET /metrics for the bearer of `token`: Prometheus text rather than JSON, so a plain route outside
 * the declared REST routes (and the OpenAPI document). Call after the error handler is set, which
 * answers its 401.
 */
export function serveMetrics(app: FastifyInstance, metrics: AppMetrics, token: string): void {
  const expected = sha256(token);
  app.get('/metrics', {
    onRequest: async (request) => {
      const presented = readBearer(request);
      // Digests have one length, so the comparison takes the same time whatever was sent.
      if (presented === undefined || !constantTimeEqual(sha256(presented), expected)) {
        throw new AppError('UNAUTHORIZED', 'Missing or invalid metrics token');
      }
    },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  });
}

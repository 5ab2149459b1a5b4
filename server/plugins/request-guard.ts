import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for cookie-authenticated calls: a state-changing request must
 * come from an allowed origin (when the browser says where it comes from) and carry JSON, which a
 * cross-site HTML form cannot send. SameSite cookies are the first line; this is the second.
 */
export function registerRequestGuard(app: FastifyInstance, config: Config): void {
  const allowedOrigins = new Set([new URL(config.appUrl).origin, ...config.corsOrigins]);

  /** Why a request is refused (a cross-origin write, a body that is not JSON); undefined when it may go on. */
  const refusalOf = (request: FastifyRequest): AppError | undefined => {
    // OAuth endpoints take form bodies from apps' backends and browsers, carry no cookies, and answer CORS by project.
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.oauthEndpoint) return undefined;
    const origin = request.headers.origin;
    if (origin && origin !== 'null') {
      const sameOrigin = origin === `${request.protocol}://${request.headers.host}`;
      if (!sameOrigin && !allowedOrigins.has(origin)) return new AppError('FORBIDDEN', 'Cross-origin request refused');
    } else if (origin === 'null' || request.headers['sec-fetch-site'] === 'cross-site') {
      return new AppError('FORBIDDEN', 'Cross-origin request refused');
    }
    const hasBody = request.headers['content-length'] !== undefined ? request.headers['content-length'] !== '0' : request.headers['transfer-encoding'] !== undefined;
    const contentType = request.headers['content-type'];
    // A streamed body's types (NDJSON) are not among those a cross-site form can send, so they are as safe as JSON.
    const streamed = request.routeOptions.config?.streamedBody;
    if (streamed && streamed.includes((contentType ?? '').split(';')[0]!.trim().toLowerCase())) return undefined;
    if ((hasBody || contentType) && !/^application\/json\s*(;|$)/i.test(contentType ?? '')) {
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    return undefined;
  };

  // Callback hooks rather than async ones: an async hook costs every request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => done(refusalOf(request)));
}

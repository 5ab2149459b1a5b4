import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** Fastify's own client errors, in words a caller can act on. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

/** The one place that turns errors into `{"detail": …}` answers. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterS) reply.header('retry-after', String(error.retryAfterS));
      return reply.code(error.httpStatus).send({ detail: error.detail, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = FASTIFY_CLIENT_ERRORS[error.code] ?? (error.message || 'Bad Request');
      return reply.code(status).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` }));
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, answerableError } from '../errors.js';
import { logUnavailable } from '../lib/outage-log.js';

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
    const known = answerableError(error);
    if (known) {
      if (known !== error) logUnavailable(app.log, error);
      if (known.retryAfterS) reply.header('retry-after', String(known.retryAfterS));
      return reply.code(known.httpStatus).send({ detail: known.detail, ...known.extra });
    }
    const { statusCode, code, message } = error as FastifyError;
    const status = statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = FASTIFY_CLIENT_ERRORS[code] ?? (message || 'Bad Request');
      return reply.code(status).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` }));
}

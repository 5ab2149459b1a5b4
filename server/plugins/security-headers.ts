import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet would set for `options`. They depend only on configuration, so they are
 * worked out once at start: running helmet per request (as @fastify/helmet does) re-parsed the
 * whole policy on every call and was the largest single cost of a signed-in request.
 */
export function securityHeadersFor(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Every answer (pages, API, errors, 404s) carries the same security headers, but for the paths under
 * `hosted.prefix`, which carry `hosted.options`' (the hosted pages may show a project's own captcha).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>, hosted?: { prefix: string; options: Readonly<HelmetOptions> }): void {
  const headers = securityHeadersFor(options);
  const hostedHeaders = hosted ? securityHeadersFor(hosted.options) : headers;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(hosted && request.url.startsWith(hosted.prefix) ? hostedHeaders : headers);
    done();
  });
}

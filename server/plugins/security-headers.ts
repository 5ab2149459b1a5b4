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
 * What the API's answers carry instead of a page's headers. Most of helmet's headers govern a
 * document a browser renders (its scripts, frames, opener, DNS prefetching, old IE downloads); an API
 * answer is JSON that is never rendered, so it carries the ones that apply to it (as the OWASP REST
 * Security Cheat Sheet lists them): a policy that allows nothing and forbids framing, no sniffing, no
 * referrer, no cross-origin embedding, and HSTS behind HTTPS. Five headers rather than eleven: each
 * costs a request about a quarter of a microsecond in Node's header checks, and the API is the hot path.
 */
export function apiSecurityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    ...(options.https && { 'strict-transport-security': HSTS }),
  };
}

/** helmet's default, which the pages carry behind HTTPS. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** The answers of the JSON API (REST, the public API and tRPC), errors and unknown paths included. */
const API_PREFIXES = ['/api/', '/public/api/', '/trpc/'];

/**
 * API answers are private: `Cache-Control: no-store` unless their route says otherwise (the OpenAPI
 * document, JWKS), which it does by setting its own (a later header replaces this one).
 */
const PRIVATE = { 'cache-control': 'no-store' };

/**
 * Every answer carries security headers: the API's (apiSecurityHeaders, and `no-store`) under the
 * API's paths, the pages' (`options`, through helmet) everywhere else, but for the paths under
 * `hosted.prefix`, which carry `hosted.options`' (the hosted pages may show a project's own captcha),
 * and `no-store` too on their API (`/hosted/{project_key}/api/`). They are set as the request arrives,
 * so errors and unknown paths carry them too, in one hook that every request runs anyway.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: Readonly<HelmetOptions>,
  settings: { https: boolean; hosted?: { prefix: string; options: Readonly<HelmetOptions> } },
): void {
  const { hosted } = settings;
  const headers = securityHeadersFor(options);
  const hostedHeaders = hosted ? securityHeadersFor(hosted.options) : headers;
  const apiHeaders = { ...apiSecurityHeaders(settings), ...PRIVATE };
  const hostedApiHeaders = { ...hostedHeaders, ...PRIVATE };
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (API_PREFIXES.some((prefix) => url.startsWith(prefix))) reply.headers(apiHeaders);
    else if (hosted && url.startsWith(hosted.prefix)) reply.headers(url.includes('/api/') ? hostedApiHeaders : hostedHeaders);
    else reply.headers(headers);
    done();
  });
}

import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { userAgentOf, type RequestInfo } from '../lib/request-info.js';

/** request.ip honours TRUST_PROXY through Fastify's trustProxy option, set once in buildApp. */
export function requestInfoOf(request: FastifyRequest): RequestInfo {
  return { ip: request.ip, userAgent: userAgentOf(request.headers['user-agent']), headers: request.headers };
}

/**
 * On the public API the caller is the developer's backend, so the socket address is theirs. Their
 * backend may pass the end user's address and browser in X-End-User-IP / X-End-User-Agent (trusted
 * because the request carries the project's key); limits, login attempts and devices then see the end user.
 */
export function endUserInfoOf(request: FastifyRequest): RequestInfo {
  const info = requestInfoOf(request);
  const ip = request.headers['x-end-user-ip'];
  const agent = request.headers['x-end-user-agent'];
  return {
    ...info,
    ip: typeof ip === 'string' && isIP(ip.trim()) ? ip.trim() : info.ip,
    userAgent: typeof agent === 'string' && agent ? userAgentOf(agent) : info.userAgent,
  };
}

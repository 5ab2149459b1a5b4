import type { FastifyRequest } from 'fastify';
import { userAgentOf, type RequestInfo } from '../lib/request-info.js';

/** request.ip honours TRUST_PROXY through Fastify's trustProxy option, set once in buildApp. */
export function requestInfoOf(request: FastifyRequest): RequestInfo {
  return { ip: request.ip, userAgent: userAgentOf(request.headers['user-agent']), headers: request.headers };
}

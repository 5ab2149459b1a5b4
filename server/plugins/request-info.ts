import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { userAgentOf, type RequestInfo } from '../lib/request-info.js';
import type { SessionClient } from '../../shared/schemas/sessions.js';
import { networkOf } from '../modules/ip-intel/ip-address.js';

/**
 * request.ip honours TRUST_PROXY through Fastify's trustProxy option (set once in buildApp): the
 * right-most X-Forwarded-For entry that is not a trusted proxy. An entry that is not an IP address
 * is not believed; the socket's address stands then.
 */
export function requestInfoOf(request: FastifyRequest, client: SessionClient): RequestInfo {
  const ip = isIP(request.ip) ? request.ip : (request.socket.remoteAddress ?? request.ip);
  return { ip, network: networkOf(ip), userAgent: userAgentOf(request.headers['user-agent']), headers: request.headers, client };
}

export const dashboardInfoOf = (request: FastifyRequest) => requestInfoOf(request, 'dashboard');
export const hostedInfoOf = (request: FastifyRequest) => requestInfoOf(request, 'hosted');

/**
 * On the public API the caller is the developer's backend, so the socket address is theirs. Their
 * backend may pass the end user's address and browser in X-End-User-IP / X-End-User-Agent (trusted
 * because the request carries the project's key); limits, login attempts and devices then see the end user.
 */
export function endUserInfoOf(request: FastifyRequest): RequestInfo {
  const info = requestInfoOf(request, 'public_api');
  const ip = request.headers['x-end-user-ip'];
  const agent = request.headers['x-end-user-agent'];
  const endUserIp = typeof ip === 'string' && isIP(ip.trim()) ? ip.trim() : info.ip;
  return {
    ...info,
    ip: endUserIp,
    network: networkOf(endUserIp),
    userAgent: typeof agent === 'string' && agent ? userAgentOf(agent) : info.userAgent,
  };
}

import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { readAccessToken } from '../plugins/auth-cookies.js';
import { authenticate, type Authenticated } from '../modules/sessions/sessions.service.js';

export function authenticateRequest(deps: Deps, request: FastifyRequest): Promise<Authenticated> {
  return authenticate(deps, deps.platform, readAccessToken(request));
}

export async function authenticateAdmin(deps: Deps, request: FastifyRequest): Promise<Authenticated> {
  const auth = await authenticateRequest(deps, request);
  if (auth.user.role !== 'admin') throw new AppError('FORBIDDEN', 'Admin access required');
  return auth;
}

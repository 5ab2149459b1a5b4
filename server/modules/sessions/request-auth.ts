import type { FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_COOKIE } from '../../../shared/constants.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { Realm } from '../realms/realm.js';
import { readBearer } from '../../lib/bearer.js';
import { authenticate, type Authenticated } from './sessions.service.js';

/**
 * A request's access token. A Bearer header wins; the HttpOnly cookie is the browser's transport
 * for the platform's own accounts only (the public API carries end users' tokens in headers).
 */
export function readAccessToken(request: FastifyRequest, realm: Pick<Realm, 'projectId'>): string | undefined {
  if (request.headers.authorization !== undefined) return readBearer(request);
  return realm.projectId === null ? request.cookies[ACCESS_TOKEN_COOKIE] : undefined;
}

/** The one way every transport (tRPC, REST, the public API) learns who is calling: 401 unless a live session of `realm`. */
export function authenticateRequest(deps: Deps, realm: Realm, request: FastifyRequest): Promise<Authenticated> {
  return authenticate(deps, realm, readAccessToken(request, realm));
}

/**
 * The caller's session when it presents one that works, else null: for the calls that serve the
 * signed-out too and only treat a signed-in caller differently.
 */
export async function authenticateIfSignedIn(deps: Deps, realm: Realm, token: string | undefined): Promise<Authenticated | null> {
  if (!token) return null;
  try {
    return await authenticate(deps, realm, token);
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNAUTHORIZED') return null;
    throw error;
  }
}

/**
 * How rest/callers checks a request's token: authenticate and authenticateIfSignedIn over the app's
 * deps, handed to it through Deps (app.ts) so that rest/ imports no module that declares routes.
 */
export interface SessionCheck {
  authenticate(realm: Realm, token: string | undefined): Promise<Authenticated>;
  authenticateIfSignedIn(realm: Realm, token: string | undefined): Promise<Authenticated | null>;
}

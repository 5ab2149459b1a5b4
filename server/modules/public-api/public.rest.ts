import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  EmailOnlyInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  RefreshInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  UpdateProfileInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { MESSAGES } from '../../../shared/messages.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../lib/validate.js';
import { isIP } from 'node:net';
import { userAgentOf, type RequestInfo } from '../../lib/request-info.js';
import { requestInfoOf } from '../../plugins/request-info.js';
import { forgotPassword, logIn, resendVerification, resetPassword, signUp, verifyEmail } from '../auth/auth.service.js';
import { updateProfile } from '../profile/profile.service.js';
import type { Realm } from '../realms/realm.js';
import { authenticate, endSession, refreshSession } from '../sessions/sessions.service.js';
import { toUser } from '../users/user.mapper.js';

declare module 'fastify' {
  interface FastifyRequest {
    realm: Realm | null;
  }
}

/**
 * The caller is the developer's backend, so the socket address is theirs. Their backend may pass
 * the end user's address and browser in X-End-User-IP / X-End-User-Agent (trusted because the
 * request carries the project's key); rate limits, login attempts and devices then see the end user.
 */
function endUserInfo(request: FastifyRequest): RequestInfo {
  const info = requestInfoOf(request);
  const ip = request.headers['x-end-user-ip'];
  const agent = request.headers['x-end-user-agent'];
  return {
    ...info,
    ip: typeof ip === 'string' && isIP(ip.trim()) ? ip.trim() : info.ip,
    userAgent: typeof agent === 'string' && agent ? userAgentOf(agent) : info.userAgent,
  };
}

function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The end-user API a developer's own backend calls with its project's key in X-API-Key. It runs the
 * same services as the platform's own auth, in the project's realm. No cookies: tokens travel in bodies.
 */
export function publicApiRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:project_key/jwks.json', async (request, reply) => {
    const { project_key } = request.params as { project_key: string };
    reply.header('cache-control', 'public, max-age=300');
    return deps.projectRealms.jwks(project_key);
  });

  app.register(async (scope) => {
    scope.decorateRequest('realm', null);
    scope.addHook('onRequest', async (request) => {
      const key = request.headers['x-api-key'];
      request.realm = (await deps.projectRealms.authenticateApiKey(Array.isArray(key) ? key[0] : key)).realm;
    });
    const realm = (request: FastifyRequest) => request.realm!;

    scope.post('/auth/signup', async (request, reply) => {
      const result = await signUp(deps, realm(request), parseInput(SignUpInputSchema, request.body), endUserInfo(request));
      return reply.code(201).send(result);
    });
    scope.post('/auth/login', async (request) => logIn(deps, realm(request), parseInput(LogInInputSchema, request.body), endUserInfo(request)));
    scope.post('/auth/refresh', async (request) => {
      await deps.limiters.refreshPerIp.consume(endUserInfo(request).ip);
      return refreshSession(deps, realm(request), parseInput(RefreshInputSchema, request.body).refresh_token);
    });
    scope.post('/auth/logout', async (request) => {
      const refreshToken = parseInput(RefreshInputSchema, request.body).refresh_token;
      const accessToken = bearer(request);
      if (!accessToken && !refreshToken) throw new AppError('UNAUTHORIZED', 'Not authenticated');
      await endSession(deps, realm(request), { accessToken, refreshToken });
      return { message: MESSAGES.loggedOut };
    });
    scope.post('/auth/verify-email', async (request) => verifyEmail(deps, realm(request), parseInput(VerifyEmailInputSchema, request.body), endUserInfo(request)));
    scope.post('/auth/resend-verification', async (request) =>
      resendVerification(deps, realm(request), parseInput(EmailOnlyInputSchema, request.body), endUserInfo(request)),
    );
    scope.post('/auth/forgot-password', async (request) =>
      forgotPassword(deps, realm(request), parseInput(ForgotPasswordInputSchema, request.body), endUserInfo(request)),
    );
    scope.post('/auth/reset-password', async (request) => resetPassword(deps, realm(request), parseInput(ResetPasswordInputSchema, request.body)));
    scope.get('/profile', async (request) => toUser((await authenticate(deps, realm(request), bearer(request))).user));
    scope.put('/profile', async (request) => {
      const auth = await authenticate(deps, realm(request), bearer(request));
      return updateProfile(deps, auth.user, parseInput(UpdateProfileInputSchema, request.body));
    });
  });
}

import type { FastifyInstance } from 'fastify';
import {
  ChangePasswordInputSchema,
  EmailOnlyInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  RefreshInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { MESSAGES } from '../../../shared/messages.js';
import type { Deps } from '../../deps.js';
import { parseInput } from '../../lib/validate.js';
import { clearAuthCookies, readAccessToken, readRefreshCookie, setAuthCookies } from '../../plugins/auth-cookies.js';
import { requestInfoOf } from '../../plugins/request-info.js';
import { authenticateRequest } from '../../rest/authenticate.js';
import { endSession, refreshSession } from '../sessions/sessions.service.js';
import { toUser } from '../users/user.mapper.js';
import { changePassword, forgotPassword, logIn, resendVerification, resetPassword, signUp, verifyEmail } from './auth.service.js';

/** REST consumers get the tokens in the body as well as in cookies. */
export function authRestRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/auth/signup', async (request, reply) => {
    const result = await signUp(deps, deps.platform, parseInput(SignUpInputSchema, request.body), requestInfoOf(request));
    return reply.code(201).send(result);
  });

  app.post('/auth/login', async (request, reply) => {
    const result = await logIn(deps, deps.platform, parseInput(LogInInputSchema, request.body), requestInfoOf(request));
    setAuthCookies(reply, deps.config, result);
    return result;
  });

  app.post('/auth/refresh', async (request, reply) => {
    const info = requestInfoOf(request);
    await deps.limiters.refreshPerIp.consume(info.ip);
    const input = parseInput(RefreshInputSchema, request.body);
    try {
      const tokens = await refreshSession(deps, deps.platform, input.refresh_token ?? readRefreshCookie(request));
      setAuthCookies(reply, deps.config, tokens);
      return tokens;
    } catch (error) {
      clearAuthCookies(reply, deps.config);
      throw error;
    }
  });

  app.post('/auth/logout', async (request, reply) => {
    const input = parseInput(RefreshInputSchema, request.body);
    await endSession(deps, deps.platform, { accessToken: readAccessToken(request), refreshToken: input.refresh_token ?? readRefreshCookie(request) });
    clearAuthCookies(reply, deps.config);
    return { message: MESSAGES.loggedOut };
  });

  app.get('/auth/me', async (request, reply) => {
    const auth = await authenticateRequest(deps, request);
    reply.header('cache-control', 'no-store');
    return toUser(auth.user);
  });

  app.post('/auth/verify-email', async (request) => verifyEmail(deps, deps.platform, parseInput(VerifyEmailInputSchema, request.body), requestInfoOf(request)));

  app.post('/auth/resend-verification', async (request) =>
    resendVerification(deps, deps.platform, parseInput(EmailOnlyInputSchema, request.body), requestInfoOf(request)),
  );

  app.post('/auth/forgot-password', async (request) =>
    forgotPassword(deps, deps.platform, parseInput(ForgotPasswordInputSchema, request.body), requestInfoOf(request)),
  );

  app.post('/auth/reset-password', async (request) => resetPassword(deps, deps.platform, parseInput(ResetPasswordInputSchema, request.body)));

  app.post('/auth/change-password', async (request) => {
    const auth = await authenticateRequest(deps, request);
    return changePassword(deps, auth, parseInput(ChangePasswordInputSchema, request.body));
  });
}

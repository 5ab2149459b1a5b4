import { z } from 'zod';
import {
  BrowserSessionSchema,
  BrowserSignInSchema,
  ChangeEmailInputSchema,
  ChangePasswordInputSchema,
  ConfirmEmailChangeInputSchema,
  CurrentSessionSchema,
  ResendVerificationInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  RefreshInputSchema,
  RefreshedSessionSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { MESSAGES } from '../../../shared/messages.js';
import { MfaVerifyInputSchema } from '../../../shared/schemas/mfa.js';
import { WebAuthnOptionsSchema } from '../../../shared/schemas/passkeys.js';
import { StepUpAnswerSchema, StepUpInputSchema, StepUpStatusSchema } from '../../../shared/schemas/step-up.js';
import { stepUpStatus } from '../sessions/step-up.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { inputParser } from '../../lib/validate.js';
import { clearAuthCookies, readRefreshCookie, setAuthCookies } from '../../plugins/auth-cookies.js';
import { authenticateIfSignedIn, authenticateRequest, readAccessToken } from '../../plugins/authenticate.js';
import { authedProcedure, publicProcedure, router } from '../../trpc/init.js';
import { endSession, refreshSession } from '../sessions/sessions.service.js';
import { toUser } from '../users/user.mapper.js';
import {
  changePassword,
  confirmEmailChange,
  forgotPassword,
  logIn,
  requestEmailChange,
  resendVerification,
  resetPassword,
  signUp,
  verifyEmail,
  verifyMfaSignIn,
} from './auth.service.js';
import { stepUp, stepUpPasskeyOptions } from './step-up.service.js';

/** The browser's transport: tokens go into HttpOnly cookies and never into the response body. */
export const authRouter = router({
  signUp: publicProcedure
    .input(inputParser(SignUpInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => signUp(ctx.deps, ctx.deps.platform, input, ctx.request)),

  logIn: publicProcedure.input(inputParser(LogInInputSchema)).output(BrowserSignInSchema).mutation(async ({ ctx, input }) => {
    const result = await logIn(ctx.deps, ctx.deps.platform, input, ctx.request);
    if ('mfa_required' in result) return result;
    setAuthCookies(ctx.res, ctx.deps.config, result);
    return { user: result.user, expires_in: result.expires_in };
  }),

  verifyMfa: publicProcedure.input(inputParser(MfaVerifyInputSchema)).output(BrowserSessionSchema).mutation(async ({ ctx, input }) => {
    const result = await verifyMfaSignIn(ctx.deps, ctx.deps.platform, input, ctx.request);
    setAuthCookies(ctx.res, ctx.deps.config, result);
    return { user: result.user, expires_in: result.expires_in };
  }),

  refresh: publicProcedure.input(inputParser(RefreshInputSchema.optional())).output(RefreshedSessionSchema).mutation(async ({ ctx, input }) => {
    try {
      const tokens = await refreshSession(ctx.deps, ctx.deps.platform, input?.refresh_token ?? readRefreshCookie(ctx.req), ctx.request);
      setAuthCookies(ctx.res, ctx.deps.config, tokens);
      return { expires_in: tokens.expires_in };
    } catch (error) {
      clearAuthCookies(ctx.res, ctx.deps.config);
      throw error;
    }
  }),

  logOut: publicProcedure.input(z.unknown().optional()).output(MessageSchema).mutation(async ({ ctx }) => {
    await endSession(ctx.deps, ctx.deps.platform, { accessToken: readAccessToken(ctx.req, ctx.deps.platform), refreshToken: readRefreshCookie(ctx.req) });
    clearAuthCookies(ctx.res, ctx.deps.config);
    return { message: MESSAGES.loggedOut };
  }),

  me: authedProcedure.output(UserSchema).query(({ ctx }) => toUser(ctx.auth.user)),

  /**
   * The browser's session check. A visitor with no session cookie is an answer (user null), not an
   * error; with a cookie that no longer works it is UNAUTHORIZED, so the client refreshes once.
   */
  session: publicProcedure.output(CurrentSessionSchema).query(async ({ ctx }) => {
    if (!readAccessToken(ctx.req, ctx.deps.platform) && !readRefreshCookie(ctx.req)) return { user: null };
    const auth = await authenticateRequest(ctx.deps, ctx.deps.platform, ctx.req);
    return { user: toUser(auth.user) };
  }),

  verifyEmail: publicProcedure
    .input(inputParser(VerifyEmailInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => verifyEmail(ctx.deps, ctx.deps.platform, input, ctx.request)),

  resendVerification: publicProcedure
    .input(inputParser(ResendVerificationInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => resendVerification(ctx.deps, ctx.deps.platform, input, ctx.request)),

  forgotPassword: publicProcedure
    .input(inputParser(ForgotPasswordInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => forgotPassword(ctx.deps, ctx.deps.platform, input, ctx.request)),

  resetPassword: publicProcedure
    .input(inputParser(ResetPasswordInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => resetPassword(ctx.deps, ctx.deps.platform, input)),

  changePassword: authedProcedure
    .input(inputParser(ChangePasswordInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => changePassword(ctx.deps, ctx.deps.platform, ctx.auth, input, ctx.request)),

  changeEmail: authedProcedure
    .input(inputParser(ChangeEmailInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => requestEmailChange(ctx.deps, ctx.deps.platform, ctx.auth, input, ctx.request)),

  /** Proves who the user is again before a sensitive change (a refusal's data says step_up_required). */
  stepUp: authedProcedure
    .input(inputParser(StepUpInputSchema))
    .output(StepUpAnswerSchema)
    .mutation(({ ctx, input }) => stepUp(ctx.deps, ctx.deps.platform, ctx.auth, input, ctx.request)),

  stepUpStatus: authedProcedure.output(StepUpStatusSchema).query(({ ctx }) => stepUpStatus(ctx.deps, ctx.auth)),

  stepUpPasskeyOptions: authedProcedure.output(WebAuthnOptionsSchema).mutation(({ ctx }) => stepUpPasskeyOptions(ctx.deps, ctx.deps.platform, ctx.auth)),

  /** Works signed out too (the link may be opened in another browser); a signed-in tab keeps its session. */
  confirmEmailChange: publicProcedure
    .input(inputParser(ConfirmEmailChangeInputSchema))
    .output(MessageSchema)
    .mutation(async ({ ctx, input }) => {
      const session = await authenticateIfSignedIn(ctx.deps, ctx.deps.platform, readAccessToken(ctx.req, ctx.deps.platform));
      return confirmEmailChange(ctx.deps, ctx.deps.platform, input, ctx.request, session?.sessionId ?? null);
    }),
});

import {
  ChangeEmailInputSchema,
  ChangePasswordInputSchema,
  ConfirmEmailChangeInputSchema,
  ResendVerificationInputSchema,
  ForgotPasswordInputSchema,
  LogInInputSchema,
  LogInAnswerSchema,
  LogInResponseSchema,
  RefreshInputSchema,
  ResetPasswordInputSchema,
  BrowserSessionSchema,
  BrowserSignInSchema,
  CurrentSessionSchema,
  RefreshedSessionSchema,
  SignUpInputSchema,
  TokenPairSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { MfaVerifyInputSchema } from '../../../shared/schemas/mfa.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { MESSAGES } from '../../../shared/messages.js';
import { AppError } from '../../errors.js';
import { EndUserHeadersSchema } from '../../rest/end-user-headers.js';
import { PLATFORM_COOKIES } from '../../plugins/auth-cookies.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { accessTokenOf } from '../../rest/callers.js';
import { ANYONE, defineRoute, SIGNED_IN, type RouteDoc } from '../../rest/route.js';
import { authenticate, endSession, refreshSession } from '../sessions/sessions.service.js';
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

/**
 * Sign-up, verification, sign-in, refresh, sign-out and password reset, one declaration for every
 * realm. The platform and the hosted pages are browser realms: tokens also travel in HttpOnly
 * cookies, and signing out always succeeds so a stale tab can clear its cookies. A project's end
 * users are reached by the developer's backend with X-API-Key; tokens travel in bodies and headers only.
 */
export function accountRoutes(mount: AccountMount) {
  const { platform, prefix, anonymous: auth, optionalSession, cookies, accessTokenOf, procedure } = accountMountOf(mount);
  /** The same route documented for developers, or for a developer's backend acting for its end users. */
  const doc = (forPlatform: RouteDoc, forProject: Omit<RouteDoc, 'tag'>): RouteDoc =>
    platform ? forPlatform : { ...forProject, tag: 'Public API' };
  const endUserHeaders = { headers: EndUserHeadersSchema };

  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/signup`,
      procedure: procedure('signUp'),
      access: auth,
      body: SignUpInputSchema,
      response: { 201: MessageSchema },
      doc: doc(
        {
          operationId: 'signUp',
          tag: 'Auth',
          summary: 'Create a developer account',
          description: 'Mails a verification link. The answer is the same whether or not the address already has an account.',
          responses: { 201: 'Account created (or already there); check the mailbox' },
          errors: [429],
        },
        { operationId: 'publicSignUp', summary: 'Sign up an end user', ...endUserHeaders, errors: [429] },
      ),
      handler: ({ deps, caller, body }) => signUp(deps, caller.realm, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/login`,
      procedure: procedure('logIn'),
      browserResponse: BrowserSignInSchema,
      access: auth,
      body: LogInInputSchema,
      response: { 200: LogInAnswerSchema },
      doc: doc(
        {
          operationId: 'logIn',
          tag: 'Auth',
          summary: 'Sign in',
          description:
            'Answers the tokens in the body and also sets them as HttpOnly cookies. With two factors on, a right password answers {mfa_required, mfa_token, methods} instead, with no tokens: finish with POST /api/v1/auth/mfa/verify.',
          errors: [401, 403, 429],
        },
        {
          operationId: 'publicLogIn',
          summary: 'Sign in an end user',
          description: 'With two factors on, a right password answers {mfa_required, mfa_token, methods}: finish with POST /public/api/v1/auth/mfa/verify.',
          ...endUserHeaders,
          errors: [429],
        },
      ),
      async handler({ deps, caller, body, request, reply }) {
        const result = await logIn(deps, caller.realm, body, caller.info);
        if (!('mfa_required' in result)) cookies?.set(reply, request, deps.config, result, caller.realm.policy);
        return result;
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/mfa/verify`,
      procedure: procedure('verifyMfa'),
      browserResponse: BrowserSessionSchema,
      access: auth,
      body: MfaVerifyInputSchema,
      response: { 200: LogInResponseSchema },
      doc: doc(
        {
          operationId: 'verifyMfa',
          tag: 'Auth',
          summary: 'Finish a sign-in with the second factor',
          description:
            'The mfa_token from the sign-in and a code from the authenticator app or a recovery code. Answers like a sign-in. The mfa_token lives 5 minutes, allows 5 codes and works once; each code works once.',
          errors: [400, 401, 403, 429],
        },
        { operationId: 'publicVerifyMfa', summary: "Finish an end user's sign-in with the second factor", ...endUserHeaders, errors: [400, 429] },
      ),
      async handler({ deps, caller, body, request, reply }) {
        const result = await verifyMfaSignIn(deps, caller.realm, body, caller.info);
        cookies?.set(reply, request, deps.config, result, caller.realm.policy);
        return result;
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/refresh`,
      procedure: procedure('refresh'),
      browserResponse: RefreshedSessionSchema,
      access: auth,
      body: RefreshInputSchema,
      response: { 200: TokenPairSchema },
      doc: doc(
        {
          operationId: 'refreshTokens',
          tag: 'Auth',
          summary: 'Rotate the refresh token',
          description: 'Takes the refresh token from the body, or else from its cookie. Each refresh token works once; presenting a spent one revokes the session.',
          bodyOptional: true,
          errors: [401, 429],
        },
        { operationId: 'publicRefreshTokens', summary: "Rotate an end user's refresh token", ...endUserHeaders, errors: [429] },
      ),
      async handler({ deps, caller, body, request, reply }) {
        const token = body.refresh_token ?? cookies?.readRefresh(request);
        try {
          const tokens = await refreshSession(deps, caller.realm, token, caller.info);
          cookies?.set(reply, request, deps.config, tokens, caller.realm.policy);
          return tokens;
        } catch (error) {
          cookies?.clear(reply, request, deps.config);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/logout`,
      procedure: procedure('logOut'),
      access: optionalSession,
      body: RefreshInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'logOut',
          tag: 'Auth',
          summary: 'Sign out',
          description: 'Ends the session of the refresh token in the body (or cookie), or of the access token, and clears the cookies. Always succeeds.',
          bodyOptional: true,
        },
        {
          operationId: 'publicLogOut',
          summary: "End an end user's session",
          description: "Needs the end user's access token (Authorization: Bearer) or their refresh token in the body.",
          bodyOptional: true,
        },
      ),
      async handler({ deps, caller, body, request, reply }) {
        const refreshToken = body.refresh_token ?? cookies?.readRefresh(request);
        const accessToken = accessTokenOf(request);
        if (!cookies && !accessToken && !refreshToken) throw new AppError('UNAUTHORIZED', 'Not authenticated');
        await endSession(deps, caller.realm, { accessToken, refreshToken });
        cookies?.clear(reply, request, deps.config);
        return { message: MESSAGES.loggedOut };
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/verify-email`,
      procedure: procedure('verifyEmail'),
      access: auth,
      body: VerifyEmailInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        { operationId: 'verifyEmail', tag: 'Auth', summary: 'Verify the e-mail address with the mailed token', errors: [429] },
        { operationId: 'publicVerifyEmail', summary: "Verify an end user's e-mail address", ...endUserHeaders, errors: [429] },
      ),
      handler: ({ deps, caller, body }) => verifyEmail(deps, caller.realm, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/resend-verification`,
      procedure: procedure('resendVerification'),
      access: auth,
      body: ResendVerificationInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'resendVerification',
          tag: 'Auth',
          summary: 'Mail the verification link again',
          description: 'Same answer whether or not the address has an account.',
          errors: [429],
        },
        { operationId: 'publicResendVerification', summary: 'Mail the verification link again', ...endUserHeaders, errors: [429] },
      ),
      handler: ({ deps, caller, body }) => resendVerification(deps, caller.realm, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/forgot-password`,
      procedure: procedure('forgotPassword'),
      access: auth,
      body: ForgotPasswordInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'forgotPassword',
          tag: 'Auth',
          summary: 'Mail a password-reset link',
          description: 'Same answer whether or not the address has an account. The link is valid for one hour, once.',
          errors: [429],
        },
        { operationId: 'publicForgotPassword', summary: 'Mail an end user a password-reset link', ...endUserHeaders, errors: [429] },
      ),
      handler: ({ deps, caller, body }) => forgotPassword(deps, caller.realm, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/reset-password`,
      procedure: procedure('resetPassword'),
      access: auth,
      body: ResetPasswordInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        { operationId: 'resetPassword', tag: 'Auth', summary: 'Set a new password with the mailed token', description: 'Signs out every session of the account.' },
        { operationId: 'publicResetPassword', summary: "Set an end user's new password with the mailed token" },
      ),
      handler: ({ deps, caller, body }) => resetPassword(deps, caller.realm, body),
    }),
  ];
}

/**
 * Changing the account's e-mail address, one declaration for both realms: the signed-in account asks
 * (with its password), and the link mailed to the new address confirms, signed in or not.
 */
export function emailChangeRoutes(mount: AccountMount) {
  const { prefix, signedIn, optionalSession, doc, procedure } = accountMountOf(mount);

  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/change-email`,
      procedure: procedure('changeEmail'),
      access: signedIn,
      body: ChangeEmailInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'changeEmail',
          tag: 'Auth',
          summary: 'Ask to change the e-mail address',
          description:
            'Needs the current password (401 otherwise). Mails the new address a link (valid 1 hour, once) that makes the change, and the current address a notice. The answer is the same whether or not the new address already has an account (that address is then told someone tried, and nothing changes). 422 when it is the current address.',
          errors: [429],
        },
        { operationId: 'publicChangeEmail', summary: "Ask to change an end user's e-mail address", description: "The link points at the project's website_url: /confirm-email-change?token=…", errors: [429] },
      ),
      handler: ({ deps, caller, body }) => requestEmailChange(deps, caller.realm, caller.session, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/confirm-email-change`,
      procedure: procedure('confirmEmailChange'),
      access: optionalSession,
      body: ConfirmEmailChangeInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'confirmEmailChange',
          tag: 'Auth',
          summary: 'Change the e-mail address with the mailed token',
          description:
            "The new address counts as verified and the account's pending links end. Signs out every other session of the account (every session, when called without one) and tells the old address. 409 when another account took the address meanwhile.",
          errors: [400, 409, 429],
        },
        { operationId: 'publicConfirmEmailChange', summary: "Change an end user's e-mail address with the mailed token", errors: [400, 409, 429] },
      ),
      handler: ({ deps, caller, body }) => confirmEmailChange(deps, caller.realm, body, caller.info, caller.session?.sessionId ?? null),
    }),
  ];
}

/** The signed-in developer's own session (end users have /public/api/v1/profile). */
export const platformAuthRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/auth/me',
    access: SIGNED_IN,
    response: { 200: UserSchema },
    procedure: 'me',
    doc: { operationId: 'getMe', tag: 'Auth', summary: 'The signed-in developer' },
    async handler({ caller, reply }) {
      reply.header('cache-control', 'no-store');
      return toUser(caller.session.user);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/auth/session',
    access: ANYONE,
    response: { 200: CurrentSessionSchema },
    procedure: 'session',
    doc: {
      operationId: 'getSession',
      tag: 'Auth',
      summary: "The browser's session check",
      description:
        'The signed-in developer, or `{"user": null}` for a visitor without session cookies or Bearer token. A token that no longer works is a 401, so the browser refreshes once and asks again.',
      errors: [401],
    },
    async handler({ deps, request, reply }) {
      reply.header('cache-control', 'no-store');
      const token = accessTokenOf(request, 'platform');
      if (!token && !PLATFORM_COOKIES.readRefresh(request)) return { user: null };
      return { user: toUser((await authenticate(deps, deps.platform, token)).user) };
    },
  }),
];

/** Changing the password with the current one (or setting the first one after a step-up), one declaration for every realm. */
export function passwordChangeRoutes(mount: AccountMount) {
  const { prefix, signedIn, doc, procedure } = accountMountOf(mount);
  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/change-password`,
      procedure: procedure('changePassword'),
      access: signedIn,
      body: ChangePasswordInputSchema,
      response: { 200: MessageSchema },
      doc: doc(
        {
          operationId: 'changePassword',
          tag: 'Auth',
          summary: 'Change the password',
          description: 'Needs the current password (400 when wrong, 422 when left out). An account without one (provider or passkey only) leaves it out and sets its first password after a recent step-up (401 with `step_up_required` otherwise). Signs out the other sessions of the account.',
          errors: [400, 401],
        },
        {
          operationId: 'publicChangePassword',
          summary: "Change an end user's password",
          description: 'Needs the current password (400 when wrong, 422 when left out). An account without one (provider or passkey only) leaves it out and sets its first password after a recent step-up (401 with `step_up_required` otherwise). Signs out the other sessions of the account.',
          errors: [400, 401],
        },
      ),
      handler: ({ deps, caller, body }) => changePassword(deps, caller.realm, caller.session, body, caller.info),
    }),
  ];
}

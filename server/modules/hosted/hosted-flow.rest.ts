import {
  ForgotPasswordInputSchema,
  ResendVerificationInputSchema,
  ResetPasswordInputSchema,
  SignUpInputSchema,
  VerifyEmailInputSchema,
} from '../../../shared/schemas/auth.js';
import { DeviceFingerprintSchema, MessageSchema } from '../../../shared/schemas/common.js';
import { ContinuationInputSchema, LinkAnswerSchema } from '../../../shared/schemas/hosted.js';
import { HOSTED_COOKIES } from '../../plugins/auth-cookies.js';
import { defineRoute, HOSTED } from '../../rest/route.js';
import { forgotPassword, resendVerification, signUp, spendResetLink, spendVerificationLink } from '../auth/auth.service.js';
import { continuationFrom, continueAfterLink, type LinkOutcome } from './continuation.service.js';
import { flowBindingOf, presentedFlowBinding } from './flow-cookie.js';

const PREFIX = '/hosted/:project_key/api/v1';
const TAG = 'Hosted pages';
const withFingerprint = { device_fingerprint: DeviceFingerprintSchema };

/**
 * The hosted pages' own versions of the routes that mail a link and of the routes that use one (they
 * replace the shared account routes on the hosted mount, see server/routes.ts). A form that serves an
 * app's sign-in sends it along (`interaction`, `return_to`), the link's token remembers it with the
 * asking browser, and using the link answers what the page does next (`next`), signing the user in
 * when the link may (continuation.service.ts).
 */
export const hostedFlowRoutes = [
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/auth/signup`,
    access: HOSTED,
    body: SignUpInputSchema.extend(ContinuationInputSchema.shape),
    response: { 201: MessageSchema },
    doc: {
      operationId: 'hostedSignUp',
      tag: TAG,
      summary: 'Sign up on the hosted pages',
      description: 'The verification link goes on with the app sign-in the page serves (`interaction` or `return_to`). Same answer whether or not the address has an account.',
      errors: [429],
    },
    handler: async ({ deps, caller, body, request, reply }) =>
      signUp(deps, caller.realm, body, caller.info, await continuationFrom(deps, caller, body, () => flowBindingOf(request, reply, deps.config))),
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/auth/resend-verification`,
    access: HOSTED,
    body: ResendVerificationInputSchema.extend(ContinuationInputSchema.shape),
    response: { 200: MessageSchema },
    doc: { operationId: 'hostedResendVerification', tag: TAG, summary: 'Mail the verification link again', errors: [429] },
    handler: async ({ deps, caller, body, request, reply }) =>
      resendVerification(deps, caller.realm, body, caller.info, await continuationFrom(deps, caller, body, () => flowBindingOf(request, reply, deps.config))),
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/auth/forgot-password`,
    access: HOSTED,
    body: ForgotPasswordInputSchema.extend(ContinuationInputSchema.shape),
    response: { 200: MessageSchema },
    doc: { operationId: 'hostedForgotPassword', tag: TAG, summary: 'Mail a password-reset link', errors: [429] },
    handler: async ({ deps, caller, body, request, reply }) =>
      forgotPassword(deps, caller.realm, body, caller.info, await continuationFrom(deps, caller, body, () => flowBindingOf(request, reply, deps.config))),
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/auth/verify-email`,
    access: HOSTED,
    body: VerifyEmailInputSchema.extend(withFingerprint),
    response: { 200: LinkAnswerSchema },
    doc: {
      operationId: 'hostedVerifyEmail',
      tag: TAG,
      summary: 'Verify the address with the mailed token, and go on with the app sign-in it carries',
      description:
        'In the browser that asked for the link, signs in (sets the session cookies; the second step first with two factors): next.kind signed_in or second_factor. Elsewhere the password is asked: sign_in. An app sign-in that is over: expired.',
      errors: [429],
    },
    async handler({ deps, caller, body, request, reply }) {
      const proven = await spendVerificationLink(deps, caller.realm, body, caller.info);
      const browser = { binding: presentedFlowBinding(request), deviceFingerprint: body.device_fingerprint };
      const outcome = await continueAfterLink(deps, caller, proven, browser, caller.info, { passwordJustSet: false });
      return answer(proven.message, outcome, (signedIn) => HOSTED_COOKIES.set(reply, request, deps.config, signedIn, caller.realm.policy));
    },
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/auth/reset-password`,
    access: HOSTED,
    body: ResetPasswordInputSchema.extend(withFingerprint),
    response: { 200: LinkAnswerSchema },
    doc: {
      operationId: 'hostedResetPassword',
      tag: TAG,
      summary: 'Set a new password with the mailed token, and go on with the app sign-in it carries',
      description: 'Signs out every session of the account; with an app sign-in to go on with, signs in with the new password (the second step first with two factors).',
    },
    async handler({ deps, caller, body, request, reply }) {
      const proven = await spendResetLink(deps, caller.realm, body);
      const browser = { binding: presentedFlowBinding(request), deviceFingerprint: body.device_fingerprint };
      const outcome = await continueAfterLink(deps, caller, proven, browser, caller.info, { passwordJustSet: true });
      return answer(proven.message, outcome, (signedIn) => HOSTED_COOKIES.set(reply, request, deps.config, signedIn, caller.realm.policy));
    },
  }),
];

function answer(message: string, outcome: LinkOutcome, setCookies: (signedIn: NonNullable<LinkOutcome['signedIn']>) => void) {
  if (outcome.signedIn) setCookies(outcome.signedIn);
  return { message, next: outcome.next };
}

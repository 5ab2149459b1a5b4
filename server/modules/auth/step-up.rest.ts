import { StepUpAnswerSchema, StepUpEmailCodeAnswerSchema, StepUpInputSchema, StepUpStatusSchema } from '../../../shared/schemas/step-up.js';
import { stepUpStatus } from '../sessions/step-up.js';
import { WebAuthnOptionsSchema } from '../../../shared/schemas/passkeys.js';
import { defineRoute } from '../../rest/route.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { stepUp, stepUpPasskeyOptions } from './step-up.service.js';
import { sendStepUpEmailCode } from './step-up-email-code.js';

const STEP_UP_DESCRIPTION =
  'Adding a passkey, connecting a provider, turning on two factors, new recovery codes, a change of e-mail address and deleting the account without its password need a proof of who the user is within STEP_UP_WINDOW_S (5 minutes by default): the sign-in itself, or this call. Without one they answer 401 `{"detail", "step_up_required": true, "step_up_methods"}`; give one proof (`password`, `code` from the authenticator app or a recovery code, `passkey_response` to POST …/auth/step-up/passkey/options, or for an account whose only method is `email` the `email_code` mailed by POST …/auth/step-up/email-code) and retry. A wrong proof is a 400.';

/** Proving who the signed-in user is again (step-up), one declaration for every realm. */
export function stepUpRoutes(mount: AccountMount) {
  const { prefix, signedIn: auth, doc, procedure } = accountMountOf(mount);
  return [
    defineRoute({
      method: 'GET',
      url: `${prefix}/auth/step-up`,
      procedure: procedure('stepUpStatus'),
      access: auth,
      response: { 200: StepUpStatusSchema },
      doc: doc(
        {
          operationId: 'getStepUpStatus',
          tag: 'Auth',
          summary: 'Whether a sensitive change needs a step-up first',
          description: 'step_up_required says whether adding a way in or changing the address would answer 401 step_up_required now; step_up_methods the proofs the account can give; expires_at until when the current proof lasts.',
        },
        { operationId: 'publicGetStepUpStatus', summary: "Whether an end user's sensitive change needs a step-up first" },
      ),
      handler: ({ deps, caller }) => stepUpStatus(deps, caller.session),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/step-up`,
      procedure: procedure('stepUp'),
      access: auth,
      body: StepUpInputSchema,
      response: { 200: StepUpAnswerSchema },
      doc: doc(
        { operationId: 'stepUp', tag: 'Auth', summary: 'Prove who you are again before a sensitive change', description: STEP_UP_DESCRIPTION, errors: [400, 429] },
        { operationId: 'publicStepUp', summary: 'Prove who an end user is again before a sensitive change', description: STEP_UP_DESCRIPTION, errors: [400, 429] },
      ),
      handler: ({ deps, caller, body }) => stepUp(deps, caller.realm, caller.session, body, caller.info),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/step-up/passkey/options`,
      procedure: procedure('stepUpPasskeyOptions'),
      access: auth,
      response: { 200: WebAuthnOptionsSchema },
      doc: doc(
        {
          operationId: 'stepUpPasskeyOptions',
          tag: 'Auth',
          summary: "Options for a step-up with one of the account's passkeys",
          description: 'Options for navigator.credentials.get() naming the account\'s passkeys; the answer goes to POST /auth/step-up as passkey_response. 400 when the account has none.',
          errors: [400],
        },
        { operationId: 'publicStepUpPasskeyOptions', summary: "Options for an end user's step-up with a passkey", errors: [400] },
      ),
      handler: ({ deps, caller }) => stepUpPasskeyOptions(deps, caller.realm, caller.session),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/step-up/email-code`,
      procedure: procedure('stepUpEmailCode'),
      access: auth,
      response: { 200: StepUpEmailCodeAnswerSchema },
      doc: doc(
        {
          operationId: 'stepUpEmailCode',
          tag: 'Auth',
          summary: 'Mail a step-up code to an account without a password',
          description:
            "For an account whose step_up_methods are `[\"email\"]` (it signs in with a provider only, its address verified): mails a 6-digit code, valid 15 minutes, once, for this session only; a new code ends the earlier one. The code goes to POST /auth/step-up as email_code. 400 for an account with a password, an authenticator app or a passkey (those stay its proofs), 403 while its address is unverified, 429 past 3 codes in 15 minutes.",
          errors: [400, 403, 429],
        },
        { operationId: 'publicStepUpEmailCode', summary: "Mail a step-up code to an end user without a password", errors: [400, 403, 429] },
      ),
      handler: ({ deps, caller }) => sendStepUpEmailCode(deps, caller.realm, caller.session, caller.info),
    }),
  ];
}

import type { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.js';
import type { StepUpAnswer, StepUpInputSchema } from '../../../shared/schemas/step-up.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { hasSecondFactor, requireSecondFactor } from '../mfa/mfa.service.js';
import { checkPasskey, PASSKEY_NOT_VERIFIED, passkeyStepUpOptions } from '../passkeys/passkeys.service.js';
import type { Realm } from '../realms/realm.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import { recordProof } from '../sessions/step-up.js';
import { checkCurrentPassword } from '../passwords/current-password.js';
import { checkStepUpEmailCode } from './step-up-email-code.js';

const INCORRECT_PASSWORD = 'Incorrect password';

/**
 * The signed-in user proves who they are again, with one proof the account has: the password (the
 * current-password limits apply), a second-factor code (the wrong-code budgets apply), one of its
 * passkeys with the user verified, or for an account with none of those a code mailed to it. The
 * session may then add a way in, change its address or delete itself for STEP_UP_WINDOW_S. A wrong
 * proof is a 400, so a browser never takes it for an expired session.
 */
export async function stepUp(deps: Deps, realm: Realm, auth: Authenticated, input: z.output<typeof StepUpInputSchema>, request: RequestInfo): Promise<StepUpAnswer> {
  const { user } = auth;
  if (input.password !== undefined) {
    await checkCurrentPassword(deps, user, input.password, request, new AppError('BAD_REQUEST', INCORRECT_PASSWORD));
  } else if (input.code !== undefined) {
    if (!hasSecondFactor(user)) throw new AppError('BAD_REQUEST', 'Two-factor authentication is off');
    await requireSecondFactor(deps, user, input.code, request);
  } else if (input.passkey_response !== undefined) {
    const { verified } = await checkPasskey(deps, realm, input.passkey_response, { purpose: 'step_up', userId: user.id });
    if (!verified) throw new AppError('BAD_REQUEST', PASSKEY_NOT_VERIFIED);
  } else if (input.email_code !== undefined) {
    await checkStepUpEmailCode(deps, realm, auth, input.email_code);
  }
  return { message: MESSAGES.stepUpConfirmed, expires_at: await recordProof(deps, auth) };
}

/** Options for proving who the user is with one of the account's passkeys; the answer goes to stepUp as passkey_response. */
export function stepUpPasskeyOptions(deps: Deps, realm: Realm, auth: Authenticated) {
  return passkeyStepUpOptions(deps, realm, auth.user);
}

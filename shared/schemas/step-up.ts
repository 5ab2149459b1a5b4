import { z } from 'zod';
import { VALIDATION } from '../messages.js';
import { CurrentPasswordSchema, MfaCodeSchema } from './mfa.js';
import { PasskeyCredentialSchema } from './passkeys.js';

/**
 * The proofs a session may step up with, as a refusal lists them for its account (none: sign in again).
 * `email`, a code mailed to the verified address, only for an account with none of the others.
 */
export const StepUpMethodSchema = z.enum(['password', 'totp', 'passkey', 'email']);
export type StepUpMethod = z.infer<typeof StepUpMethodSchema>;

/** The 6 digits mailed by POST /auth/step-up/email-code (spaces a reader might type are dropped). */
export const StepUpEmailCodeSchema = z
  .string({ error: VALIDATION.stepUpEmailCodeInvalid })
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: VALIDATION.stepUpEmailCodeInvalid }));

/**
 * Exactly one proof: the password, a code (authenticator app or recovery), a passkey's answer to
 * POST /auth/step-up/passkey/options, or the code mailed by POST /auth/step-up/email-code.
 */
export const StepUpInputSchema = z
  .object({
    password: CurrentPasswordSchema.optional(),
    code: MfaCodeSchema.optional(),
    passkey_response: PasskeyCredentialSchema.optional(),
    email_code: StepUpEmailCodeSchema.optional(),
  })
  .refine((input) => [input.password, input.code, input.passkey_response, input.email_code].filter((proof) => proof !== undefined).length === 1, {
    error: VALIDATION.stepUpProofRequired,
  });
export type StepUpInput = z.input<typeof StepUpInputSchema>;

export const StepUpAnswerSchema = z.object({
  message: z.string(),
  /** Until when this session may add a way in or change its address without another proof. */
  expires_at: z.string(),
});
export type StepUpAnswer = z.infer<typeof StepUpAnswerSchema>;

/** POST /auth/step-up/email-code: where the code went (the session's own address) and until when it works. */
export const StepUpEmailCodeAnswerSchema = z.object({
  message: z.string(),
  sent_to: z.string(),
  expires_at: z.string(),
});
export type StepUpEmailCodeAnswer = z.infer<typeof StepUpEmailCodeAnswerSchema>;

/** GET /auth/step-up: whether a sensitive change would be refused for want of a recent proof, and with which proofs to give one. */
export const StepUpStatusSchema = z.object({
  step_up_required: z.boolean(),
  step_up_methods: z.array(StepUpMethodSchema),
  /** Until when the current proof lasts; null when a step-up is required. */
  expires_at: z.string().nullable(),
});
export type StepUpStatus = z.infer<typeof StepUpStatusSchema>;

/** What a refusal for want of a recent proof adds to `{"detail"}` (REST) or to the error's data (tRPC). */
export interface StepUpRefusal {
  step_up_required: true;
  step_up_methods: StepUpMethod[];
}

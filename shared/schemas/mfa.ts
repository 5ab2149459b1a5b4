import { z } from 'zod';
import { VALIDATION } from '../messages.js';
import { PasskeyCredentialSchema } from './passkeys.js';

/** A 6-digit TOTP code or a recovery code; spaces are allowed (people paste "123 456"). */
export const MfaCodeSchema = z
  .string({ error: VALIDATION.codeRequired })
  .trim()
  .min(1, { error: VALIDATION.codeRequired })
  .max(64, { error: VALIDATION.codeInvalid });

export const CurrentPasswordSchema = z.string({ error: VALIDATION.currentPasswordRequired }).min(1, { error: VALIDATION.currentPasswordRequired }).max(1024);

export const MfaMethodSchema = z.enum(['totp', 'recovery_code', 'passkey']);
export type MfaMethod = z.infer<typeof MfaMethodSchema>;

/** The answer to a right password on an account with two factors: no tokens yet, a second step to take. */
export const MfaChallengeSchema = z.object({
  mfa_required: z.literal(true),
  mfa_token: z.string(),
  methods: z.array(MfaMethodSchema),
});
export type MfaChallenge = z.infer<typeof MfaChallengeSchema>;

export const TotpSetupSchema = z.object({
  /** Base32, for typing into an authenticator by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code carries. */
  otpauth_url: z.string(),
});
export type TotpSetup = z.infer<typeof TotpSetupSchema>;

export const TotpConfirmInputSchema = z.object({ code: MfaCodeSchema });
/** The password is optional: without it the session needs a recent step-up (POST /auth/step-up). */
export const RecoveryCodesInputSchema = z.object({ password: CurrentPasswordSchema.optional() });
export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;
export const MfaDisableInputSchema = z.object({ password: CurrentPasswordSchema, code: MfaCodeSchema });

const MfaTokenSchema = z.string({ error: VALIDATION.mfaTokenRequired }).min(1, { error: VALIDATION.mfaTokenRequired }).max(200);

/** The second step: a code (TOTP or recovery), or a passkey's answer to POST /auth/mfa/passkey/options. */
export const MfaVerifyInputSchema = z
  .object({
    mfa_token: MfaTokenSchema,
    code: MfaCodeSchema.optional(),
    passkey_response: PasskeyCredentialSchema.optional(),
  })
  .refine((input) => input.code !== undefined || input.passkey_response !== undefined, { error: VALIDATION.codeRequired, path: ['code'] });
export type MfaVerifyInput = z.input<typeof MfaVerifyInputSchema>;

export const MfaPasskeyOptionsInputSchema = z.object({ mfa_token: MfaTokenSchema });

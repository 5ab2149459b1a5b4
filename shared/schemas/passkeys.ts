import { z } from 'zod';
import { VALIDATION } from '../messages.js';
import { DeviceFingerprintSchema, EmailSchema } from './common.js';

export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) });
export const PasskeyCreatedSchema = z.object({ passkey: PasskeySchema });

export const PasskeyNameSchema = z
  .string({ error: VALIDATION.passkeyNameRequired })
  .trim()
  .min(1, { error: VALIDATION.passkeyNameRequired })
  .max(64, { error: VALIDATION.passkeyNameTooLong });

/**
 * What the browser's navigator.credentials.create() or .get() produced, as JSON (WebAuthn Level 3's
 * RegistrationResponseJSON / AuthenticationResponseJSON, which @simplewebauthn/browser answers). Only
 * its envelope is checked here; the WebAuthn library checks the rest, signature included.
 */
export const PasskeyCredentialSchema = z.looseObject({
  id: z.string({ error: VALIDATION.passkeyResponseInvalid }).min(1, { error: VALIDATION.passkeyResponseInvalid }).max(1024, { error: VALIDATION.passkeyResponseInvalid }),
  rawId: z.string({ error: VALIDATION.passkeyResponseInvalid }).max(1024, { error: VALIDATION.passkeyResponseInvalid }),
  type: z.literal('public-key', { error: VALIDATION.passkeyResponseInvalid }),
  response: z.record(z.string(), z.unknown(), { error: VALIDATION.passkeyResponseInvalid }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
}, { error: VALIDATION.passkeyResponseInvalid });

/** Options for navigator.credentials.create() or .get(), as JSON; hand them to @simplewebauthn/browser. */
export const WebAuthnOptionsSchema = z.looseObject({ challenge: z.string() });
export type WebAuthnOptions = z.infer<typeof WebAuthnOptionsSchema>;

export const PasskeyRegisterInputSchema = z.object({
  response: PasskeyCredentialSchema,
  name: PasskeyNameSchema.optional(),
});
export type PasskeyRegisterInput = z.input<typeof PasskeyRegisterInputSchema>;

export const PasskeyRenameInputSchema = z.object({ name: PasskeyNameSchema });

export const PasskeyLoginOptionsInputSchema = z.object({
  /** Without it, the browser offers the passkeys it holds for this site (discoverable credentials). */
  email: EmailSchema.optional(),
});

export const PasskeyLoginInputSchema = z.object({
  response: PasskeyCredentialSchema,
  device_fingerprint: DeviceFingerprintSchema,
});
export type PasskeyLoginInput = z.input<typeof PasskeyLoginInputSchema>;

import { z } from 'zod';
import { VALIDATION } from '../messages.js';
import { metadataSchema } from './organizations.js';
import {
  CaptchaTokenSchema,
  DeviceFingerprintSchema,
  EmailSchema,
  NewPasswordSchema,
  OptionalNameSchema,
  OptionalUrlSchema,
} from './common.js';
import { MfaChallengeSchema } from './mfa.js';
import { SessionIdleTimeoutSchema } from './sessions.js';
import { UserSchema } from './user.js';
import { LocaleSchema } from './common.js';

export const SignUpInputSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  first_name: OptionalNameSchema,
  last_name: OptionalNameSchema,
  company_name: OptionalNameSchema,
  website_url: OptionalUrlSchema,
  captcha_token: CaptchaTokenSchema,
  device_fingerprint: DeviceFingerprintSchema,
  /** An end user's language (en, de, fr, es, ja) for the hosted pages and mails; left out, the request's Accept-Language. */
  locale: LocaleSchema.optional(),
});
export type SignUpInput = z.input<typeof SignUpInputSchema>;

export const LogInInputSchema = z.object({
  email: EmailSchema,
  password: z
    .string({ error: VALIDATION.passwordRequired })
    .min(1, { error: VALIDATION.passwordRequired })
    .max(1024, { error: 'Incorrect email or password' }),
  captcha_token: CaptchaTokenSchema,
  device_fingerprint: DeviceFingerprintSchema,
});
export type LogInInput = z.input<typeof LogInInputSchema>;

export const TokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});

export const LogInResponseSchema = TokenPairSchema.extend({ user: UserSchema });
export type LogInResponse = z.infer<typeof LogInResponseSchema>;
/** A sign-in's answer: the session, or (two factors on) the challenge for the second step. */
export const LogInAnswerSchema = z.union([LogInResponseSchema, MfaChallengeSchema]);

/** What the browser gets over tRPC: its tokens travel only in HttpOnly cookies. */
export const BrowserSessionSchema = z.object({ user: UserSchema, expires_in: z.number().int() });
export const BrowserSignInSchema = z.union([BrowserSessionSchema, MfaChallengeSchema]);
/** The browser's session check: who is signed in, or null for a visitor without session cookies. */
export const CurrentSessionSchema = z.object({ user: UserSchema.nullable() });
/** What the browser learns from a refresh: the new tokens stay in their HttpOnly cookies. */
export const RefreshedSessionSchema = BrowserSessionSchema.pick({ expires_in: true });

export const RefreshInputSchema = z.object({
  refresh_token: z.string({ error: 'Refresh token must be text' }).max(512).optional(),
});

export const VerifyEmailInputSchema = z.object({
  token: z
    .string({ error: VALIDATION.verificationTokenMissing })
    .trim()
    .min(1, { error: VALIDATION.verificationTokenMissing })
    .max(512, { error: VALIDATION.verificationTokenMissing }),
});

/** Like forgot-password, the captcha (when one is configured) is checked before any per-account budget is spent. */
export const ResendVerificationInputSchema = z.object({ email: EmailSchema, captcha_token: CaptchaTokenSchema });

export const ForgotPasswordInputSchema = z.object({ email: EmailSchema, captcha_token: CaptchaTokenSchema });

export const ResetPasswordInputSchema = z.object({
  token: z
    .string({ error: VALIDATION.resetTokenInvalid })
    .trim()
    .min(1, { error: VALIDATION.resetTokenInvalid })
    .max(512, { error: VALIDATION.resetTokenInvalid }),
  new_password: NewPasswordSchema,
  /** Keep the account's passkeys and connected providers (default: a reset removes them). */
  keep_sign_in_methods: z.boolean().optional().default(false),
});

/** `current_password` is required of an account that has one; an account without one (social or passkey only) sets its first after a recent step-up. */
export const ChangePasswordInputSchema = z.object({
  current_password: z
    .string({ error: VALIDATION.currentPasswordRequired })
    .min(1, { error: VALIDATION.currentPasswordRequired })
    .max(1024, { error: 'Current password is incorrect' })
    .optional(),
  new_password: NewPasswordSchema,
});

/** Names, the mail preferences and the session idle timeout; fields left out stay as they are. */
export const UpdateProfileInputSchema = z.object({
  first_name: OptionalNameSchema.optional(),
  last_name: OptionalNameSchema.optional(),
  login_notifications: z.boolean({ error: 'login_notifications must be true or false' }).optional(),
  session_idle_timeout_minutes: SessionIdleTimeoutSchema.optional(),
  email_notifications: z.boolean({ error: 'email_notifications must be true or false' }).optional(),
  notify_security_alerts: z.boolean({ error: 'notify_security_alerts must be true or false' }).optional(),
  notify_product_updates: z.boolean({ error: 'notify_product_updates must be true or false' }).optional(),
  notify_marketing: z.boolean({ error: 'notify_marketing must be true or false' }).optional(),
  /** The language of an end user's hosted pages and mails; null: none saved (each request's language applies). */
  locale: LocaleSchema.nullable().optional(),
});

/** A project's end user also writes their own metadata (replaced whole). */
export const UpdateEndUserProfileInputSchema = UpdateProfileInputSchema.extend({
  unsafe_metadata: metadataSchema('unsafe_metadata').optional(),
});

/** The new address and the current password: a signed-in session alone cannot move the account. */
/** The password is optional: without it the session needs a recent step-up (POST /auth/step-up). */
export const ChangeEmailInputSchema = z.object({
  new_email: EmailSchema,
  password: z.string({ error: VALIDATION.currentPasswordRequired }).min(1, { error: VALIDATION.currentPasswordRequired }).max(1024, { error: 'Incorrect password' }).optional(),
});
export type ChangeEmailInput = z.input<typeof ChangeEmailInputSchema>;

export const ConfirmEmailChangeInputSchema = z.object({
  token: z
    .string({ error: VALIDATION.emailChangeLinkInvalid })
    .trim()
    .min(1, { error: VALIDATION.emailChangeLinkInvalid })
    .max(512, { error: VALIDATION.emailChangeLinkInvalid }),
});

/** The current password: a signed-in session alone cannot delete the account. */
/** The password, or (left out) a recent step-up: an account without a password can delete itself too. */
export const DeleteAccountInputSchema = z.object({
  password: z.string({ error: VALIDATION.currentPasswordRequired }).min(1, { error: VALIDATION.currentPasswordRequired }).max(1024, { error: 'Incorrect password' }).optional(),
});

export const CaptchaConfigSchema = z.object({
  enabled: z.boolean(),
  provider: z.string(),
  site_key: z.string(),
});

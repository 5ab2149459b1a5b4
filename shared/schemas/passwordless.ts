import { z } from 'zod';
import { CaptchaTokenSchema, DeviceFingerprintSchema, EmailSchema } from './common.js';
import { ContinuationInputSchema, LinkNextSchema } from './hosted.js';

/** Sign-in without a password: a 6-digit code, or a one-time link, mailed to the address. */
export const EMAIL_CODE_TTL_S = 10 * 60;
export const EMAIL_CODE_MAX_TRIES = 5;
export const MAGIC_LINK_TTL_S = 15 * 60;
/** The public API's one-time code after a magic link, for /auth/oauth/exchange. */
export const MAGIC_LINK_EXCHANGE_TTL_S = 60;

export const PASSWORDLESS_MESSAGES = {
  codeSent: 'If the address can sign in here, a code is on its way. It works for 10 minutes.',
  linkSent: 'If the address can sign in here, a sign-in link is on its way. It works for 15 minutes.',
  codeIncorrect: 'Incorrect or expired code',
  linkInvalid: 'This sign-in link is invalid',
  linkUsed: 'This sign-in link has already been used',
  linkExpired: 'This sign-in link has expired. Please ask for a new one.',
  redirectNotRegistered: "redirect_uri is not one of the project's registered redirect URIs",
} as const;

export const EmailCodeInputSchema = z.object({ email: EmailSchema, captcha_token: CaptchaTokenSchema });

export const EmailCodeVerifyInputSchema = z.object({
  email: EmailSchema,
  code: z
    .string({ error: 'code is required' })
    .trim()
    .regex(/^\d{6}$/, { error: 'code must be 6 digits' }),
  device_fingerprint: DeviceFingerprintSchema,
});

export const MagicLinkInputSchema = z.object({
  email: EmailSchema,
  /** One of the project's registered redirect URIs: the link's sign-in comes back there with `code` (and `state`). */
  redirect_uri: z.string({ error: 'redirect_uri is required' }).min(1, { error: 'redirect_uri is required' }).max(2000, { error: 'redirect_uri is too long' }),
  /** Handed back with the code, for the app to check its own sign-in. */
  state: z.string().max(500, { error: 'state must be at most 500 characters' }).optional(),
  captcha_token: CaptchaTokenSchema,
});

/** The hosted pages ask for a link for the app sign-in their form serves. */
export const HostedMagicLinkInputSchema = z.object({ email: EmailSchema, captcha_token: CaptchaTokenSchema }).extend(ContinuationInputSchema.shape);

export const MagicLinkOpenInputSchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }).max(200, { error: PASSWORDLESS_MESSAGES.linkInvalid }),
  /** The person opening the link in another browser than the one that asked confirmed they want to sign in here. */
  confirm: z.boolean().optional(),
  device_fingerprint: DeviceFingerprintSchema,
});

/**
 * What the magic-link page does next: `confirm` (opened in another browser than the one that asked, or
 * for a developer's app: ask the person before signing in), `redirect` (back to the app with its
 * one-time code), or what a mailed link of the hosted pages does (signed_in, second_factor).
 */
export const MagicLinkNextSchema = z.union([
  z.object({ kind: z.literal('confirm'), email: z.string() }),
  z.object({ kind: z.literal('redirect'), url: z.string() }),
  LinkNextSchema,
]);
export const MagicLinkAnswerSchema = z.object({ next: MagicLinkNextSchema });
export type MagicLinkAnswer = z.infer<typeof MagicLinkAnswerSchema>;

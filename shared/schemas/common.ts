import { z } from 'zod';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from '../constants.js';
import { VALIDATION } from '../messages.js';
import { SUPPORTED_LOCALES, type Locale } from '../i18n/locales.js';

const byteLength = (value: string) => new TextEncoder().encode(value).length;

/**
 * An e-mail address as every input takes it: trimmed and in lower case, the form it is stored and compared
 * in, so a service never normalises what it was given (lib/email.ts does it for addresses from elsewhere).
 */
export const EmailSchema = z
  .string({ error: VALIDATION.emailInvalid })
  .trim()
  .toLowerCase()
  .max(254, { error: VALIDATION.emailInvalid })
  .pipe(z.email({ error: VALIDATION.emailInvalid }));

/** The signup/reset password rules. The common-password check needs the server's list and lives there. */
export const NewPasswordSchema = z
  .string({ error: VALIDATION.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, { error: VALIDATION.passwordTooShort })
  .refine((value) => byteLength(value) <= PASSWORD_MAX_BYTES, { error: VALIDATION.passwordTooLong })
  .refine((value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value), {
    error: VALIDATION.passwordComplexity,
  });

export const OptionalNameSchema = z
  .string({ error: 'Must be text' })
  .trim()
  .max(100, { error: VALIDATION.nameTooLong })
  .nullish()
  .transform((value) => value || null);

/** A web address (http or https) or empty. Empty and missing both become null. */
export const OptionalUrlSchema = z
  .string({ error: VALIDATION.urlInvalid })
  .trim()
  .max(2048, { error: VALIDATION.urlInvalid })
  .nullish()
  .refine((value) => !value || isHttpUrl(value), { error: VALIDATION.urlInvalid })
  .transform((value) => value || null);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const MessageSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageSchema>;

/** Opaque client-side hints; bounded so nobody can store megabytes in them. */
export const CaptchaTokenSchema = z.string({ error: 'Captcha token must be text' }).max(4096).nullish().transform((v) => v ?? '');
export const DeviceFingerprintSchema = z
  .string({ error: 'Device fingerprint must be text' })
  .trim()
  .max(128, { error: 'Device fingerprint must be at most 128 characters' })
  .nullish()
  .transform((v) => v || null);

/** One of the languages of the hosted pages and end-user mails (shared/i18n/locales.ts). */
export const LocaleSchema = z.enum(SUPPORTED_LOCALES as [Locale, ...Locale[]], { error: `locale must be one of ${SUPPORTED_LOCALES.join(', ')}` });

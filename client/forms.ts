/**
 * Client-side form rules (SPEC §5), built from the shared schemas so the browser and the server agree.
 * Form field names follow the forms (firstName …); the calls map them to the API's snake_case.
 */
import { z } from 'zod';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { PASSWORD_MIN_LENGTH } from '../shared/constants';
import { VALIDATION } from '../shared/messages';
import { EmailSchema, NewPasswordSchema, OptionalNameSchema, OptionalUrlSchema } from '../shared/schemas/common';
import { LogInInputSchema } from '../shared/schemas/auth';

export const resolver = <T extends z.ZodType>(schema: T) => zod4Resolver(schema, { errorPriority: 'first' });

/** The refinement of the forms that ask for a new password twice; the message stands under the confirmation. */
const passwordsMatch = (values: { password: string; confirmPassword: string }) => values.password === values.confirmPassword;
const passwordsDontMatch = { error: VALIDATION.passwordsDontMatch, path: ['confirmPassword'] };

export const LoginFormSchema = LogInInputSchema.pick({ email: true, password: true });

export const SignupFormSchema = z
  .object({
    firstName: OptionalNameSchema,
    lastName: OptionalNameSchema,
    companyName: OptionalNameSchema,
    websiteUrl: OptionalUrlSchema,
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine(passwordsMatch, passwordsDontMatch);

export const ForgotPasswordFormSchema = z.object({ email: EmailSchema });

export const ResetPasswordFormSchema = z
  .object({ password: NewPasswordSchema, confirmPassword: z.string() })
  .refine(passwordsMatch, passwordsDontMatch);

/** Settings → change password: the simpler rules of the settings screen. */
const NewPasswordsSchema = z.object({ newPassword: z.string(), confirmPassword: z.string() });

function checkNewPasswords(values: z.output<typeof NewPasswordsSchema>, ctx: z.RefinementCtx) {
  if (values.newPassword !== values.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: VALIDATION.newPasswordsDontMatch, path: ['confirmPassword'] });
  }
  if (values.newPassword.length < PASSWORD_MIN_LENGTH) {
    ctx.addIssue({ code: 'custom', message: VALIDATION.newPasswordTooShort, path: ['newPassword'] });
  }
}

export const ChangePasswordFormSchema = NewPasswordsSchema.extend({
  currentPassword: z.string().min(1, { error: VALIDATION.currentPasswordRequired }),
}).superRefine(checkNewPasswords);

/** The first password of an account without one (it signs in with a provider or a passkey): the step-up dialog asks for its proof. */
export const FirstPasswordFormSchema = NewPasswordsSchema.superRefine(checkNewPasswords);


/** Profile → change e-mail: the new address and the current password (the server checks it). */
export const ChangeEmailFormSchema = z.object({
  newEmail: EmailSchema,
  password: z.string().min(1, { error: VALIDATION.currentPasswordRequired }),
});
/** The same for an account without a password (it signs in with a provider): the step-up dialog asks for its proof. */
export const ChangeEmailWithoutPasswordFormSchema = ChangeEmailFormSchema.pick({ newEmail: true });

/** A project's hosted sign-up: names (optional), e-mail and password; no company or website. */
export const EndUserSignupFormSchema = z
  .object({
    firstName: OptionalNameSchema,
    lastName: OptionalNameSchema,
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine(passwordsMatch, passwordsDontMatch);

/** The hosted account page's names: both optional, at most 100 characters. */
export const NamesFormSchema = z.object({ firstName: OptionalNameSchema, lastName: OptionalNameSchema });

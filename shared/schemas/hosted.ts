import { z } from 'zod';
import { MfaChallengeSchema } from './mfa.js';

/** What a project's hosted pages show of it: its name and branding. */
export const HostedProjectSchema = z.object({
  name: z.string(),
  project_key: z.string(),
  logo_url: z.string().nullable(),
  /** #rrggbb, or null for the platform's colour. */
  accent_color: z.string().nullable(),
  website_url: z.string().nullable(),
  /** Where "Back to {name}" goes: the website, else the origin of the last registered redirect URI. */
  app_url: z.string().nullable(),
  /** The project's own wording of these pages, per language: { de: { "signIn.title": "…" } } (keys of the hosted catalogue). */
  string_overrides: z.record(z.string(), z.record(z.string(), z.string())),
  /** The built-in first factors the sign-in page offers (its connections are listed by /auth/oauth/providers). */
  sign_in_methods: z.object({ password: z.boolean(), magic_link: z.boolean(), email_code: z.boolean(), passkey: z.boolean() }),
});
export type HostedProject = z.infer<typeof HostedProjectSchema>;

/**
 * The app's sign-in a hosted form serves: `interaction` (a waiting OpenID Connect request) or
 * `return_to` (a page of the project's hosted pages). The mails the form asks for carry it, so their
 * links go on with it.
 */
export const ContinuationInputSchema = z.object({
  interaction: z.string().max(100).nullish(),
  return_to: z.string().max(2000).nullish(),
});

const Continues = { interaction: z.string().nullable(), return_to: z.string().nullable() };

/**
 * What the hosted page of a mailed link does next, once the link is used (null: the link continues
 * no app's sign-in). `signed_in`: the session cookies are set, go on with the app's sign-in;
 * `second_factor`: the account has two factors, so the link proved the mailbox only; `sign_in`: the
 * link was opened in another browser than the one that asked for it, so the password is asked there;
 * `expired`: the app's sign-in is over, start again from the app.
 */
export const LinkNextSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('signed_in'), ...Continues }),
  z.object({ kind: z.literal('second_factor'), challenge: MfaChallengeSchema, ...Continues }),
  z.object({ kind: z.literal('sign_in'), email: z.string(), ...Continues }),
  z.object({ kind: z.literal('expired') }),
]);
export type LinkNext = z.infer<typeof LinkNextSchema>;

export const LinkAnswerSchema = z.object({ message: z.string(), next: LinkNextSchema.nullable() });
export type LinkAnswer = z.infer<typeof LinkAnswerSchema>;

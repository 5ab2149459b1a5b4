import { z } from 'zod';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from '../constants.js';
import { AccentColorSchema } from './projects.js';
import { LocaleSchema } from './common.js';
import { StringOverridesInputSchema } from '../i18n/overrides.js';

/**
 * The rules a project sets for its own end users. A project that never changed them follows the
 * platform's (PASSWORD_MIN_LENGTH, the common-password list, ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL,
 * BLOCK_VPN, unverified end users may sign in), and its mails carry its own name, colour and logo.
 */

/** A longer minimum could never be met: passwords are at most PASSWORD_MAX_BYTES bytes (bcrypt's input). */
export const PROJECT_PASSWORD_MIN_LENGTH_MAX = PASSWORD_MAX_BYTES;
export const ACCESS_TOKEN_TTL_RANGE_S = { min: 60, max: 24 * 60 * 60 } as const;
export const REFRESH_TOKEN_TTL_RANGE_S = { min: 5 * 60, max: 365 * 24 * 60 * 60 } as const;

/** 'platform': the platform's captcha on the hosted pages, if it has one (none on the public API); 'none': no captcha at all. */
export const PROJECT_CAPTCHA_PROVIDERS = ['platform', 'none', 'turnstile', 'hcaptcha', 'recaptcha'] as const;
export type ProjectCaptchaProvider = (typeof PROJECT_CAPTCHA_PROVIDERS)[number];
/** A provider of the project's own, which needs its site key and secret. */
export const isOwnCaptcha = (provider: ProjectCaptchaProvider) => provider !== 'platform' && provider !== 'none';

export const VPN_POLICIES = ['block', 'allow'] as const;
export type VpnPolicy = (typeof VPN_POLICIES)[number];

/** The mails a project may write itself. */
export const MAIL_TEMPLATE_KINDS = ['verification', 'password_reset', 'password_changed', 'magic_link', 'email_code'] as const;
export type MailTemplateKind = (typeof MAIL_TEMPLATE_KINDS)[number];

/** What a custom template may say; anything else in double braces is refused on save. */
export const MAIL_PLACEHOLDERS = ['product_name', 'email', 'link', 'code'] as const;
export type MailPlaceholder = (typeof MAIL_PLACEHOLDERS)[number];

export const SETTINGS_MESSAGES = {
  passwordMinLength: `password_min_length must be a whole number from ${PASSWORD_MIN_LENGTH} to ${PROJECT_PASSWORD_MIN_LENGTH_MAX}`,
  accessTokenTtl: `access_token_ttl_s must be a whole number of seconds from ${ACCESS_TOKEN_TTL_RANGE_S.min} to ${ACCESS_TOKEN_TTL_RANGE_S.max}`,
  refreshTokenTtl: `refresh_token_ttl_s must be a whole number of seconds from ${REFRESH_TOKEN_TTL_RANGE_S.min} to ${REFRESH_TOKEN_TTL_RANGE_S.max}`,
  refreshShorterThanAccess: 'The refresh token lifetime must be at least the access token lifetime',
  captchaKeysRequired: 'A captcha provider needs its site key and secret',
  unknownPlaceholder: `Templates may use only ${MAIL_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}`,
  linkRequired: 'This mail needs its {{link}}',
  codeRequired: 'This mail needs its {{code}}',
  noSignInMethod: 'At least one sign-in method must stay enabled',
  unknownConnection: 'sign_in_methods.connections names a connection the project does not have',
  testMailSent: 'Test mail sent to',
  updated: 'Settings saved',
} as const;

/** The password shorter than a project's minimum: the same wording as the platform's, with its number. */
export const passwordTooShortFor = (minLength: number) => `Password must be at least ${minLength} characters`;

const placeholdersIn = (value: string) => [...value.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((match) => match[1]!);
const onlyKnownPlaceholders = (value: string) => placeholdersIn(value).every((name) => (MAIL_PLACEHOLDERS as readonly string[]).includes(name));

export const MailTemplateSchema = z.object({
  subject: z
    .string({ error: 'subject is required' })
    .trim()
    .min(1, { error: 'subject is required' })
    .max(200, { error: 'subject must be at most 200 characters' })
    .refine((value) => !/[\r\n]/.test(value), { error: 'subject must be one line' })
    .refine(onlyKnownPlaceholders, { error: SETTINGS_MESSAGES.unknownPlaceholder }),
  text: z
    .string({ error: 'text is required' })
    .trim()
    .min(1, { error: 'text is required' })
    .max(5000, { error: 'text must be at most 5000 characters' })
    .refine(onlyKnownPlaceholders, { error: SETTINGS_MESSAGES.unknownPlaceholder }),
});
export type MailTemplate = z.infer<typeof MailTemplateSchema>;

/** A template as answered. */
export const StoredMailTemplateSchema = z.object({ subject: z.string(), text: z.string() });

/** Whether a template mentions `{{name}}`. */
export const mentionsPlaceholder = (template: MailTemplate, name: MailPlaceholder) => placeholdersIn(`${template.subject}\n${template.text}`).includes(name);

export const MailTemplatesSchema = z.object({
  verification: MailTemplateSchema.nullable().optional(),
  password_reset: MailTemplateSchema.nullable().optional(),
  password_changed: MailTemplateSchema.nullable().optional(),
  magic_link: MailTemplateSchema.nullable().optional(),
  email_code: MailTemplateSchema.nullable().optional(),
});

/**
 * The first factors a project's end users may sign in with. The built-in ones by name; the project's
 * connections by their id in `connections` (a social provider's name, e.g. "github"; an enterprise
 * connection as "sso:<id>"), so a new kind of connection needs no new field. A project that
 * never chose keeps DEFAULT_SIGN_IN_METHODS: password, passkeys and every configured connection.
 */
export const SIGN_IN_METHODS = ['password', 'magic_link', 'email_code', 'passkey'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
export const DEFAULT_SIGN_IN_METHODS: Readonly<Record<SignInMethod, boolean>> = Object.freeze({ password: true, magic_link: false, email_code: false, passkey: true });
/** The refusal of a first factor the project turned off (403). */
export const SIGN_IN_METHOD_DISABLED = 'This sign-in method is disabled';
export const CONNECTION_ID_PATTERN = /^[a-z0-9][a-z0-9:_-]{0,99}$/;
/** An enterprise connection's id among `connections` (a social one's is its provider's name). */
export const enterpriseMethodKey = (connectionId: string): string => `sso:${connectionId}`;

export const SignInMethodsSchema = z.object({
  password: z.boolean(),
  magic_link: z.boolean(),
  email_code: z.boolean(),
  passkey: z.boolean(),
  /** Every connection the project has configured, by id, and whether its end users may sign in with it. */
  connections: z.record(z.string(), z.boolean()),
});
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;

const methodFlag = (name: string) => z.boolean({ error: `sign_in_methods.${name} must be true or false` }).optional();
export const SignInMethodsInputSchema = z.object({
  password: methodFlag('password'),
  magic_link: methodFlag('magic_link'),
  email_code: methodFlag('email_code'),
  passkey: methodFlag('passkey'),
  connections: z
    .record(
      z.string().regex(CONNECTION_ID_PATTERN, { error: 'sign_in_methods.connections keys are connection ids' }),
      z.boolean({ error: 'sign_in_methods.connections values must be true or false' }),
    )
    .refine((value) => Object.keys(value).length <= 100, { error: 'sign_in_methods.connections names at most 100 connections' })
    .optional(),
});

const MailTextSchema = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((value) => !/[\r\n<>"]/.test(value), { error: `${field} must be one line without <, > or "` })
    .nullish()
    .transform((value) => value || null);

export const ProjectSettingsSchema = z.object({
  project_id: z.string(),
  password_min_length: z.number().int(),
  /** Refuse passwords from the list of the most common (breached) ones. */
  password_check_breached: z.boolean(),
  access_token_ttl_s: z.number().int(),
  refresh_token_ttl_s: z.number().int(),
  captcha_provider: z.enum(PROJECT_CAPTCHA_PROVIDERS),
  captcha_site_key: z.string().nullable(),
  /** The secret itself is never answered. */
  captcha_secret_set: z.boolean(),
  vpn_policy: z.enum(VPN_POLICIES),
  allow_unverified_sign_in: z.boolean(),
  mail_sender_name: z.string().nullable(),
  mail_product_name: z.string().nullable(),
  mail_accent_color: z.string().nullable(),
  /** The small "Secured by" line at the foot of the mails (on unless turned off). */
  mail_secured_by: z.boolean(),
  mail_templates: z.object({
    verification: StoredMailTemplateSchema.nullable(),
    password_reset: StoredMailTemplateSchema.nullable(),
    password_changed: StoredMailTemplateSchema.nullable(),
    magic_link: StoredMailTemplateSchema.nullable(),
    email_code: StoredMailTemplateSchema.nullable(),
  }),
  sign_in_methods: SignInMethodsSchema,
  /** The project's own wording of the hosted pages and mails, per language: { de: { "hosted:signIn.title": "…" } }. */
  string_overrides: z.record(z.string(), z.record(z.string(), z.string())),
  /** Null while the project follows the platform's defaults. */
  updated_at: z.string().nullable(),
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** Every field optional: what is left out stays as it is. A template set to null goes back to the built-in mail. */
export const UpdateProjectSettingsInputSchema = z.object({
  password_min_length: z
    .number({ error: SETTINGS_MESSAGES.passwordMinLength })
    .int({ error: SETTINGS_MESSAGES.passwordMinLength })
    .min(PASSWORD_MIN_LENGTH, { error: SETTINGS_MESSAGES.passwordMinLength })
    .max(PROJECT_PASSWORD_MIN_LENGTH_MAX, { error: SETTINGS_MESSAGES.passwordMinLength })
    .optional(),
  password_check_breached: z.boolean({ error: 'password_check_breached must be true or false' }).optional(),
  access_token_ttl_s: z
    .number({ error: SETTINGS_MESSAGES.accessTokenTtl })
    .int({ error: SETTINGS_MESSAGES.accessTokenTtl })
    .min(ACCESS_TOKEN_TTL_RANGE_S.min, { error: SETTINGS_MESSAGES.accessTokenTtl })
    .max(ACCESS_TOKEN_TTL_RANGE_S.max, { error: SETTINGS_MESSAGES.accessTokenTtl })
    .optional(),
  refresh_token_ttl_s: z
    .number({ error: SETTINGS_MESSAGES.refreshTokenTtl })
    .int({ error: SETTINGS_MESSAGES.refreshTokenTtl })
    .min(REFRESH_TOKEN_TTL_RANGE_S.min, { error: SETTINGS_MESSAGES.refreshTokenTtl })
    .max(REFRESH_TOKEN_TTL_RANGE_S.max, { error: SETTINGS_MESSAGES.refreshTokenTtl })
    .optional(),
  captcha_provider: z.enum(PROJECT_CAPTCHA_PROVIDERS, { error: `captcha_provider must be one of ${PROJECT_CAPTCHA_PROVIDERS.join(', ')}` }).optional(),
  captcha_site_key: z.string().trim().max(200, { error: 'captcha_site_key must be at most 200 characters' }).optional(),
  /** Write-only; left out (or empty) keeps the stored one. */
  captcha_secret: z.string().trim().max(500, { error: 'captcha_secret must be at most 500 characters' }).optional(),
  vpn_policy: z.enum(VPN_POLICIES, { error: 'vpn_policy must be block or allow' }).optional(),
  allow_unverified_sign_in: z.boolean({ error: 'allow_unverified_sign_in must be true or false' }).optional(),
  mail_sender_name: MailTextSchema('mail_sender_name', 100).optional(),
  mail_product_name: MailTextSchema('mail_product_name', 100).optional(),
  mail_accent_color: AccentColorSchema.optional(),
  mail_secured_by: z.boolean({ error: 'mail_secured_by must be true or false' }).optional(),
  mail_templates: MailTemplatesSchema.optional(),
  /** Which first factors the end users have; what is left out stays as it is. At least one must stay on (422). */
  sign_in_methods: SignInMethodsInputSchema.optional(),
  /**
   * Strings of the catalogues the project words itself, per language and key ("hosted:…" or "mail:…");
   * merged over the stored ones, null drops one (back to the catalogue's). See shared/i18n/overrides.ts.
   */
  string_overrides: StringOverridesInputSchema.optional(),
});
export type UpdateProjectSettingsInput = z.input<typeof UpdateProjectSettingsInputSchema>;

/**
 * One mail exactly as the project's end users would get it, rendered for the caller's own address (a
 * sample token in its link). The optional fields preview changes not saved yet (the editor's); left
 * out, the saved settings apply; a null template is the built-in mail.
 */
export const MailPreviewInputSchema = z.object({
  kind: z.enum(MAIL_TEMPLATE_KINDS, { error: `kind must be one of ${MAIL_TEMPLATE_KINDS.join(', ')}` }),
  template: MailTemplateSchema.nullable().optional(),
  mail_sender_name: MailTextSchema('mail_sender_name', 100).optional(),
  mail_product_name: MailTextSchema('mail_product_name', 100).optional(),
  mail_accent_color: AccentColorSchema.optional(),
  mail_secured_by: z.boolean({ error: 'mail_secured_by must be true or false' }).optional(),
  /** The recipient's language (the built-in wording and the layout's); left out, English. */
  locale: LocaleSchema.optional(),
});

export const MailPreviewSchema = z.object({
  from_name: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type MailPreview = z.infer<typeof MailPreviewSchema>;

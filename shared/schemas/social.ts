import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { CaptchaTokenSchema, DeviceFingerprintSchema, isHttpUrl } from './common.js';

/** Sign-in with another service: GitHub (OAuth 2 and its API), Google, Microsoft and any OpenID Connect provider. */
export const SOCIAL_PROVIDERS = ['github', 'google', 'microsoft', 'oidc'] as const;
export const SocialProviderSchema = z.enum(SOCIAL_PROVIDERS, { error: 'Provider must be github, google, microsoft or oidc' });
export type SocialProvider = z.infer<typeof SocialProviderSchema>;

/** The buttons' names; a generic OpenID Connect provider is named by its connection. */
export const SOCIAL_PROVIDER_NAMES: Record<SocialProvider, string> = { github: 'GitHub', google: 'Google', microsoft: 'Microsoft', oidc: 'Single sign-on' };

/** Where each provider is unless a connection says otherwise. */
export const SOCIAL_PROVIDER_DEFAULTS = {
  google: { issuer: 'https://accounts.google.com' },
  microsoft: { issuer: 'https://login.microsoftonline.com/common/v2.0' },
  github: {
    authorize_url: 'https://github.com/login/oauth/authorize',
    token_url: 'https://github.com/login/oauth/access_token',
    api_url: 'https://api.github.com',
  },
} as const;

/** A provider a sign-in page offers. */
export const SignInProviderSchema = z.object({ id: SocialProviderSchema, name: z.string() });
export const SignInProvidersSchema = z.object({ providers: z.array(SignInProviderSchema) });
export type SignInProvider = z.infer<typeof SignInProviderSchema>;

/**
 * Why a sign-in with a provider came back without a session: the sign-in page shows the message of
 * the code it finds in its address (`?social_error=…`), never text from the address itself.
 */
export const SOCIAL_ERRORS = {
  cancelled: 'Sign-in was cancelled.',
  provider_error: 'The provider could not sign you in. Please try again.',
  expired: 'This sign-in has expired or was already used. Please start again.',
  state_mismatch: 'This sign-in was started in another browser or tab. Please start again.',
  no_email: 'The provider did not share an e-mail address. Allow access to your e-mail address and try again.',
  link_sent:
    'An account with this e-mail address already exists. We sent a link to that address: open it to connect this sign-in to your account, or sign in with your password and connect it in your security settings.',
  link_required:
    'An account with this e-mail address already exists, and the provider has not verified the address. Sign in with your password, then connect the provider in your security settings.',
  already_linked: 'This sign-in is already connected to another account.',
  link_not_signed_in: 'Sign in first to connect another way of signing in.',
  verify_email_first: MESSAGES.verifyEmailFirst,
  step_up_required: MESSAGES.stepUpRequired,
  account_inactive: 'This account has been deactivated',
  device_blocked: 'This device has been blocked',
  vpn_blocked: 'Sign-in from VPN, proxy or hosting networks is not allowed',
  email_unverified: 'Please verify your email address before signing in',
  captcha_failed: 'Captcha verification failed',
  rate_limited: 'Too many attempts. Please try again later.',
  unavailable: 'This way of signing in is not available.',
} as const;
export type SocialErrorCode = keyof typeof SOCIAL_ERRORS;

export const SOCIAL_MESSAGES = {
  linked: 'Sign-in connected to your account. You can now use it to sign in.',
  identityRemoved: 'Sign-in method removed',
  lastSignInMethod: 'This is the last way to sign in to your account. Set a password or add a passkey before removing it.',
  linkInvalid: 'This link is invalid or has expired',
  linkUsed: 'This link has already been used',
  connectionRemoved: 'Connection removed',
} as const;

/**
 * A page of our own to come back to. Any text is taken: one that does not name a page of the realm
 * (another site, a control character, another project's pages) is dropped by safeRedirectPath and the
 * sign-in lands on the default page, as a browser navigation should rather than on an error.
 */
export const ReturnToSchema = z.string({ error: 'return_to must be a path' }).max(2000, { error: 'return_to must be at most 2000 characters' }).optional();

/** Starting a sign-in from our pages (a browser navigation: the answer is a redirect to the provider). */
export const StartSocialSignInQuerySchema = z.object({
  intent: z.enum(['sign_in', 'link'], { error: 'intent must be sign_in or link' }).default('sign_in'),
  return_to: ReturnToSchema,
  captcha_token: CaptchaTokenSchema,
  device_fingerprint: DeviceFingerprintSchema,
});

/** Where a provider sends the browser back: `code` and `state`, or `error`. */
export const SocialCallbackQuerySchema = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

/** The public API: a backend starts a sign-in for its end user and sends the browser to `authorization_url`. */
export const ApiSocialSignInQuerySchema = z.object({
  redirect_uri: z.string({ error: 'redirect_uri is required' }).min(1, { error: 'redirect_uri is required' }).max(2000),
  state: z
    .string({ error: 'state is required' })
    .min(8, { error: 'state must be at least 8 characters (a random value your backend checks when the browser comes back)' })
    .max(500, { error: 'state must be at most 500 characters' }),
});
export const ApiSocialSignInSchema = z.object({ authorization_url: z.string() });

export const SocialExchangeInputSchema = z.object({
  code: z.string({ error: 'code is required' }).min(1, { error: 'code is required' }).max(200, { error: 'Invalid or expired code' }),
  captcha_token: CaptchaTokenSchema,
  device_fingerprint: DeviceFingerprintSchema,
});

export const IdentitySchema = z.object({
  id: z.string(),
  provider: SocialProviderSchema,
  provider_name: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Identity = z.infer<typeof IdentitySchema>;

/** The caller's ways of signing in: its linked providers, whether it has a password, and what it may still link. */
export const IdentitiesSchema = z.object({
  identities: z.array(IdentitySchema),
  has_password: z.boolean(),
  passkeys: z.number().int(),
  available: z.array(SignInProviderSchema),
});

export const IdentityIdInputSchema = z.object({ id: z.string({ error: 'id is required' }).min(1).max(64, { error: 'Not found' }) });
export const ConfirmIdentityLinkInputSchema = z.object({
  token: z.string({ error: SOCIAL_MESSAGES.linkInvalid }).min(1, { error: SOCIAL_MESSAGES.linkInvalid }).max(200, { error: SOCIAL_MESSAGES.linkInvalid }),
});

/** The provider is connected; `return_to`: the page of ours the sign-in that sent the link was going to (an app's waiting sign-in), to sign in and go on to. */
export const IdentityLinkedSchema = z.object({ message: z.string(), return_to: z.string().nullable() });

const EndpointSchema = (name: string) =>
  z
    .string({ error: `${name} must be a URL` })
    .trim()
    .max(2000, { error: `${name} must be at most 2000 characters` })
    .nullish()
    .refine((value) => !value || isHttpUrl(value), { error: `${name} must be an http or https URL` })
    .transform((value) => (value ? value.replace(/\/+$/, '') : null));

/**
 * A project's connection to a provider. The secret is write-only: leave it out to keep the stored one.
 * `issuer` is for the OpenID Connect kinds (required for `oidc`), the three URLs for GitHub Enterprise.
 */
export const SaveConnectionInputSchema = z.object({
  client_id: z.string({ error: 'client_id is required' }).trim().min(1, { error: 'client_id is required' }).max(500, { error: 'client_id must be at most 500 characters' }),
  client_secret: z.string({ error: 'client_secret must be text' }).trim().max(2000, { error: 'client_secret must be at most 2000 characters' }).nullish().transform((v) => v || null),
  display_name: z.string({ error: 'display_name must be text' }).trim().max(50, { error: 'display_name must be at most 50 characters' }).nullish().transform((v) => v || null),
  issuer: EndpointSchema('issuer'),
  authorize_url: EndpointSchema('authorize_url'),
  token_url: EndpointSchema('token_url'),
  api_url: EndpointSchema('api_url'),
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
});

export const ConnectionSchema = z.object({
  provider: SocialProviderSchema,
  name: z.string(),
  display_name: z.string().nullable(),
  client_id: z.string(),
  issuer: z.string().nullable(),
  authorize_url: z.string().nullable(),
  token_url: z.string().nullable(),
  api_url: z.string().nullable(),
  enabled: z.boolean(),
  /** The address to register at the provider as the OAuth redirect (callback) URL. */
  callback_url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Connection = z.infer<typeof ConnectionSchema>;
export const ConnectionsSchema = z.object({ connections: z.array(ConnectionSchema) });

import { z } from 'zod';
import { ENVIRONMENTS } from '../constants.js';
import { VALIDATION } from '../messages.js';
import { OptionalUrlSchema } from './common.js';
import { isLoopbackRedirectPattern } from '../loopback-redirect.js';
import { ProjectRoleSchema } from './teams.js';

export const EnvironmentSchema = z.enum(ENVIRONMENTS, { error: 'Environment must be development, staging or production' });

const ProjectNameSchema = z
  .string({ error: VALIDATION.projectNameRequired })
  .trim()
  .min(1, { error: VALIDATION.projectNameRequired })
  .max(100, { error: 'Project name must be at most 100 characters' });

const DescriptionSchema = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(1000, { error: 'Description must be at most 1000 characters' })
  .nullish()
  .transform((v) => v || null);

/** Schemes a redirect may never use: they run code or read files instead of reaching an app. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/**
 * A redirect URI an app registers: an absolute URL without a fragment, compared exactly. Web apps use
 * http(s); native apps may use a private-use scheme (RFC 8252, e.g. com.example.app:/callback).
 * A development project may also register a loopback pattern (loopback-redirect.ts); the server
 * refuses one on any other project.
 */
export function isRegistrableRedirectUri(value: string): boolean {
  if (isLoopbackRedirectPattern(value)) return true;
  try {
    const url = new URL(value);
    if (FORBIDDEN_SCHEMES.has(url.protocol) || url.hash || value.includes('#')) return false;
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname !== '';
    return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol);
  } catch {
    return false;
  }
}

/** An origin for CORS: scheme, host and port only, exactly as a browser sends it. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** A list of addresses; its refusals name it in words (`label`: "redirect URI"), as a person reads them on a form or in a REST answer. */
const urlList = (label: string, isValid: (value: string) => boolean, rule: string) => {
  const plural = `${label.charAt(0).toUpperCase()}${label.slice(1)}s`;
  return z
    .array(z.string({ error: `${plural} must be a list of addresses` }).trim().max(2000, { error: `Each ${label} must be at most 2000 characters` }), {
      error: `${plural} must be a list of addresses`,
    })
    .max(20, { error: `${plural} can hold at most 20 addresses` })
    .refine((values) => values.every(isValid), { error: `Each ${label} must be ${rule}` })
    .transform((values) => [...new Set(values)]);
};

const REDIRECT_RULE = 'an absolute URL without a fragment (http, https or an app scheme like com.example.app:/callback; http://localhost:*/callback in development)';
export const RedirectUrisSchema = urlList('redirect URI', isRegistrableRedirectUri, REDIRECT_RULE);
export const PostLogoutRedirectUrisSchema = urlList('post-logout redirect URI', isRegistrableRedirectUri, REDIRECT_RULE);
export const AllowedOriginsSchema = urlList('allowed origin', isOrigin, 'an origin such as https://app.example.com (scheme, host and port only)');
export const AccentColorSchema = z
  .string({ error: 'The accent colour must be a colour like #3b5bdb' })
  .trim()
  .nullish()
  .refine((value) => !value || /^#[0-9a-f]{6}$/i.test(value), { error: 'The accent colour must be a colour like #3b5bdb' })
  .transform((value) => (value ? value.toLowerCase() : null));

/** The project's OpenID Connect client and hosted pages settings, all optional on create and update. */
const ClientSettingsInput = {
  redirect_uris: RedirectUrisSchema.optional(),
  post_logout_redirect_uris: PostLogoutRedirectUrisSchema.optional(),
  allowed_origins: AllowedOriginsSchema.optional(),
  logo_url: OptionalUrlSchema.optional(),
  accent_color: AccentColorSchema.optional(),
};

export const CreateProjectInputSchema = z.object({
  name: ProjectNameSchema,
  description: DescriptionSchema,
  website_url: OptionalUrlSchema,
  environment: EnvironmentSchema.default('development'),
  ...ClientSettingsInput,
});
export type CreateProjectInput = z.input<typeof CreateProjectInputSchema>;

export const UpdateProjectInputSchema = z.object({
  name: ProjectNameSchema.optional(),
  description: DescriptionSchema.optional(),
  website_url: OptionalUrlSchema.optional(),
  environment: EnvironmentSchema.optional(),
  is_active: z.boolean({ error: 'is_active must be true or false' }).optional(),
  ...ClientSettingsInput,
});

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  website_url: z.string().nullable(),
  environment: EnvironmentSchema,
  project_key: z.string(),
  is_active: z.boolean(),
  total_users: z.number(),
  total_logins: z.number(),
  total_signups: z.number(),
  /** OpenID Connect: the issuer (discovery at {issuer}/.well-known/openid-configuration); client_id is project_key. */
  issuer: z.string(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  allowed_origins: z.array(z.string()),
  /** Branding of the hosted sign-in pages. */
  logo_url: z.string().nullable(),
  accent_color: z.string().nullable(),
  /** Where the project's hosted sign-in pages live. */
  hosted_pages_url: z.string(),
  /** The caller's role on the project's team. */
  role: ProjectRoleSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const CreateApiKeyInputSchema = z.object({
  name: z
    .string({ error: 'Key name is required' })
    .trim()
    .min(1, { error: 'Key name is required' })
    .max(100, { error: 'Key name must be at most 100 characters' }),
});

export const ApiKeySchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  requests_today: z.number(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** Answered once, at creation: the secret is never shown again. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ secret: z.string() });

/** An id in a tRPC input (REST path ids use IdParamSchema). */
export const IdInputSchema = z.string({ error: 'id is required' }).trim().min(1, { error: 'id is required' }).max(64, { error: 'Not found' });
/** The project a tRPC procedure works on. */
export const ProjectIdInputSchema = z.object({ projectId: IdInputSchema });

export const DashboardStatsSchema = z.object({
  total_projects: z.number(),
  active_projects: z.number(),
  total_api_keys: z.number(),
  active_api_keys: z.number(),
  total_project_users: z.number(),
  total_api_requests_today: z.number(),
  total_api_requests_month: z.number(),
  /** API requests per UTC day over the last 7 days (today last), summed over the developer's projects, zero-filled. */
  api_requests_last_7_days: z.array(z.object({ day: z.string(), requests: z.number() })),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

/** The longest period analytics cover at once: a year, leap day included. */
export const ANALYTICS_MAX_DAYS = 366;
const DAYS_MESSAGE = `days must be between 1 and ${ANALYTICS_MAX_DAYS}`;
export const ANALYTICS_MESSAGES = {
  daysOrRange: 'Give either days or from and to, not both',
  fromAndTo: 'from and to go together',
  fromAfterTo: 'from must be on or before to',
  tooLong: `The period must span at most ${ANALYTICS_MAX_DAYS} days`,
} as const;

/** A UTC day in a query, as `2026-11-24` (a real calendar day: 2026-02-30 is refused). */
const dayFromQuery = (name: string) =>
  z
    .string({ error: `${name} must be a day such as 2026-11-24` })
    .trim()
    .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
      error: `${name} must be a day such as 2026-11-24`,
    })
    .optional();

/** Whole UTC days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * The period of a project's analytics: the last `days` UTC days (today last; 30 when nothing is
 * given), or the UTC days `from` to `to`, both counted.
 */
export const AnalyticsQuerySchema = z
  .object({
    days: z
      .preprocess(
        (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
        z.number({ error: DAYS_MESSAGE }).int({ error: DAYS_MESSAGE }).min(1, { error: DAYS_MESSAGE }).max(ANALYTICS_MAX_DAYS, { error: DAYS_MESSAGE }),
      )
      .optional(),
    from: dayFromQuery('from'),
    to: dayFromQuery('to'),
  })
  .superRefine((query, ctx) => {
    const ranged = query.from !== undefined || query.to !== undefined;
    if (ranged && query.days !== undefined) ctx.addIssue({ code: 'custom', message: ANALYTICS_MESSAGES.daysOrRange, path: ['days'] });
    else if (ranged && (query.from === undefined || query.to === undefined)) ctx.addIssue({ code: 'custom', message: ANALYTICS_MESSAGES.fromAndTo, path: [query.from ? 'to' : 'from'] });
    else if (query.from && query.to && query.from > query.to) ctx.addIssue({ code: 'custom', message: ANALYTICS_MESSAGES.fromAfterTo, path: ['from'] });
    else if (query.from && query.to && daysBetween(query.from, query.to) > ANALYTICS_MAX_DAYS) ctx.addIssue({ code: 'custom', message: ANALYTICS_MESSAGES.tooLong, path: ['to'] });
  });
export type AnalyticsQuery = z.output<typeof AnalyticsQuerySchema>;

const AttemptCountsSchema = { succeeded: z.number(), failed: z.number() };

export const AnalyticsSchema = z.object({
  project_id: z.string(),
  /** The period's first and last UTC day. */
  from: z.string(),
  to: z.string(),
  days: z.array(
    z.object({ day: z.string(), signups: z.number(), logins: z.number(), failed_logins: z.number(), active_users: z.number(), api_requests: z.number() }),
  ),
  /** End users who signed in over the 30 days ending today (whatever the period). */
  monthly_active_users: z.number(),
  /**
   * The period's sign-in attempts by how they were made (`password`, `passkey`, `email`, a provider,
   * `password+code`…; null for attempts recorded before the method was), most attempts first.
   */
  sign_ins_by_method: z.array(z.object({ method: z.string().nullable(), ...AttemptCountsSchema })),
  /** The period's sign-in attempts by the country of their address (null: not known), most attempts first. */
  sign_ins_by_country: z.array(z.object({ country_code: z.string().nullable(), ...AttemptCountsSchema })),
  /** The period's failed attempts by reason (`invalid_credentials`, `mfa_failed`…), most first. */
  failures_by_reason: z.array(z.object({ reason: z.string().nullable(), count: z.number() })),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

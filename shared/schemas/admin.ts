import { z } from 'zod';
import { ADMIN_LIST_DEFAULT_PAGE, ADMIN_LIST_DEFAULT_PER_PAGE, ADMIN_LIST_MAX_PER_PAGE } from '../constants.js';
import { UserSchema } from './user.js';
import { SessionClientSchema } from './sessions.js';
import { EmailSchema, NewPasswordSchema, OptionalNameSchema } from './common.js';

const intFromQuery = (message: string, min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value),
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }),
  );

export const PageQuerySchema = z.object({
  page: intFromQuery('page must be a positive integer', 1, 1_000_000).default(ADMIN_LIST_DEFAULT_PAGE),
  per_page: intFromQuery(`per_page must be between 1 and ${ADMIN_LIST_MAX_PER_PAGE}`, 1, ADMIN_LIST_MAX_PER_PAGE).default(ADMIN_LIST_DEFAULT_PER_PAGE),
});
export type PageQuery = z.output<typeof PageQuerySchema>;

/** A date or time in a query (`2026-11-24`, `2026-11-24T10:00:00Z`), as an ISO timestamp. */
export const dateFromQuery = (name: string) =>
  z
    .string({ error: `${name} must be a date` })
    .trim()
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: `${name} must be a date such as 2026-11-24 or 2026-11-24T10:00:00Z` })
    .transform((value) => new Date(value).toISOString())
    .optional();

const booleanFromQuery = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true')
    .optional();

const SearchSchema = z.string({ error: 'q must be text' }).trim().max(200, { error: 'q must be at most 200 characters' }).optional();

/** The lists' filters (each list takes the ones that apply to it); `from` and `to` bound its date. */
export const UserListQuerySchema = PageQuerySchema.extend({
  q: SearchSchema,
  status: z.enum(['active', 'inactive'], { error: 'status must be active or inactive' }).optional(),
  verified: booleanFromQuery('verified'),
  from: dateFromQuery('from'),
  to: dateFromQuery('to'),
});
export const LoginAttemptListQuerySchema = PageQuerySchema.extend({
  q: SearchSchema,
  outcome: z.enum(['success', 'failure'], { error: 'outcome must be success or failure' }).optional(),
  vpn: booleanFromQuery('vpn'),
  country: z
    .string({ error: 'country must be a two-letter country code' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, { error: 'country must be a two-letter country code' })
    .transform((value) => value.toUpperCase())
    .optional(),
  from: dateFromQuery('from'),
  to: dateFromQuery('to'),
});
export const DeviceListQuerySchema = PageQuerySchema.extend({
  q: SearchSchema,
  status: z.enum(['blocked', 'trusted'], { error: 'status must be blocked or trusted' }).optional(),
  from: dateFromQuery('from'),
  to: dateFromQuery('to'),
});
export const SessionListQuerySchema = PageQuerySchema.extend({ q: SearchSchema, from: dateFromQuery('from'), to: dateFromQuery('to') });
export type UserListQuery = z.output<typeof UserListQuerySchema>;
export type LoginAttemptListQuery = z.output<typeof LoginAttemptListQuerySchema>;
export type DeviceListQuery = z.output<typeof DeviceListQuerySchema>;
export type SessionListQuery = z.output<typeof SessionListQuerySchema>;

export const IdParamSchema = z.object({ id: z.string().trim().min(1, { error: 'id is required' }).max(64, { error: 'Not found' }) });

export const AdminStatsSchema = z.object({
  total_users: z.number(),
  active_users: z.number(),
  verified_users: z.number(),
  failed_logins: z.number(),
  successful_logins: z.number(),
  total_login_attempts: z.number(),
  blocked_vpn_attempts: z.number(),
  unique_devices: z.number(),
});
export type AdminStats = z.infer<typeof AdminStatsSchema>;

export const LoginAttemptSchema = z.object({
  id: z.string(),
  email: z.string(),
  user_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  is_vpn: z.boolean(),
  is_proxy: z.boolean(),
  success: z.boolean(),
  failure_reason: z.string().nullable(),
  country_code: z.string().nullable(),
  device_fingerprint: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  /**
   * How: password, passkey, email (a mailed link), a provider (github, google, microsoft, oidc), or the two
   * factors of a second step joined by '+' (password+code, github+passkey); null for attempts recorded
   * before methods were (a password, a passkey or a second step).
   */
  method: z.string().nullable(),
});
export type LoginAttempt = z.infer<typeof LoginAttemptSchema>;

export const DeviceSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  user_agent: z.string().nullable(),
  /** A label for people, from the User-Agent: 'Chrome on Linux', 'Safari on iPhone', 'Unknown device'. */
  device_label: z.string(),
  last_ip: z.string().nullable(),
  is_trusted: z.boolean(),
  is_blocked: z.boolean(),
  first_seen: z.string(),
  last_seen: z.string(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const SessionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  device_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** A label for people, from the User-Agent: 'Chrome on Linux', 'Safari on iPhone', 'Unknown device'. */
  device_label: z.string(),
  /** The door the sign-in came through; null for a session started before it was recorded. */
  client: SessionClientSchema.nullable(),
  /** The same for people: 'Dashboard', 'Hosted pages', 'Public API', 'OpenID Connect: Shop', 'Unknown client'. */
  client_label: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

const page = { total: z.number(), page: z.number(), per_page: z.number() };
/** An account as monitoring shows it: with when the mail server last refused its address for good (null: no bounce since). */
export const MonitoredUserSchema = UserSchema.extend({ mail_bounced_at: z.string().nullable() });
export type MonitoredUser = z.infer<typeof MonitoredUserSchema>;
export const UserPageSchema = z.object({ users: z.array(MonitoredUserSchema), ...page });
export const LoginAttemptPageSchema = z.object({ attempts: z.array(LoginAttemptSchema), ...page });
export const DevicePageSchema = z.object({ devices: z.array(DeviceSchema), ...page });
export const SessionPageSchema = z.object({ sessions: z.array(SessionSchema), ...page });


/**
 * A project's developer creates an end user: with a password (the project's password rules apply), or
 * without one (the user sets one through "forgot password" or signs in with a provider).
 * `email_verified` marks the address as proven; otherwise the user is mailed a verification link.
 */
export const CreateUserInputSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema.optional(),
  first_name: OptionalNameSchema,
  last_name: OptionalNameSchema,
  email_verified: z.boolean({ error: 'email_verified must be true or false' }).default(false),
});
export type CreateUserInput = z.output<typeof CreateUserInputSchema>;

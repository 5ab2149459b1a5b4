import { z } from 'zod';

export const RoleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

/** The User of the specification, plus the role so the client can show the admin area to admins. */
export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  company_name: z.string().nullable(),
  website_url: z.string().nullable(),
  role: RoleSchema,
  is_active: z.boolean(),
  is_verified: z.boolean(),
  /** Mail the account when it signs in from a device it never used. */
  login_notifications: z.boolean(),
  /** The master switch: off, no optional mail is sent (mails the account's security needs always go). */
  email_notifications: z.boolean(),
  /** New-device sign-ins and two factors turned on. */
  notify_security_alerts: z.boolean(),
  notify_product_updates: z.boolean(),
  notify_marketing: z.boolean(),
  /** Two factors are on: a sign-in asks for a TOTP code, a recovery code or a passkey after the password. */
  mfa_enabled: z.boolean(),
  /** Minutes a session may go unused before the server refuses it; null for no idle timeout. */
  session_idle_timeout_minutes: z.number().int().nullable(),
  /** The saved language of the hosted pages and mails (en, de, fr, es, ja); null for none. */
  locale: z.string().nullable(),
  created_at: z.string(),
  last_login: z.string().nullable(),
});
export type User = z.infer<typeof UserSchema>;

/** A project's end user as they see themselves (GET/PUT /profile): with the metadata they may read. */
export const EndUserProfileSchema = UserSchema.extend({
  /** Set by the project's backend; carried in access tokens and userinfo. */
  public_metadata: z.record(z.string(), z.unknown()),
  /** The end user's own (PUT /profile), and the project's backend's. */
  unsafe_metadata: z.record(z.string(), z.unknown()),
});
export type EndUserProfile = z.infer<typeof EndUserProfileSchema>;

/**
 * The admin role takes effect only once the account's e-mail address is verified: anyone can sign
 * up with an address listed in ADMIN_EMAILS, only its owner can verify it.
 */
export function isEffectiveAdmin(user: Pick<User, 'role' | 'is_verified'>): boolean {
  return user.role === 'admin' && user.is_verified;
}

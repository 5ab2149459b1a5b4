import { z } from 'zod';
import { DeviceSchema, LoginAttemptSchema, MonitoredUserSchema, SessionSchema } from './admin.js';
import { AuditEntrySchema } from './audit.js';

/** One account as its page shows it (Admin → Users, a project's Monitoring → Users): its status, sessions, devices, sign-ins and audit entries. */
export const UserDetailSchema = MonitoredUserSchema.extend({
  /** false for an account made by a provider or created without one (until the user sets one). */
  has_password: z.boolean(),
  /** How many passkeys the account has registered. */
  passkeys: z.number().int(),
  /** The providers the account signs in with (github, google, microsoft, oidc…), oldest first. */
  identities: z.array(z.string()),
  /** The enterprise connections (SAML, OpenID Connect) the account signed in through or whose IdP provisions it (SCIM). */
  enterprise_identities: z.array(
    z.object({
      connection_id: z.string(),
      name: z.string(),
      type: z.enum(['saml', 'oidc']),
      /** Its latest sign-in through the connection; null for an account the IdP provisioned that has not signed in yet. */
      last_sign_in_at: z.string().nullable(),
      scim: z.boolean(),
    }),
  ),
  devices: z.array(DeviceSchema),
  sessions: z.array(SessionSchema),
  login_attempts: z.array(LoginAttemptSchema),
  /** The newest audit entries about the account (its own changes, its sessions' and devices'), newest first. */
  audit: z.array(AuditEntrySchema),
});
export type UserDetail = z.infer<typeof UserDetailSchema>;

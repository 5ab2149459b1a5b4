import { z } from 'zod';
import { CreateSsoConnectionInputSchema, SsoConnectionSchema } from './sso.js';

/**
 * The self-serve setup portal of enterprise SSO: a one-time link the project's team hands an
 * organization's IT admin, who sets up that organization's connections without an account.
 */

export const ADMIN_PORTAL_LINK_DEFAULT_HOURS = 24;
export const ADMIN_PORTAL_LINK_MAX_HOURS = 168;
/** A portal session lasts this long, and never past its link's expiry. */
export const ADMIN_PORTAL_SESSION_TTL_S = 60 * 60;
/** Where the SPA shows the portal, and the path its session cookie is scoped to. */
export const ADMIN_PORTAL_PATH = '/portal';

export const CreateAdminPortalLinkInputSchema = z
  .object({
    expires_in_hours: z.number().int().min(1).max(ADMIN_PORTAL_LINK_MAX_HOURS).default(ADMIN_PORTAL_LINK_DEFAULT_HOURS),
  })
  .strict();

export const AdminPortalLinkSchema = z.object({
  /** Shown this once: opening it (once) starts a portal session. */
  url: z.string(),
  expires_at: z.string(),
});

export const OpenAdminPortalInputSchema = z.object({ token: z.string().min(1).max(200) }).strict();

export const AdminPortalOrganizationSchema = z.object({ id: z.string(), name: z.string() });

export const AdminPortalSessionSchema = z.object({
  organization: AdminPortalOrganizationSchema,
  /** When the portal session ends (then a new link is needed). */
  expires_at: z.string(),
});

export const AdminPortalOverviewSchema = AdminPortalSessionSchema.extend({
  connections: z.array(SsoConnectionSchema),
  /** What the IdP needs for the next connection added here (its id is reserved), before the IdP's metadata exists. */
  next_connection: z.object({ sp_entity_id: z.string(), acs_url: z.string(), sp_metadata_url: z.string(), oidc_callback_url: z.string() }),
});

/** A connection of the portal's organization: the developer's create input, its organization implied. */
export const CreatePortalConnectionInputSchema = CreateSsoConnectionInputSchema.omit({ organization_id: true }).strict();

export const ConnectionTestStartSchema = z.object({
  /** Send the browser here; the IdP comes back to the portal with the result. */
  authorization_url: z.string(),
});

/** What the last test of a connection received from its IdP; nothing was provisioned. */
export const ConnectionTestResultSchema = z.object({
  connection_id: z.string(),
  ok: z.boolean(),
  /** Why the IdP's answer was refused (ok false). */
  error: z.string().nullable(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  groups: z.array(z.string()),
  /** Whether the address's domain is verified for this connection (sign-ins need it). */
  domain_verified: z.boolean(),
  tested_at: z.string(),
});
export type ConnectionTestResult = z.infer<typeof ConnectionTestResultSchema>;

export const ConnectionTestAnswerSchema = z.object({ result: ConnectionTestResultSchema.nullable() });

export const ADMIN_PORTAL_MESSAGES = {
  invalidLink: 'This setup link is not valid: ask the person who sent it for a new one',
  usedLink: 'This setup link was already opened: each link opens once. Ask the person who sent it for a new one',
  expiredLink: 'This setup link has expired: ask the person who sent it for a new one',
  noSession: 'Your setup session has ended: open a new setup link',
} as const;

import { z } from 'zod';
import { dateFromQuery, PageQuerySchema } from './admin.js';

/** What the audit log records: each change an admin or a developer makes. */
export const AUDIT_ACTIONS = [
  'user.activated',
  'user.deactivated',
  'user.unlocked',
  'user.mfa_reset',
  'user.deleted',
  'user.created',
  'user.verification_sent',
  'user.password_reset_sent',
  'user.signed_out',
  'device.blocked',
  'device.unblocked',
  'device.trusted',
  'device.untrusted',
  'session.revoked',
  'project.created',
  'project.updated',
  'project.deleted',
  'api_key.created',
  'api_key.revoked',
  'connection.saved',
  'connection.removed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'machine_client.created',
  'machine_client.updated',
  'machine_client.revoked',
  'machine_client.secret_rotated',
  'machine_client.deleted',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invitation.revoked',
  'settings.updated',
  'mail.resent',
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization_member.added',
  'organization_member.role_changed',
  'organization_member.removed',
  'organization_invitation.created',
  'organization_invitation.revoked',
  'sso_connection.created',
  'sso_connection.updated',
  'sso_connection.deleted',
  'sso_domain.verified',
  'scim_token.created',
  'scim_token.rotated',
  'scim_token.revoked',
  'sso_connection.tested',
  'admin_portal_link.created',
  'admin_portal.opened',
  'scim_user.provisioned',
  'scim_user.updated',
  'scim_user.deactivated',
  'scim_user.reactivated',
  'scim_user.deprovisioned',
  'organization_invitation.accepted',
  'organization_role.created',
  'organization_role.updated',
  'organization_role.deleted',
  'organization_settings.updated',
  'user.metadata_updated',
  'users.exported',
  'users.imported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const JsonObjectSchema = z.record(z.string(), z.unknown());

/**
 * What the log keeps of a value too large to record whole (`before` and `after` hold at most 2 KB of
 * JSON each): in place of a field's value, or of the whole `before` or `after`. `bytes` is the size of
 * its JSON, `sha256` that JSON's digest (two values with the same start still differ by it), `preview`
 * its first 100 characters.
 */
export const TruncatedValueSchema = z.object({ truncated: z.literal(true), bytes: z.number().int(), sha256: z.string(), preview: z.string() });
export type TruncatedValue = z.infer<typeof TruncatedValueSchema>;

export function isTruncatedValue(value: unknown): value is TruncatedValue {
  return TruncatedValueSchema.safeParse(value).success;
}

export const AuditEntrySchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  target_label: z.string().nullable(),
  before: JsonObjectSchema.nullable(),
  after: JsonObjectSchema.nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({ entries: z.array(AuditEntrySchema), total: z.number().int(), page: z.number().int(), per_page: z.number().int() });

/** Paging and the filters: an action (`user.deactivated`) or a family of them (`user.`), the actor's e-mail (part of it), a time range. */
export const AuditQuerySchema = PageQuerySchema.extend({
  action: z.string({ error: 'action must be text' }).trim().max(64, { error: 'action must be at most 64 characters' }).optional(),
  actor: z.string({ error: 'actor must be text' }).trim().max(254, { error: 'actor must be at most 254 characters' }).optional(),
  from: dateFromQuery('from'),
  to: dateFromQuery('to'),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

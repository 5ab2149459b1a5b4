import { z } from 'zod';
import { EmailSchema } from './common.js';
import { EndUserProfileSchema } from './user.js';

/**
 * Organizations of a project's end users (B2B): an app's users belong to organizations, with a role
 * in each; a role is a set of permission keys; the active organization rides in the access token.
 */

/** Each metadata object (a user's public, private and unsafe ones, an organization's public and private ones) holds at most this much JSON. */
export const METADATA_MAX_BYTES = 8 * 1024;
/** An invitation's link is good for this long. */
export const ORGANIZATION_INVITATION_TTL_DAYS = 7;
/** The built-in roles every project has: `org:admin` holds every permission of the project, `org:member` none. */
export const ORG_ADMIN_ROLE = 'org:admin';
export const ORG_MEMBER_ROLE = 'org:member';
export const BUILT_IN_ORGANIZATION_ROLES = [ORG_ADMIN_ROLE, ORG_MEMBER_ROLE] as const;
/**
 * Permissions the platform itself checks on the end-user routes: `members:manage` lets a member
 * invite people and remove members of their organization.
 */
export const MEMBERS_MANAGE = 'members:manage';
export const SYSTEM_PERMISSIONS = [MEMBERS_MANAGE] as const;
/** Roles a project may add besides the built-in two. */
export const MAX_CUSTOM_ROLES = 50;
export const MAX_PERMISSIONS_PER_ROLE = 100;
/** A custom-claims template holds at most this much JSON, and its claims at most MAX_CUSTOM_CLAIMS. */
export const CUSTOM_CLAIMS_MAX_BYTES = 4 * 1024;
export const MAX_CUSTOM_CLAIMS = 30;
/**
 * Claims a custom-claims template may never set: the registered ones (RFC 7519), the token's own and
 * the organization claims the platform sets.
 */
export const RESERVED_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'sid',
  'typ',
  'azp',
  'scope',
  'client_id',
  'auth_time',
  'amr',
  'acr',
  'nonce',
  'at_hash',
  'c_hash',
  'cnf',
  'org_id',
  'org_slug',
  'org_role',
  'org_permissions',
  'organizations',
  'public_metadata',
] as const;

export const ORGANIZATION_MESSAGES = {
  notFound: 'Organization not found',
  memberNotFound: 'Member not found',
  userNotFound: 'User not found',
  invitationNotFound: 'Invitation not found',
  roleNotFound: 'Role not found',
  unknownRole: 'role is not one of the project\'s roles',
  slugTaken: 'An organization with this slug already exists',
  roleKeyTaken: 'A role with this key already exists',
  alreadyMember: 'The user is already a member of this organization',
  notMember: 'You are not a member of this organization',
  forbidden: 'Your role in this organization does not allow this',
  builtInRole: 'Built-in roles cannot be changed or deleted',
  roleInUse: 'Members still hold this role: give them another role first',
  lastAdmin: 'An organization needs at least one org:admin: make someone else an admin first',
  selfServiceOff: 'This project does not let users create organizations',
  tooManyOrganizations: (max: number) => `A user may belong to at most ${max} organizations here`,
  invitationInvalid: 'This invitation is invalid or has expired',
  invitationUsed: 'This invitation has already been accepted',
  invitationOtherEmail: 'This invitation was sent to another e-mail address',
  pendingInvitationExists: 'This address already has a pending invitation to this organization',
} as const;

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** A JSON object of at most 8 KB. */
export const metadataSchema = (name: string) =>
  z
    .record(z.string(), z.unknown(), { error: `${name} must be a JSON object` })
    .refine((value) => jsonBytes(value) <= METADATA_MAX_BYTES, { error: `${name} must be at most ${METADATA_MAX_BYTES} bytes of JSON` });

export const MetadataSchema = z.record(z.string(), z.unknown());
export type Metadata = z.infer<typeof MetadataSchema>;

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const SlugSchema = z
  .string({ error: 'slug must be text' })
  .trim()
  .toLowerCase()
  .regex(SLUG, { error: 'slug must be 1 to 64 lowercase letters, digits and hyphens, starting and ending with a letter or digit' });

/** A slug made from a name: "Acme Inc." → "acme-inc". */
export function slugFrom(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
  return slug || 'organization';
}

const OrganizationNameSchema = z.string({ error: 'name is required' }).trim().min(1, { error: 'name is required' }).max(100, { error: 'name must be at most 100 characters' });
const LogoUrlSchema = z
  .string({ error: 'logo_url must be text' })
  .trim()
  .max(2000, { error: 'logo_url must be at most 2000 characters' })
  .refine(
    (value) => {
      try {
        return new URL(value).protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'logo_url must be an https URL' },
  );
const IdSchema = (name: string) => z.string({ error: `${name} is required` }).trim().min(1, { error: `${name} is required` }).max(100, { error: `${name} is invalid` });

export const RoleKeySchema = z
  .string({ error: 'role is required' })
  .trim()
  .min(1, { error: 'role is required' })
  .max(64, { error: 'role must be at most 64 characters' })
  .regex(/^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)?$/, { error: 'role must look like org:billing or billing (lowercase letters, digits, _ and -)' });

export const PermissionKeySchema = z
  .string({ error: 'permissions must be text' })
  .trim()
  .max(64, { error: 'a permission must be at most 64 characters' })
  .regex(/^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)+$/, { error: 'a permission must look like invoices:read (lowercase words joined by colons)' });

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo_url: z.string().nullable(),
  public_metadata: MetadataSchema,
  private_metadata: MetadataSchema,
  members_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationListSchema = z.object({ organizations: z.array(OrganizationSchema), total: z.number().int() });

export const OrganizationListQuerySchema = z.object({
  q: z.string().trim().max(100, { error: 'q must be at most 100 characters' }).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int({ error: 'limit must be a whole number' }).min(1, { error: 'limit must be between 1 and 100' }).max(100, { error: 'limit must be between 1 and 100' }).default(20),
  offset: z.coerce.number({ error: 'offset must be a number' }).int({ error: 'offset must be a whole number' }).min(0, { error: 'offset must be 0 or more' }).max(1_000_000, { error: 'offset is too large' }).default(0),
});

export const CreateOrganizationInputSchema = z.object({
  name: OrganizationNameSchema,
  /** Made from the name when left out. */
  slug: SlugSchema.optional(),
  logo_url: LogoUrlSchema.nullish(),
  public_metadata: metadataSchema('public_metadata').optional(),
  private_metadata: metadataSchema('private_metadata').optional(),
  /** An end user of the project who becomes the organization's first org:admin. */
  created_by: IdSchema('created_by').optional(),
});
export type CreateOrganizationInput = z.input<typeof CreateOrganizationInputSchema>;

export const UpdateOrganizationInputSchema = z.object({
  name: OrganizationNameSchema.optional(),
  slug: SlugSchema.optional(),
  logo_url: LogoUrlSchema.nullish(),
  /** Replaces the whole object. */
  public_metadata: metadataSchema('public_metadata').optional(),
  private_metadata: metadataSchema('private_metadata').optional(),
});

/** What an end user creates themselves: no private metadata, and they become its org:admin. */
export const CreateOwnOrganizationInputSchema = z.object({
  name: OrganizationNameSchema,
  slug: SlugSchema.optional(),
});

export const OrganizationMemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role: z.string(),
  joined_at: z.string(),
});
export type OrganizationMember = z.infer<typeof OrganizationMemberSchema>;
export const OrganizationMemberListSchema = z.object({ members: z.array(OrganizationMemberSchema) });

export const AddMemberInputSchema = z.object({ user_id: IdSchema('user_id'), role: RoleKeySchema.default(ORG_MEMBER_ROLE) });
export const UpdateMemberInputSchema = z.object({ role: RoleKeySchema });

export const OrganizationInvitationSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(['pending', 'accepted', 'expired']),
  /** The end user who invited, or null when the project's backend did. */
  inviter_user_id: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type OrganizationInvitation = z.infer<typeof OrganizationInvitationSchema>;
export const OrganizationInvitationListSchema = z.object({ invitations: z.array(OrganizationInvitationSchema) });

export const CreateInvitationInputSchema = z.object({ email: EmailSchema, role: RoleKeySchema.default(ORG_MEMBER_ROLE) });
export const AcceptInvitationInputSchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }).max(200, { error: ORGANIZATION_MESSAGES.invitationInvalid }),
});

/** One of the signed-in end user's organizations, with what they are in it. */
export const MyOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo_url: z.string().nullable(),
  public_metadata: MetadataSchema,
  role: z.string(),
  permissions: z.array(z.string()),
  joined_at: z.string(),
});
export type MyOrganization = z.infer<typeof MyOrganizationSchema>;
export const MyOrganizationListSchema = z.object({
  organizations: z.array(MyOrganizationSchema),
  /** The organization the session is in (its tokens carry it); null for none. */
  active_organization_id: z.string().nullable(),
  /** Whether the user may create organizations here (the project allows it and they are under its limit). */
  can_create: z.boolean(),
});

/** An end user's memberships, as the project's team sees them on the user's page. */
export const UserOrganizationListSchema = z.object({ organizations: z.array(MyOrganizationSchema.pick({ id: true, name: true, slug: true, role: true, joined_at: true })) });

export const SwitchOrganizationInputSchema = z.object({
  organization_id: z.string({ error: 'organization_id must be text or null' }).trim().min(1, { error: 'organization_id must be text or null' }).max(100).nullable(),
});

/** An invitation as its link shows it before it is accepted. */
export const InvitationPreviewInputSchema = AcceptInvitationInputSchema;
export const OrganizationInvitationPreviewSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string(), slug: z.string(), logo_url: z.string().nullable() }),
  email: z.string(),
  role: z.string(),
  expires_at: z.string(),
});

export const OrganizationRoleSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  built_in: z.boolean(),
  created_at: z.string().nullable(),
});
export type OrganizationRole = z.infer<typeof OrganizationRoleSchema>;
export const OrganizationRoleListSchema = z.object({
  roles: z.array(OrganizationRoleSchema),
  /** Every permission key in use in the project (org:admin holds them all), the platform's own first. */
  permissions: z.array(z.string()),
});

/** The roles a member with members:manage may give when inviting: none with a permission they lack. */
export const AssignableRoleListSchema = z.object({ roles: z.array(OrganizationRoleSchema.pick({ key: true, name: true, permissions: true })) });
export type AssignableRole = z.infer<typeof AssignableRoleListSchema>['roles'][number];

const RoleNameSchema = z.string({ error: 'name is required' }).trim().min(1, { error: 'name is required' }).max(100, { error: 'name must be at most 100 characters' });
const RoleDescriptionSchema = z.string({ error: 'description must be text' }).trim().max(500, { error: 'description must be at most 500 characters' }).nullish().transform((v) => v || null);
const PermissionsSchema = z
  .array(PermissionKeySchema, { error: 'permissions must be a list' })
  .max(MAX_PERMISSIONS_PER_ROLE, { error: `A role may hold at most ${MAX_PERMISSIONS_PER_ROLE} permissions` })
  .transform((keys) => [...new Set(keys)].sort());

export const CreateRoleInputSchema = z.object({
  key: RoleKeySchema.refine((key) => !key.startsWith('org:') || !(BUILT_IN_ORGANIZATION_ROLES as readonly string[]).includes(key), { error: ORGANIZATION_MESSAGES.roleKeyTaken }),
  name: RoleNameSchema,
  description: RoleDescriptionSchema,
  permissions: PermissionsSchema.default([]),
});
export const UpdateRoleInputSchema = z.object({
  name: RoleNameSchema.optional(),
  description: RoleDescriptionSchema.optional(),
  permissions: PermissionsSchema.optional(),
});

/** The project's organization settings. */
export const OrganizationSettingsSchema = z.object({
  /** End users may create organizations themselves (POST /public/api/v1/me/organizations, the hosted pages). */
  self_service_creation: z.boolean(),
  /** How many organizations one end user may belong to. */
  max_organizations_per_user: z.number().int(),
  /** A JSON object of claims added to access tokens, whose strings may use {{user.…}} and {{org.…}}; null for none. */
  custom_claims: z.record(z.string(), z.unknown()).nullable(),
});
export type OrganizationSettings = z.infer<typeof OrganizationSettingsSchema>;
export const DEFAULT_MAX_ORGANIZATIONS_PER_USER = 100;
export const MAX_ORGANIZATIONS_PER_USER_LIMIT = 10_000;

export const UpdateOrganizationSettingsInputSchema = z.object({
  self_service_creation: z.boolean({ error: 'self_service_creation must be true or false' }).optional(),
  max_organizations_per_user: z
    .number({ error: 'max_organizations_per_user must be a number' })
    .int({ error: 'max_organizations_per_user must be a whole number' })
    .min(1, { error: `max_organizations_per_user must be between 1 and ${MAX_ORGANIZATIONS_PER_USER_LIMIT}` })
    .max(MAX_ORGANIZATIONS_PER_USER_LIMIT, { error: `max_organizations_per_user must be between 1 and ${MAX_ORGANIZATIONS_PER_USER_LIMIT}` })
    .optional(),
  /** Checked on the server (template syntax, reserved claims, size); null removes them. */
  custom_claims: z.record(z.string(), z.unknown(), { error: 'custom_claims must be a JSON object or null' }).nullable().optional(),
});

/** The end user's metadata, as the project's backend sets it. */
export const UpdateUserMetadataInputSchema = z.object({
  public_metadata: metadataSchema('public_metadata').optional(),
  private_metadata: metadataSchema('private_metadata').optional(),
  unsafe_metadata: metadataSchema('unsafe_metadata').optional(),
});

/** An end user as the project's backend sees them (API key): with their private metadata. */
export const EndUserSchema = EndUserProfileSchema.extend({ private_metadata: MetadataSchema });
export type EndUser = z.infer<typeof EndUserSchema>;

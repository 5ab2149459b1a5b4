import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import type { Realm } from '../realms/realm.js';
import { renderCustomClaims } from './custom-claims.js';
import { ORG_ADMIN_ROLE } from '../../../shared/schemas/organizations.js';
import { findMembershipWithRolePermissions } from './organizations.repo.js';
import { permissionsOfRow, projectPermissions } from './roles.js';
import { parseMetadata } from '../../lib/metadata.js';

/**
 * How much JSON a token's added claims may hold: the hosted pages keep the access token in a cookie,
 * and a browser keeps a cookie of at most 4 KB (header, signature and base64 included).
 */
export const TOKEN_CLAIMS_BUDGET_BYTES = 2048;

/** The user's fields a token's claims come from. */
export type ClaimsUser = Pick<UserRow, 'id' | 'email' | 'is_verified' | 'first_name' | 'last_name' | 'public_metadata'>;

/** The organization a session is in, as its tokens say it. */
export interface ActiveOrganization {
  id: string;
  slug: string;
  name: string;
  role: string;
  permissions: string[];
  public_metadata: Record<string, unknown>;
}

/** The session's organization, if the user is still a member of it in this realm's project; null otherwise. */
export async function activeOrganizationOf(db: Db, projectId: string, userId: string, organizationId: string | null): Promise<ActiveOrganization | null> {
  if (organizationId === null) return null;
  // One query on every refresh in an organization: the membership, its organization and its role's permissions.
  const rows = await findMembershipWithRolePermissions(db, userId, organizationId);
  const membership = rows[0];
  if (!membership || membership.project_id !== projectId) return null;
  const roles = rows.flatMap((row) => (row.role_permissions === null ? [] : [{ permissions: row.role_permissions }]));
  return {
    id: membership.id,
    slug: membership.slug,
    name: membership.name,
    role: membership.role,
    permissions: membership.role === ORG_ADMIN_ROLE ? projectPermissions(roles) : roles[0] ? permissionsOfRow(roles[0]) : [],
    public_metadata: parseMetadata(membership.public_metadata),
  };
}

/**
 * What a project's access tokens say beyond who and which session: the user's public metadata, the
 * active organization (org_id, org_slug, org_role, org_permissions) and the project's custom claims.
 * Read when a token is issued, so a removed member or a changed role shows at the next refresh.
 * The platform's own tokens carry none.
 */
export async function accessTokenClaims(db: Db, realm: Pick<Realm, 'projectId' | 'policy'>, user: ClaimsUser, organizationId: string | null): Promise<Record<string, unknown>> {
  if (realm.projectId === null) return {};
  const org = await activeOrganizationOf(db, realm.projectId, user.id, organizationId);
  const publicMetadata = parseMetadata(user.public_metadata);
  const template = realm.policy.organizations.customClaims;
  const custom = template
    ? renderCustomClaims(template, {
        user: { id: user.id, email: user.email, email_verified: user.is_verified === 1, first_name: user.first_name, last_name: user.last_name, public_metadata: publicMetadata },
        org,
      })
    : null;
  const claims: Record<string, unknown> = org ? { org_id: org.id, org_slug: org.slug, org_role: org.role, org_permissions: org.permissions } : {};
  // The organization's claims always; then the custom claims and the public metadata, each while the
  // whole still fits TOKEN_CLAIMS_BUDGET_BYTES (larger metadata is read from userinfo or the profile).
  const fits = (more: Record<string, unknown>) => Buffer.byteLength(JSON.stringify({ ...claims, ...more })) <= TOKEN_CLAIMS_BUDGET_BYTES;
  if (custom && fits(custom)) Object.assign(claims, custom);
  if (fits({ public_metadata: publicMetadata })) claims.public_metadata = publicMetadata;
  return claims;
}

import { sql } from 'kysely';
import { ORG_ADMIN_ROLE } from '../../../shared/schemas/organizations.js';
import type { Db } from '../../db/connect.js';
import type { OrganizationInvitationRow, OrganizationRoleRow, OrganizationRow } from '../../db/schema.js';

/** Organizations, their members, invitations and the project's own roles. Every read is scoped to a project. */

/** The user's fields an access token's claims are made from. */
export async function findClaimsUser(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'is_verified', 'first_name', 'last_name', 'public_metadata']).where('id', '=', userId).executeTakeFirst();
}

export async function findOrganization(db: Db, projectId: string, organizationId: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', organizationId).where('project_id', '=', projectId).executeTakeFirst();
}

export async function findOrganizationBySlug(db: Db, projectId: string, slug: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('project_id', '=', projectId).where('slug', '=', slug).executeTakeFirst();
}

export async function listOrganizations(db: Db, projectId: string, query: { q?: string; limit: number; offset: number }) {
  let base = db.selectFrom('organizations').where('project_id', '=', projectId);
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([sql<boolean>`lower(name) like ${pattern} escape '\\'`, sql<boolean>`slug like ${pattern} escape '\\'`]));
  }
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .select((eb) =>
        eb
          .selectFrom('organization_members')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('organization_members.organization_id', '=', 'organizations.id')
          .as('members_count'),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function countMembers(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom('organization_members').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertOrganization(db: Db, row: OrganizationRow): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function updateOrganization(db: Db, id: string, changes: Partial<Omit<OrganizationRow, 'id' | 'project_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
}

export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

/** An organization's members as the API shows them (OrganizationMember). */
const membersOf = (db: Db, organizationId: string) =>
  db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .select(['organization_members.user_id', 'users.email', 'users.first_name', 'users.last_name', 'organization_members.role', 'organization_members.joined_at'])
    .where('organization_members.organization_id', '=', organizationId);

export async function listMembers(db: Db, organizationId: string) {
  return membersOf(db, organizationId)
    .orderBy('organization_members.joined_at')
    .orderBy('organization_members.user_id')
    .execute();
}

export async function findMember(db: Db, organizationId: string, userId: string) {
  return membersOf(db, organizationId).where('organization_members.user_id', '=', userId).executeTakeFirst();
}

/** Whether an account with this (normalised) address is a member. */
export async function hasMemberWithEmail(db: Db, organizationId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .select('organization_members.user_id')
    .where('organization_members.organization_id', '=', organizationId)
    .where('users.email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertMember(db: Db, member: { organization_id: string; user_id: string; role: string; joined_at: string }): Promise<void> {
  await db.insertInto('organization_members').values({ ...member, updated_at: member.joined_at }).execute();
}

export async function updateMemberRole(db: Db, organizationId: string, userId: string, role: string, now: string): Promise<void> {
  await db.updateTable('organization_members').set({ role, updated_at: now }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

export async function deleteMember(db: Db, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('organization_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

export async function countMembersWithRole(db: Db, organizationId: string, role: string): Promise<number> {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', role)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countMembershipsOfUser(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('organization_members').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's organizations with their role in each. */
export async function listMembershipsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('organization_members')
    .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
    .select([
      'organizations.id',
      'organizations.name',
      'organizations.slug',
      'organizations.logo_url',
      'organizations.public_metadata',
      'organization_members.role',
      'organization_members.joined_at',
    ])
    .where('organization_members.user_id', '=', userId)
    .orderBy('organization_members.joined_at')
    .orderBy('organizations.id')
    .execute();
}

/** The id of the project's organization (by id or slug) the user is a member of; null otherwise. */
export async function organizationOfMember(db: Db, projectId: string, userId: string, idOrSlug: string): Promise<string | null> {
  const row = await db
    .selectFrom('organizations')
    .innerJoin('organization_members', 'organization_members.organization_id', 'organizations.id')
    .select('organizations.id')
    .where('organizations.project_id', '=', projectId)
    .where('organization_members.user_id', '=', userId)
    .where((eb) => eb.or([eb('organizations.id', '=', idOrSlug), eb('organizations.slug', '=', idOrSlug)]))
    .executeTakeFirst();
  return row?.id ?? null;
}

/** One membership with its organization, as a token's claims need it. */
/**
 * A membership with its organization and what its role holds, in one query for the token's claims:
 * one row per role of the project for an org:admin (who holds every permission), else one row with
 * the member's role (`role_permissions` null for a built-in role or one deleted since); none for a non-member.
 */
export async function findMembershipWithRolePermissions(db: Db, userId: string, organizationId: string) {
  return db
    .selectFrom('organization_members')
    .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
    .leftJoin('organization_roles', (join) =>
      join
        .onRef('organization_roles.project_id', '=', 'organizations.project_id')
        .on((eb) => eb.or([eb('organization_members.role', '=', ORG_ADMIN_ROLE), eb('organization_roles.key', '=', eb.ref('organization_members.role'))])),
    )
    .select([
      'organizations.id',
      'organizations.project_id',
      'organizations.name',
      'organizations.slug',
      'organizations.public_metadata',
      'organization_members.role',
      'organization_roles.permissions as role_permissions',
    ])
    .where('organization_members.user_id', '=', userId)
    .where('organization_members.organization_id', '=', organizationId)
    .execute();
}

export async function listInvitations(db: Db, organizationId: string): Promise<OrganizationInvitationRow[]> {
  return db.selectFrom('organization_invitations').selectAll().where('organization_id', '=', organizationId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function findInvitation(db: Db, organizationId: string, invitationId: string): Promise<OrganizationInvitationRow | undefined> {
  return db.selectFrom('organization_invitations').selectAll().where('organization_id', '=', organizationId).where('id', '=', invitationId).executeTakeFirst();
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('organization_invitations')
    .innerJoin('organizations', 'organizations.id', 'organization_invitations.organization_id')
    .selectAll('organization_invitations')
    .select(['organizations.project_id', 'organizations.name as organization_name', 'organizations.slug as organization_slug', 'organizations.logo_url as organization_logo_url'])
    .where('organization_invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findPendingInvitationTo(db: Db, organizationId: string, email: string, now: string) {
  return db
    .selectFrom('organization_invitations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function countPendingInvitations(db: Db, organizationId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('organization_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertInvitation(db: Db, row: OrganizationInvitationRow): Promise<void> {
  await db.insertInto('organization_invitations').values(row).execute();
}

export async function deleteInvitation(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organization_invitations').where('id', '=', id).execute();
}

/** Marks an invitation used; false when it was used already (a parallel accept). */
export async function spendInvitation(db: Db, id: string, userId: string, now: string): Promise<boolean> {
  const result = await db.updateTable('organization_invitations').set({ accepted_at: now, accepted_by: userId }).where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listRoles(db: Db, projectId: string): Promise<OrganizationRoleRow[]> {
  return db.selectFrom('organization_roles').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('key').execute();
}

export async function findRole(db: Db, projectId: string, key: string): Promise<OrganizationRoleRow | undefined> {
  return db.selectFrom('organization_roles').selectAll().where('project_id', '=', projectId).where('key', '=', key).executeTakeFirst();
}

export async function insertRole(db: Db, row: OrganizationRoleRow): Promise<void> {
  await db.insertInto('organization_roles').values(row).execute();
}

export async function updateRole(db: Db, id: string, changes: Partial<Pick<OrganizationRoleRow, 'name' | 'description' | 'permissions' | 'updated_at'>>): Promise<void> {
  await db.updateTable('organization_roles').set(changes).where('id', '=', id).execute();
}

export async function deleteRole(db: Db, id: string): Promise<void> {
  await db.deleteFrom('organization_roles').where('id', '=', id).execute();
}

/** Whether any member of the project's organizations holds the role. */
export async function roleInUse(db: Db, projectId: string, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_members')
    .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
    .select('organization_members.user_id')
    .where('organizations.project_id', '=', projectId)
    .where('organization_members.role', '=', key)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

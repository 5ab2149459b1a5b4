import type { Db } from '../../db/connect.js';
import type { ProjectInvitationsTable, ProjectRole } from '../../db/schema.js';
import { invalidateOnCommit } from '../../db/transaction.js';

export async function listMembers(db: Db, projectId: string) {
  return db
    .selectFrom('project_members')
    .innerJoin('users', 'users.id', 'project_members.user_id')
    .select(['project_members.user_id', 'project_members.role', 'project_members.created_at', 'users.email', 'users.first_name', 'users.last_name'])
    .where('project_members.project_id', '=', projectId)
    .orderBy('project_members.created_at')
    .orderBy('users.email')
    .execute();
}

export async function findMember(db: Db, projectId: string, userId: string) {
  return db
    .selectFrom('project_members')
    .innerJoin('users', 'users.id', 'project_members.user_id')
    .select(['project_members.user_id', 'project_members.role', 'users.email'])
    .where('project_members.project_id', '=', projectId)
    .where('project_members.user_id', '=', userId)
    .executeTakeFirst();
}

export async function findMemberByEmail(db: Db, projectId: string, email: string) {
  return db
    .selectFrom('project_members')
    .innerJoin('users', 'users.id', 'project_members.user_id')
    .select('project_members.user_id')
    .where('project_members.project_id', '=', projectId)
    .where('users.email', '=', email)
    .executeTakeFirst();
}

/**
 * Serializes changes to one project's team inside a transaction (a row lock on PostgreSQL, the write
 * lock on SQLite), so two owners stepping down at once cannot leave the project without one.
 */
export async function lockTeam(db: Db, projectId: string): Promise<void> {
  await db
    .updateTable('projects')
    .set((eb) => ({ owner_id: eb.ref('owner_id') }))
    .where('id', '=', projectId)
    .execute();
}

export async function countOwners(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertMember(db: Db, member: { project_id: string; user_id: string; role: ProjectRole; created_at: string }): Promise<void> {
  await db.insertInto('project_members').values(member).execute();
}

export async function setMemberRole(db: Db, projectId: string, userId: string, role: ProjectRole): Promise<void> {
  await db.updateTable('project_members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

export async function deleteMember(db: Db, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/**
 * Keeps `projects.owner_id` (the primary owner, whose account state the project's keys follow) on one
 * of the project's owners: the longest-standing one, when the primary owner left or stepped down.
 * The project's keys' cached lookups carry whether that owner is active: a move drops them once committed.
 */
export async function keepPrimaryOwner(db: Db, projectId: string): Promise<void> {
  const owner = await db
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('role', '=', 'owner')
    .orderBy('created_at')
    .orderBy('user_id')
    .executeTakeFirst();
  if (!owner) return;
  const moved = await db.updateTable('projects').set({ owner_id: owner.user_id }).where('id', '=', projectId).where('owner_id', '!=', owner.user_id).executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0) invalidateOnCommit(db, 'api-keys');
}

/**
 * For a developer leaving the platform: drops their places on every team, passes the projects they
 * were the primary owner of to a remaining owner, and answers the projects left without any owner
 * (for the caller to delete).
 */
export async function leaveEveryTeam(db: Db, userId: string): Promise<string[]> {
  const places = await db.selectFrom('project_members').select(['project_id', 'role']).where('user_id', '=', userId).execute();
  const orphaned: string[] = [];
  for (const place of places) {
    await deleteMember(db, place.project_id, userId);
    if (place.role !== 'owner') continue;
    await lockTeam(db, place.project_id);
    if ((await countOwners(db, place.project_id)) === 0) orphaned.push(place.project_id);
    else await keepPrimaryOwner(db, place.project_id);
  }
  return orphaned;
}

export async function listPendingInvitations(db: Db, projectId: string, now: string) {
  return db
    .selectFrom('project_invitations')
    .leftJoin('users as inviters', 'inviters.id', 'project_invitations.invited_by')
    .select([
      'project_invitations.id',
      'project_invitations.email',
      'project_invitations.role',
      'project_invitations.created_at',
      'project_invitations.expires_at',
      'inviters.email as invited_by',
    ])
    .where('project_invitations.project_id', '=', projectId)
    .where('project_invitations.expires_at', '>', now)
    .orderBy('project_invitations.created_at', 'desc')
    .execute();
}

export async function insertInvitation(db: Db, invitation: ProjectInvitationsTable): Promise<void> {
  await db.insertInto('project_invitations').values(invitation).execute();
}

export async function findInvitation(db: Db, projectId: string, id: string) {
  return db.selectFrom('project_invitations').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** A live invitation by its token's hash, with its project's name and who sent it. */
export async function findLiveInvitationByHash(db: Db, tokenHash: string, now: string) {
  return db
    .selectFrom('project_invitations')
    .innerJoin('projects', 'projects.id', 'project_invitations.project_id')
    .leftJoin('users as inviters', 'inviters.id', 'project_invitations.invited_by')
    .selectAll('project_invitations')
    .select(['projects.name as project_name', 'inviters.email as inviter_email'])
    .where('project_invitations.token_hash', '=', tokenHash)
    .where('project_invitations.expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends an invitation; false when another request spent it first. */
export async function deleteInvitation(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('project_invitations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A new invitation to the same address replaces the earlier ones (their links stop working). */
export async function deleteInvitationsTo(db: Db, projectId: string, email: string): Promise<void> {
  await db.deleteFrom('project_invitations').where('project_id', '=', projectId).where('email', '=', email).execute();
}

export async function deleteExpiredInvitations(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('project_invitations').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countPendingInvitations(db: Db, projectId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('project_invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ScimGroupRow, ScimGroupsTable, ScimUserRow, ScimUsersTable } from '../../db/schema.js';

/** A provisioned user as SCIM shows it: the link and the account's address and names. */
export type ScimUserView = ScimUserRow & { email: string; first_name: string | null; last_name: string | null };

/** What a filter can narrow in SQL before the full filter runs (an `eq` on one of these). */
export interface UserNarrowing {
  userName?: string;
  externalId?: string;
  email?: string;
}

/** A unique index refused the write (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

function usersOf(db: Db, connectionId: string) {
  return db
    .selectFrom('scim_users')
    .innerJoin('users', 'users.id', 'scim_users.user_id')
    .selectAll('scim_users')
    .select(['users.email', 'users.first_name', 'users.last_name'])
    .where('scim_users.connection_id', '=', connectionId);
}

export async function listScimUsers(db: Db, connectionId: string, narrow: UserNarrowing = {}): Promise<ScimUserView[]> {
  let query = usersOf(db, connectionId);
  if (narrow.userName !== undefined) query = query.where('scim_users.user_name', '=', narrow.userName);
  if (narrow.externalId !== undefined) query = query.where('scim_users.external_id', '=', narrow.externalId);
  if (narrow.email !== undefined) query = query.where('users.email', '=', narrow.email);
  return query.orderBy('scim_users.created_at').orderBy('scim_users.user_id').execute();
}

export async function findScimUser(db: Db, connectionId: string, userId: string): Promise<ScimUserView | undefined> {
  return usersOf(db, connectionId).where('scim_users.user_id', '=', userId).executeTakeFirst();
}

/** The link of an account, to whichever connection. */
export async function findLinkOfUser(db: Db, userId: string): Promise<ScimUserRow | undefined> {
  return db.selectFrom('scim_users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertScimUser(db: Db, row: Insertable<ScimUsersTable>): Promise<void> {
  await db.insertInto('scim_users').values(row).execute();
}

export async function updateScimUser(db: Db, userId: string, changes: Updateable<ScimUsersTable>): Promise<void> {
  await db.updateTable('scim_users').set(changes).where('user_id', '=', userId).execute();
}

export async function deleteScimUser(db: Db, connectionId: string, userId: string): Promise<void> {
  await db.deleteFrom('scim_users').where('connection_id', '=', connectionId).where('user_id', '=', userId).execute();
}

/** Which of these accounts the connection provisions. */
export async function linkedUserIds(db: Db, connectionId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('scim_users').select('user_id').where('connection_id', '=', connectionId).where('user_id', 'in', userIds).execute();
  return new Set(rows.map((row) => row.user_id));
}

// --- Groups

export async function listGroups(db: Db, connectionId: string, narrow: { displayName?: string; externalId?: string } = {}): Promise<ScimGroupRow[]> {
  let query = db.selectFrom('scim_groups').selectAll().where('connection_id', '=', connectionId);
  if (narrow.displayName !== undefined) query = query.where('display_name', '=', narrow.displayName);
  if (narrow.externalId !== undefined) query = query.where('external_id', '=', narrow.externalId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function findGroup(db: Db, connectionId: string, id: string): Promise<ScimGroupRow | undefined> {
  return db.selectFrom('scim_groups').selectAll().where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
}

export async function insertGroup(db: Db, row: Insertable<ScimGroupsTable>): Promise<void> {
  await db.insertInto('scim_groups').values(row).execute();
}

export async function updateGroup(db: Db, id: string, changes: Updateable<ScimGroupsTable>): Promise<void> {
  await db.updateTable('scim_groups').set(changes).where('id', '=', id).execute();
}

export async function deleteGroup(db: Db, connectionId: string, id: string): Promise<void> {
  await db.deleteFrom('scim_groups').where('connection_id', '=', connectionId).where('id', '=', id).execute();
}

/** The members of these groups, with the userName their IdP gave them. */
export async function listGroupMembers(db: Db, groupIds: readonly string[]): Promise<{ group_id: string; user_id: string; user_name: string }[]> {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('scim_group_members')
    .innerJoin('scim_users', 'scim_users.user_id', 'scim_group_members.user_id')
    .select(['scim_group_members.group_id', 'scim_group_members.user_id', 'scim_users.user_name'])
    .where('scim_group_members.group_id', 'in', groupIds)
    .orderBy('scim_users.user_name')
    .execute();
}

export async function addGroupMembers(db: Db, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('scim_group_members')
    .values(userIds.map((userId) => ({ group_id: groupId, user_id: userId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeGroupMembers(db: Db, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('scim_group_members').where('group_id', '=', groupId).where('user_id', 'in', userIds).execute();
}

/** The connection's groups an account is in, oldest first. */
export async function groupsOfUser(db: Db, connectionId: string, userId: string): Promise<ScimGroupRow[]> {
  return db
    .selectFrom('scim_groups')
    .innerJoin('scim_group_members', 'scim_group_members.group_id', 'scim_groups.id')
    .selectAll('scim_groups')
    .where('scim_groups.connection_id', '=', connectionId)
    .where('scim_group_members.user_id', '=', userId)
    .orderBy('scim_groups.created_at')
    .orderBy('scim_groups.id')
    .execute();
}

/** Takes an account out of every group of the connection (it is deprovisioned). */
export async function leaveGroupsOfConnection(db: Db, connectionId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('scim_group_members')
    .where('user_id', '=', userId)
    .where('group_id', 'in', (eb) => eb.selectFrom('scim_groups').select('id').where('connection_id', '=', connectionId))
    .execute();
}

/** The connection's groups of each of these accounts. */
export async function groupsOfUsers(db: Db, connectionId: string, userIds: readonly string[]): Promise<(ScimGroupRow & { user_id: string })[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('scim_groups')
    .innerJoin('scim_group_members', 'scim_group_members.group_id', 'scim_groups.id')
    .selectAll('scim_groups')
    .select('scim_group_members.user_id')
    .where('scim_groups.connection_id', '=', connectionId)
    .where('scim_group_members.user_id', 'in', userIds)
    .orderBy('scim_groups.created_at')
    .orderBy('scim_groups.id')
    .execute();
}

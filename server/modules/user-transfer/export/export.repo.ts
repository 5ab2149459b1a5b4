import type { Db } from '../../../db/connect.js';
import { readRows } from '../../../db/read-rows.js';

/** The organizations (slug and role) of a chunk's users: one query per chunk. */
export function organizationsOfUsers(db: Db, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return readRows(
    db,
    db
      .selectFrom('organization_members')
      .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
      .select(['organization_members.user_id', 'organizations.slug', 'organization_members.role'])
      .where('organization_members.user_id', 'in', userIds)
      .orderBy('organizations.slug'),
  );
}

/** The passkeys of a chunk's users (their credential ids and public keys, base64url as stored). */
export function passkeysOfUsers(db: Db, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return readRows(
    db,
    db
      .selectFrom('passkeys')
      .select(['user_id', 'credential_id', 'public_key', 'counter', 'transports', 'name', 'created_at'])
      .where('user_id', 'in', userIds)
      .orderBy('created_at')
      .orderBy('id'),
  );
}

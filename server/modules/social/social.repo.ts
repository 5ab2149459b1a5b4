import type { Insertable } from 'kysely';
import type { SocialProvider } from '../../../shared/schemas/social.js';
import type { Db } from '../../db/connect.js';
import type {
  IdentityLinkRequestsTable,
  ProjectConnectionRow,
  ProjectConnectionsTable,
  SocialSignInRow,
  SocialSignInsTable,
  UserIdentitiesTable,
  UserIdentityRow,
  UserRow,
} from '../../db/schema.js';

// --- Identities

export async function findIdentityWithUser(db: Db, projectId: string | null, provider: SocialProvider, subject: string): Promise<{ identity: UserIdentityRow; user: UserRow } | undefined> {
  const identity = await db
    .selectFrom('user_identities')
    .selectAll()
    .where('project_id', projectId === null ? 'is' : '=', projectId)
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  if (!identity) return undefined;
  const user = await db.selectFrom('users').selectAll().where('id', '=', identity.user_id).executeTakeFirst();
  return user ? { identity, user } : undefined;
}

export async function insertIdentity(db: Db, identity: Insertable<UserIdentitiesTable>): Promise<void> {
  await db.insertInto('user_identities').values(identity).execute();
}

/** Inserts unless the realm already knows this provider's subject; false when it did. */
export async function insertIdentityIfNew(db: Db, identity: Insertable<UserIdentitiesTable>): Promise<boolean> {
  const result = await db.insertInto('user_identities').values(identity).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function touchIdentity(db: Db, id: string, changes: { email: string | null; email_verified: 0 | 1; last_used_at: string }): Promise<void> {
  await db.updateTable('user_identities').set(changes).where('id', '=', id).execute();
}

export async function listIdentities(db: Db, userId: string): Promise<UserIdentityRow[]> {
  return db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function deleteIdentity(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('user_identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

// --- A project's connections

export async function listConnections(db: Db, projectId: string): Promise<ProjectConnectionRow[]> {
  return db.selectFrom('project_connections').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
}

export async function findConnection(db: Db, projectId: string, provider: SocialProvider): Promise<ProjectConnectionRow | undefined> {
  return db.selectFrom('project_connections').selectAll().where('project_id', '=', projectId).where('provider', '=', provider).executeTakeFirst();
}

export async function upsertConnection(db: Db, connection: Insertable<ProjectConnectionsTable>): Promise<void> {
  const { id: _id, project_id: _project, provider: _provider, created_at: _created, ...changes } = connection;
  await db
    .insertInto('project_connections')
    .values(connection)
    .onConflict((oc) => oc.columns(['project_id', 'provider']).doUpdateSet(changes))
    .execute();
}

export async function deleteConnection(db: Db, projectId: string, provider: SocialProvider): Promise<boolean> {
  const result = await db.deleteFrom('project_connections').where('project_id', '=', projectId).where('provider', '=', provider).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// --- Sign-ins waiting for their provider

export async function insertSocialSignIn(db: Db, signIn: Insertable<SocialSignInsTable>): Promise<void> {
  await db.insertInto('social_sign_ins').values(signIn).execute();
}

/** Takes a waiting sign-in by its state, once: the callback that spends it gets the row, any other undefined. */
export async function takeSocialSignIn(db: Db, stateHash: string, now: string): Promise<SocialSignInRow | undefined> {
  const row = await db.selectFrom('social_sign_ins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  if (!row || row.used_at || row.expires_at <= now) return undefined;
  const spent = await db.updateTable('social_sign_ins').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1 ? row : undefined;
}

export async function storeSignInResult(db: Db, id: string, result: { result_code_hash: string; result: string; result_expires_at: string }): Promise<void> {
  await db.updateTable('social_sign_ins').set(result).where('id', '=', id).execute();
}

/** Spends a public API sign-in's one-time code, once and in time, within its project. */
export async function takeSignInResult(db: Db, projectId: string, codeHash: string, now: string): Promise<SocialSignInRow | undefined> {
  const row = await db.selectFrom('social_sign_ins').selectAll().where('result_code_hash', '=', codeHash).where('project_id', '=', projectId).executeTakeFirst();
  if (!row || row.exchanged_at || !row.result_expires_at || row.result_expires_at <= now) return undefined;
  const spent = await db.updateTable('social_sign_ins').set({ exchanged_at: now }).where('id', '=', row.id).where('exchanged_at', 'is', null).executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1 ? row : undefined;
}

/** A realm's sign-ins sent to a provider and not back yet (from one network, when it is named). */
export async function countWaitingSocialSignIns(db: Db, where: { projectId: string | null; network?: string }, now: string) {
  let query = db
    .selectFrom('social_sign_ins')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('first_expires_at')])
    .where('project_id', where.projectId === null ? 'is' : '=', where.projectId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (where.network !== undefined) query = query.where('client_network', '=', where.network);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), firstExpiresAt: row.first_expires_at ?? null };
}

/** Sign-ins whose wait for the provider has ended, and (the public API's) whose result no longer waits for its exchange. */
export async function deleteExpiredSocialSignIns(db: Db, now: string): Promise<number> {
  const result = await db
    .deleteFrom('social_sign_ins')
    .where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('result_expires_at', 'is', null), eb('result_expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredLinkRequestsBefore(db: Db, before: string): Promise<number> {
  const links = await db.deleteFrom('identity_link_requests').where('expires_at', '<', before).executeTakeFirst();
  return Number(links.numDeletedRows);
}

// --- Links proven by mail

export async function insertLinkRequest(db: Db, request: Insertable<IdentityLinkRequestsTable>): Promise<void> {
  await db.insertInto('identity_link_requests').values(request).execute();
}

export async function findLinkRequest(db: Db, tokenHash: string) {
  return db
    .selectFrom('identity_link_requests')
    .innerJoin('users', 'users.id', 'identity_link_requests.user_id')
    .selectAll('identity_link_requests')
    .select('users.project_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function spendLinkRequest(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('identity_link_requests').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

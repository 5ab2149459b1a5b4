import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { SsoConnectionRow, SsoConnectionsTable, SsoDomainRow, SsoDomainsTable } from '../../db/schema.js';

// --- Connections

export async function listConnections(db: Db, projectId: string): Promise<SsoConnectionRow[]> {
  return db.selectFrom('sso_connections').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function findConnection(db: Db, projectId: string, id: string): Promise<SsoConnectionRow | undefined> {
  return db.selectFrom('sso_connections').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** A connection by id alone: the IdP's requests (ACS, metadata, callback) name only the connection. */
export async function findConnectionById(db: Db, id: string): Promise<SsoConnectionRow | undefined> {
  return db.selectFrom('sso_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertConnection(db: Db, row: Insertable<SsoConnectionsTable>): Promise<void> {
  await db.insertInto('sso_connections').values(row).execute();
}

export async function updateConnection(db: Db, id: string, changes: Updateable<SsoConnectionsTable>): Promise<void> {
  await db.updateTable('sso_connections').set(changes).where('id', '=', id).execute();
}

/** Stores a connection's key pair unless it has one already (the first stored wins). */
export async function storeSpKeysIfMissing(db: Db, id: string, keys: { saml_sp_private_key: string; saml_sp_certificate: string }): Promise<void> {
  await db.updateTable('sso_connections').set(keys).where('id', '=', id).where('saml_sp_certificate', 'is', null).execute();
}

export async function deleteConnection(db: Db, projectId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sso_connections').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// --- Domains

export async function listDomains(db: Db, connectionIds: readonly string[]): Promise<SsoDomainRow[]> {
  if (connectionIds.length === 0) return [];
  return db.selectFrom('sso_domains').selectAll().where('connection_id', 'in', connectionIds).orderBy('domain').execute();
}

export async function insertDomain(db: Db, row: Insertable<SsoDomainsTable>): Promise<void> {
  await db.insertInto('sso_domains').values(row).execute();
}

export async function deleteDomains(db: Db, connectionId: string, domains: readonly string[]): Promise<void> {
  if (domains.length === 0) return;
  await db.deleteFrom('sso_domains').where('connection_id', '=', connectionId).where('domain', 'in', domains).execute();
}

/** Whether another connection of the project holds this domain verified. */
export async function domainVerifiedElsewhere(db: Db, projectId: string, domain: string, connectionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sso_domains')
    .select('id')
    .where('project_id', '=', projectId)
    .where('domain', '=', domain)
    .where('verified_at', 'is not', null)
    .where('connection_id', '!=', connectionId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function markDomainVerified(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('sso_domains').set({ verified_at: now }).where('id', '=', id).where('verified_at', 'is', null).execute();
}

// --- Assertions seen

/** Remembers a SAML assertion id until it expires; false when it was seen already (a replay). */
export async function rememberAssertion(db: Db, row: { connection_id: string; assertion_id: string; expires_at: string }): Promise<boolean> {
  const result = await db.insertInto('sso_assertions').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function deleteExpiredAssertions(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('sso_assertions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// --- Accounts' enterprise identities

/** An account signed in through the connection: the first time makes the row, every time moves last_sign_in_at. */
export async function recordSsoIdentity(db: Db, connectionId: string, userId: string, now: string): Promise<void> {
  await db
    .insertInto('sso_identities')
    .values({ connection_id: connectionId, user_id: userId, created_at: now, last_sign_in_at: now })
    .onConflict((oc) => oc.columns(['connection_id', 'user_id']).doUpdateSet({ last_sign_in_at: now }))
    .execute();
}

export interface EnterpriseIdentityRow {
  connection_id: string;
  name: string;
  type: 'saml' | 'oidc';
  last_sign_in_at: string | null;
  scim: boolean;
}

/** The enterprise connections an account belongs to: those it signed in through, and the one whose IdP provisions it (SCIM). */
export async function listEnterpriseIdentitiesOf(db: Db, userId: string): Promise<EnterpriseIdentityRow[]> {
  const [signIns, provisioned] = await Promise.all([
    db
      .selectFrom('sso_identities')
      .innerJoin('sso_connections', 'sso_connections.id', 'sso_identities.connection_id')
      .select(['sso_connections.id', 'sso_connections.name', 'sso_connections.type', 'sso_identities.last_sign_in_at'])
      .where('sso_identities.user_id', '=', userId)
      .orderBy('sso_identities.created_at')
      .execute(),
    db
      .selectFrom('scim_users')
      .innerJoin('sso_connections', 'sso_connections.id', 'scim_users.connection_id')
      .select(['sso_connections.id', 'sso_connections.name', 'sso_connections.type'])
      .where('scim_users.user_id', '=', userId)
      .execute(),
  ]);
  const identities = new Map<string, EnterpriseIdentityRow>();
  for (const row of signIns) identities.set(row.id, { connection_id: row.id, name: row.name, type: row.type as 'saml' | 'oidc', last_sign_in_at: row.last_sign_in_at, scim: false });
  for (const row of provisioned) {
    const known = identities.get(row.id);
    identities.set(row.id, known ? { ...known, scim: true } : { connection_id: row.id, name: row.name, type: row.type as 'saml' | 'oidc', last_sign_in_at: null, scim: true });
  }
  return [...identities.values()];
}

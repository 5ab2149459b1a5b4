import type { Kysely } from 'kysely';

// Frozen once landed.
// - webauthn_challenges, oauth_interactions, social_sign_ins: client_network, the network (an IPv4
//   address or an IPv6 /64) of the request that left the row waiting, so the rows waiting can be
//   counted per network and per project and capped; null for rows made before, and for a passkey
//   registration's or second step's ceremony (those belong to an account). Indexed with expires_at
//   for those counts, and project_id with expires_at for the project's.

const TABLES = ['webauthn_challenges', 'oauth_interactions', 'social_sign_ins'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('client_network', 'text').execute();
    await db.schema.createIndex(`${table}_network_idx`).on(table).columns(['client_network', 'expires_at']).execute();
    await db.schema.createIndex(`${table}_project_idx`).on(table).columns(['project_id', 'expires_at']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_project_idx`).execute();
    await db.schema.dropIndex(`${table}_network_idx`).execute();
    await db.schema.alterTable(table).dropColumn('client_network').execute();
  }
}

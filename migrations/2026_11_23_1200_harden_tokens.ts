import type { Kysely } from 'kysely';

// Frozen once landed.
// - refresh_tokens.used_ip / used_user_agent: the client that spent a token, so that the same client
//   presenting it again within REFRESH_REUSE_INTERVAL (two tabs, a retry) is told apart from a thief.
// - one_time_tokens.password_hash: a verification link carries the password of the sign-up attempt
//   that sent it; verifying sets that password (pre-registration defence).
// - indexes for the retention job's deletes by age.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('used_ip', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('used_user_agent', 'text').execute();
  await db.schema.alterTable('one_time_tokens').addColumn('password_hash', 'text').execute();
  await db.schema.createIndex('login_attempts_created_idx').on('login_attempts').column('created_at').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('sessions_revoked_idx').on('sessions').column('revoked_at').execute();
  await db.schema.createIndex('refresh_tokens_used_idx').on('refresh_tokens').column('used_at').execute();
  await db.schema.createIndex('one_time_tokens_expires_idx').on('one_time_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['one_time_tokens_expires_idx', 'refresh_tokens_used_idx', 'sessions_revoked_idx', 'sessions_expires_idx', 'login_attempts_created_idx']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable('one_time_tokens').dropColumn('password_hash').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('used_user_agent').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('used_ip').execute();
}

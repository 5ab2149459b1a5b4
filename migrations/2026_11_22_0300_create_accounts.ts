import { sql, type Kysely } from 'kysely';

// Frozen once landed: later changes go in a new migration.
// Portable types only (text, integer) so the same file runs on SQLite and PostgreSQL.
// users.project_id is null for platform accounts (developers) and a project id for that project's
// end users: an e-mail is unique within its realm, so one address may hold several separate accounts.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('company_name', 'text')
    .addColumn('website_url', 'text')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_login', 'text')
    .execute();
  await sql`create unique index users_realm_email_unique on users ((coalesce(project_id, '')), email)`.execute(db);
  await db.schema.createIndex('users_project_created_idx').on('users').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_tokens_user_idx').on('one_time_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('last_ip', 'text')
    .addColumn('is_trusted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addUniqueConstraint('devices_user_fingerprint_unique', ['user_id', 'fingerprint'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.references('devices.id').onDelete('set null'))
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_device_idx').on('sessions').column('device_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ip_address', 'text')
    .addColumn('is_vpn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_proxy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('country_code', 'text')
    .addColumn('device_fingerprint', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempts_project_created_idx').on('login_attempts').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('login_attempts_email_idx').on('login_attempts').columns(['email', 'created_at']).execute();
  await db.schema.createIndex('login_attempts_user_idx').on('login_attempts').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_attempts', 'refresh_tokens', 'sessions', 'devices', 'one_time_tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

import type { Kysely } from 'kysely';

// Frozen once landed.
// - project_settings: the rules a project sets for its own end users, one row per project that
//   changed any. A missing row, and every null column, means the platform's rule (PASSWORD_MIN_LENGTH,
//   the common-password check, ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL, no captcha of its own, BLOCK_VPN,
//   unverified end users may sign in, the platform's name in mails), so existing projects behave as before.
//   captcha_secret is sealed with the master key; mail_templates is JSON text ({kind: {subject, text}}).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_settings')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('password_min_length', 'integer')
    .addColumn('password_check_breached', 'integer')
    .addColumn('access_token_ttl_s', 'integer')
    .addColumn('refresh_token_ttl_s', 'integer')
    .addColumn('captcha_provider', 'text')
    .addColumn('captcha_site_key', 'text')
    .addColumn('captcha_secret', 'text')
    .addColumn('vpn_policy', 'text')
    .addColumn('allow_unverified_sign_in', 'integer')
    .addColumn('mail_sender_name', 'text')
    .addColumn('mail_product_name', 'text')
    .addColumn('mail_accent_color', 'text')
    .addColumn('mail_templates', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_settings').execute();
}

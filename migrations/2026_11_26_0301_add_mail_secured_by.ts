import type { Kysely } from 'kysely';

// Frozen once landed.
// - project_settings.mail_secured_by: whether the project's end-user mails end with a small
//   "Secured by AuthPlatform" line; null follows the default (on), 0 turns it off.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_settings').addColumn('mail_secured_by', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_settings').dropColumn('mail_secured_by').execute();
}

import type { Kysely } from 'kysely';

// Frozen once landed.
// - users.locale: the language an end user chose (or signed up in) for the hosted pages and the mails
//   they get, a tag of shared/i18n/locales.ts ('de'); null: none saved, the request's language applies.
// - project_settings.string_overrides: a project's own wording per language, JSON text
//   { [locale]: { "hosted:key" | "mail:key": text } } over the catalogues; '{}' for none.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
  await db.schema
    .alterTable('project_settings')
    .addColumn('string_overrides', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_settings').dropColumn('string_overrides').execute();
  await db.schema.alterTable('users').dropColumn('locale').execute();
}

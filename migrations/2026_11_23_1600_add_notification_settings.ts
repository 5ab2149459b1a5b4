import type { Kysely } from 'kysely';

// Frozen once landed.
// - users.email_notifications: the master switch; off, no optional mail is sent (the mails the
//   account's security needs always go). notify_security_alerts: new-device sign-ins and two factors
//   turned on. notify_product_updates / notify_marketing: stored for mails not sent yet.
//   Booleans are 0/1 integers, as everywhere.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_notifications', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('users').addColumn('notify_security_alerts', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('users').addColumn('notify_product_updates', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('notify_marketing', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['notify_marketing', 'notify_product_updates', 'notify_security_alerts', 'email_notifications']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}

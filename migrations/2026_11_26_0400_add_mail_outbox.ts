import type { Kysely } from 'kysely';

// Frozen once landed.
// - mail_outbox: every mail, written in the transaction of the change that causes it and delivered by
//   the mail dispatcher (server/mail/dispatcher.ts). `body` is the message (text, HTML, sender name)
//   sealed with the master key, since its links carry tokens; null once dropped by retention.
//   `claimed_until` is the sending instance's lease; `last_error_category` a category, never the SMTP
//   server's own words (they may quote addresses). Deleting an account deletes its mails (cascade):
//   what was sent to it is not kept past it.
// - users.mail_bounced_at: when the SMTP server last refused the account's address for good (5xx);
//   cleared by the next mail delivered to it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_error_category', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('mail_outbox_project_idx').on('mail_outbox').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('mail_outbox_user_idx').on('mail_outbox').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('mail_bounced_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('mail_bounced_at').execute();
  await db.schema.dropTable('mail_outbox').execute();
}

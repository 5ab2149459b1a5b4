import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connect.js';
import type { MailOutboxTable } from '../db/schema.js';

export async function insertMail(db: Db, row: Insertable<MailOutboxTable>): Promise<void> {
  await db.insertInto('mail_outbox').values(row).execute();
}

export async function findMail(db: Db, id: string) {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records an attempt of a mail still pending (a row a retention sweep or a resend raced past is left alone). */
export async function recordMailAttempt(db: Db, id: string, outcome: Updateable<MailOutboxTable>): Promise<void> {
  await db.updateTable('mail_outbox').set(outcome).where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function setMailBounced(db: Db, userId: string, at: string | null): Promise<void> {
  const update = db.updateTable('users').set({ mail_bounced_at: at }).where('id', '=', userId);
  await (at === null ? update.where('mail_bounced_at', 'is not', null) : update).execute();
}

export async function countPendingMails(db: Db): Promise<number> {
  const row = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Retention: sent mails queued before `before` go; failed ones keep their row (the admin list) without the body. */
export async function sweepMails(db: Db, before: string): Promise<{ deleted: number; dropped: number }> {
  const deleted = await db.deleteFrom('mail_outbox').where('status', '=', 'sent').where('created_at', '<', before).executeTakeFirst();
  const dropped = await db
    .updateTable('mail_outbox')
    .set({ body: null })
    .where('status', '=', 'failed')
    .where('created_at', '<', before)
    .where('body', 'is not', null)
    .executeTakeFirst();
  return { deleted: Number(deleted.numDeletedRows), dropped: Number(dropped.numUpdatedRows) };
}

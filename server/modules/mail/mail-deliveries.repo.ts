import type { MailDeliveryQuery } from '../../../shared/schemas/mail.js';
import type { Db } from '../../db/connect.js';

/** Newest first; `projectId` undefined lists every mail (the admin area), else one project's end users'. */
export async function listMails(db: Db, projectId: string | undefined, q: MailDeliveryQuery) {
  let matching = db.selectFrom('mail_outbox');
  if (projectId !== undefined) matching = matching.where('project_id', '=', projectId);
  if (q.status) matching = matching.where('status', '=', q.status);
  const [rows, total] = await Promise.all([
    matching.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.per_page).offset((q.page - 1) * q.per_page).execute(),
    matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The newest mails, bodies kept (the local demo's Mail page). */
export async function listRecentMails(db: Db, limit: number) {
  return db.selectFrom('mail_outbox').selectAll().where('body', 'is not', null).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

import type { MailDelivery, MailDeliveryError, MailDeliveryQuery } from '../../../shared/schemas/mail.js';
import type { Deps } from '../../deps.js';
import type { MailOutboxTable } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { requeueCopy } from '../../mail/outbox.js';
import { findMail } from '../../mail/outbox.repo.js';
import type { Selectable } from 'kysely';
import { recordChange, type AuditActor } from '../changes/record-change.js';
import { normalizeEmail } from '../../lib/email.js';
import { listMails } from './mail-deliveries.repo.js';

export const MAIL_MESSAGES = {
  notFound: 'Mail not found',
  stillPending: 'This mail is still being sent',
  bodyDropped: 'This mail is older than MAIL_RETENTION_DAYS: its body was dropped, so it cannot be sent again',
};

export function toMailDelivery(row: Selectable<MailOutboxTable>): MailDelivery {
  return {
    id: row.id,
    project_id: row.project_id,
    user_id: row.user_id,
    recipient: row.recipient,
    kind: row.kind,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error_category: row.last_error_category as MailDeliveryError | null,
    next_attempt_at: row.next_attempt_at,
    last_attempt_at: row.last_attempt_at,
    sent_at: row.sent_at,
    created_at: row.created_at,
    resendable: row.body !== null && row.status !== 'pending',
  };
}

/** One page of the mails, newest first: every one (`projectId` undefined, the admin area) or one project's end users'. */
export async function getMailDeliveries(deps: Pick<Deps, 'db'>, projectId: string | undefined, q: MailDeliveryQuery) {
  const { rows, total } = await listMails(deps.db, projectId, q);
  return { deliveries: rows.map(toMailDelivery), total, page: q.page, per_page: q.per_page };
}

/**
 * Sends a sent or failed mail again: a copy is queued (the original keeps its record), audited as
 * `mail.resent`. Within `projectId` when given (a project's team sees its own only, 404 otherwise).
 * The recipient's cap counts resends too (429 past it), so a resend button cannot flood an address.
 * The copy carries the original's links as they were: a spent or expired one stays so.
 */
export async function resendMail(deps: Deps, actor: AuditActor, projectId: string | undefined, id: string): Promise<MailDelivery> {
  const row = await findMail(deps.db, id);
  if (!row || (projectId !== undefined && row.project_id !== projectId)) throw new AppError('NOT_FOUND', MAIL_MESSAGES.notFound);
  if (row.status === 'pending') throw new AppError('CONFLICT', MAIL_MESSAGES.stillPending);
  if (row.body === null) throw new AppError('CONFLICT', MAIL_MESSAGES.bodyDropped);
  await deps.limiters.mailPerRecipient.consume(`resend:${normalizeEmail(row.recipient)}`);
  const copy = await withTransaction(deps, async (tx) => {
    const copyId = await requeueCopy(tx, row);
    await recordChange(tx, actor, { projectId: row.project_id, action: 'mail.resent', target: { type: 'mail', id: row.id, label: row.recipient }, after: { kind: row.kind, copy: copyId } });
    return (await findMail(tx.db, copyId))!;
  });
  return toMailDelivery(copy);
}

import type { Deps } from '../deps.js';
import type { MailOutboxTable } from '../db/schema.js';
import { afterCommit } from '../db/transaction.js';
import { isoNow } from '../lib/clock.js';
import { newSequentialId } from '../lib/crypto.js';
import type { MailMessage } from './mailer.js';
import { insertMail } from './outbox.repo.js';

/** What the sealed body of a row holds: everything to send but the recipient and subject. */
type SealedBody = Pick<MailMessage, 'text' | 'html' | 'fromName'>;

export interface QueuedMail {
  /** What the mail is: the capped kind (verification, password_reset…) or the template's name. */
  kind: string;
  message: MailMessage;
  /** The recipient's realm: null for the platform's own mail, the project for its end users'. */
  projectId: string | null;
  /** The recipient's account, when there is one (bounces are shown on it). */
  userId: string | null;
}

export type OutboxDeps = Pick<Deps, 'db' | 'clock' | 'secretBox' | 'mailDispatcher'>;

/**
 * Writes a mail to the outbox. Pass the unit of work's deps (`tx`): the mail then commits with the
 * change that caused it, or not at all, and the dispatcher sends it at least once, even after a
 * crash. The body is sealed with the master key: its links carry tokens. Once committed, this
 * process's dispatcher is nudged, so the mail leaves at once rather than at the next poll.
 */
export async function queueMail(deps: OutboxDeps, mail: QueuedMail): Promise<string> {
  const { to, subject, text, html, fromName } = mail.message;
  const body: SealedBody = { text, html, ...(fromName && { fromName }) };
  const now = isoNow(deps.clock);
  const id = newSequentialId();
  await insertMail(deps.db, {
    id,
    project_id: mail.projectId,
    user_id: mail.userId,
    recipient: to,
    kind: mail.kind,
    subject,
    body: deps.secretBox.seal(JSON.stringify(body)),
    status: 'pending',
    next_attempt_at: now,
    created_at: now,
  });
  afterCommit(deps.db, () => deps.mailDispatcher.nudge());
  return id;
}

/** A new pending row with the message of `row` (already sealed), in the unit of work of `deps`: a resend. */
export async function requeueCopy(deps: OutboxDeps, row: Pick<MailOutboxTable, 'project_id' | 'user_id' | 'recipient' | 'kind' | 'subject' | 'body'>): Promise<string> {
  const now = isoNow(deps.clock);
  const id = newSequentialId();
  const { project_id, user_id, recipient, kind, subject, body } = row;
  await insertMail(deps.db, { id, project_id, user_id, recipient, kind, subject, body, status: 'pending', next_attempt_at: now, created_at: now });
  afterCommit(deps.db, () => deps.mailDispatcher.nudge());
  return id;
}

/** The message a row holds; throws when its body was dropped or cannot be opened. */
export function openMail(deps: Pick<Deps, 'secretBox'>, row: { recipient: string; subject: string; body: string | null }): MailMessage {
  if (row.body === null) throw new Error('the mail body was dropped');
  const body = JSON.parse(deps.secretBox.open(row.body)) as SealedBody;
  return { to: row.recipient, subject: row.subject, text: body.text, html: body.html, ...(body.fromName && { fromName: body.fromName }) };
}

import type { Db } from '../../server/db/connect.js';
import { until } from './until.js';

/**
 * Resolves once the mail outbox holds nothing due: every mail queued so far (mails commit with the change
 * that caused them, so before its answer) was sent, and is then in the SMTP catcher, or failed. A test
 * proves that a mail was *not* sent by waiting for this, instead of sleeping "long enough". Pending rows
 * whose retry is scheduled later than `now` are not due and do not count.
 */
export async function mailOutboxDrained(db: Db, now: () => Date, ms = 10_000): Promise<void> {
  await until(async () => {
    const due = await db
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now().toISOString())
      .limit(1)
      .executeTakeFirst();
    return due === undefined;
  }, 'the mail outbox to hold no mail due', ms);
}

import type { MailDeliveryError } from '../../shared/schemas/mail.js';
import type { Deps } from '../deps.js';
import { claimDueRows, nextAttemptAt } from '../db/outbox-lease.js';
import { inTransaction } from '../db/transaction.js';
import { mailFailureOf } from './delivery-error.js';
import { DRAIN_TIMEOUT_MS } from './mailer.js';
import { openMail } from './outbox.js';
import { findMail, recordMailAttempt, setMailBounced } from './outbox.repo.js';

const BATCH = 20;

export interface MailDispatcher {
  /** Claims the due mails and sends them; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Looks for due mails now (after this process committed one); nothing unless started. */
  nudge(): void;
  /**
   * Resolves once no pass is running: every mail claimed until then has been attempted and its outcome
   * recorded. For tests that prove a mail was not sent (twice) without sleeping.
   */
  idle(): Promise<void>;
  /** Looks now, then every `pollMs` and after each nudge, until closed. */
  start(pollMs: number): void;
  /**
   * Stops polling and waits for the sends in flight (at most DRAIN_TIMEOUT_MS: one still going then is
   * sent again by whoever claims it once its lease has passed).
   */
  close(): Promise<void>;
}

/**
 * Delivers the mail outbox through the mailer (SMTP, or .eml files without SMTP_URL). Each due mail is
 * claimed with a lease (MAIL_LEASE_S), so several instances never send one at once; a failed attempt
 * is retried on the outbox schedule (about 28 hours) and then marked failed. A recipient the SMTP
 * server refuses for good (5xx) fails at once, and marks the account bounced until a mail reaches it.
 * Delivery is at least once: a crash between the send and its record sends again once the lease has
 * passed.
 */
export function createMailDispatcher(
  deps: Pick<Deps, 'db' | 'dialect' | 'clock' | 'config' | 'secretBox' | 'logger' | 'metrics' | 'mailer'>,
  options: { drainTimeoutMs?: number } = {},
): MailDispatcher {
  const leaseMs = deps.config.mailLeaseS * 1000;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let running: Promise<void> | null = null;
  let again = false;

  const attempt = async (id: string): Promise<void> => {
    const mail = await findMail(deps.db, id);
    if (!mail || mail.status !== 'pending') return;
    const attempts = mail.attempts + 1;
    const at = deps.clock.now();
    let error: MailDeliveryError | null = null;
    let giveUp = false;
    let bounced = false;
    let message;
    try {
      message = openMail(deps, mail);
    } catch (failure) {
      deps.logger.error({ err: failure, mail: id }, 'queued mail could not be read');
      error = 'unreadable';
      giveUp = true;
    }
    if (message) {
      try {
        await deps.mailer.send(message);
      } catch (failure) {
        const outcome = mailFailureOf(failure);
        ({ category: error, permanent: giveUp, bounced } = outcome);
        const smtp = failure as { code?: string; responseCode?: number };
        // Not the error's text: SMTP answers quote the recipient's address.
        deps.logger.warn({ mail: id, kind: mail.kind, code: smtp.code, responseCode: smtp.responseCode, category: error }, 'mail delivery failed');
      }
    }
    const next = error === null ? null : giveUp ? null : nextAttemptAt(at, attempts);
    const status = error === null ? 'sent' : next === null ? 'failed' : 'pending';
    deps.metrics.countMailDelivery(status === 'pending' ? 'retry' : status);
    // The attempt and what it says of the account's address commit together: a failed mail is never seen
    // (or left, by a crash between two writes) without its bounce, nor a sent one with a stale bounce.
    await inTransaction(deps.db, async (trx) => {
      await recordMailAttempt(trx, id, {
        status,
        attempts,
        next_attempt_at: next,
        claimed_until: null,
        last_attempt_at: at.toISOString(),
        last_error_category: error,
        sent_at: status === 'sent' ? at.toISOString() : null,
      });
      if (mail.user_id && status === 'sent') await setMailBounced(trx, mail.user_id, null);
      if (mail.user_id && bounced) await setMailBounced(trx, mail.user_id, at.toISOString());
    });
  };

  const runOnce = async (): Promise<number> => {
    const now = deps.clock.now();
    const claimed = await claimDueRows(deps.db, deps.dialect, 'mail_outbox', now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), BATCH);
    await Promise.all(claimed.map((mail) => attempt(mail.id).catch((error: unknown) => deps.logger.error({ err: error, mail: mail.id }, 'mail delivery could not be recorded'))));
    return claimed.length;
  };

  // One run at a time; a nudge during a run makes another, and a full batch goes on to the next.
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        if ((await runOnce()) === BATCH) again = true;
      } while (again && started);
    })()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'mail dispatch failed'))
      .finally(() => (running = null));
  };

  return {
    runOnce,
    nudge() {
      if (started) kick();
    },
    async idle() {
      while (running) await running;
    },
    start(pollMs) {
      started = true;
      timer = setInterval(kick, pollMs);
      timer.unref();
      kick();
    },
    async close() {
      started = false;
      if (timer) clearInterval(timer);
      if (!running) return;
      let wait: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (wait = setTimeout(() => resolve('timeout'), options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS)));
      if ((await Promise.race([running, timeout])) === 'timeout') deps.logger.warn('closing with a mail send still in flight; it is sent again once its lease has passed');
      clearTimeout(wait);
    },
  };
}

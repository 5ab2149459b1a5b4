import { Webhook } from 'standardwebhooks';
import type { WebhookDeliveryError } from '../../../shared/schemas/webhooks.js';
import type { Deps } from '../../deps.js';
import { isPlainlyPrivate } from '../ip-intel/public-fetch.js';
import { deliveryErrorOf } from './delivery-error.js';
import { readBodyStart, storedHeaders } from './delivery-record.js';
import { claimDueRows, RETRY_DELAYS_S } from '../../db/outbox-lease.js';
import { findDeliveryContext, recordAttempt } from './webhooks.repo.js';
import { receiverFetch } from './receiver-policy.js';

export { RETRY_DELAYS_S };
/** How long an attempt waits for the endpoint's answer (the spec's 10 s). */
export const DELIVERY_TIMEOUT_MS = 10_000;
const BATCH = 20;

export interface WebhookDispatcher {
  /** How long an attempt waits for an answer (DELIVERY_TIMEOUT_MS unless the dispatcher was made with another). */
  readonly timeoutMs: number;
  /** Claims the due deliveries and sends them; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Polls every `pollMs` until closed. */
  start(pollMs: number): void;
  /** Stops polling and waits for the attempts in flight. */
  close(): Promise<void>;
}

/**
 * Delivers the outbox: each due delivery is claimed (a lease, so several instances never send one
 * twice at once), signed by the Standard Webhooks scheme with its endpoint's secret, and POSTed with a
 * 10 s timeout and no redirects, to the addresses receiver-policy.ts allows (checked after DNS). A 2xx answer
 * is success; anything else (a timeout too) is retried on RETRY_DELAYS_S and then marked failed. The
 * delivery records a category of the failure (delivery-error.ts); the resolver's or socket's own text
 * would map the server's network for whoever chose the URL, so it goes to the server's log only.
 * The last attempt's request headers and its answer's headers and first 4 KB are kept for the team to
 * read (delivery-record.ts); the signing secret is not among them.
 * Delivery is at least once: a crash between the send and its record sends again when the lease
 * (WEBHOOK_LEASE_S, 60 s) has passed. `options.timeoutMs` is for tests, which cannot wait 10 s.
 */
export function createWebhookDispatcher(
  deps: Pick<Deps, 'db' | 'dialect' | 'clock' | 'config' | 'secretBox' | 'logger' | 'metrics'>,
  options: { timeoutMs?: number } = {},
): WebhookDispatcher {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = deps.config.webhookLeaseS * 1000;
  const fetchFor = receiverFetch(deps);
  // Showing an answer's body turns a request to a private address into a read of it: the team sees
  // answers from public addresses, and from private ones only where the operator allows sending there
  // (or, on a server on loopback, where a development project's receiver on loopback was allowed).
  const answerMayBeShown = (url: string) => deps.config.webhooksAllowPrivate || deps.config.appOnLoopback || !isPlainlyPrivate(new URL(url));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  const attempt = async (deliveryId: string): Promise<void> => {
    const delivery = await findDeliveryContext(deps.db, deliveryId);
    if (!delivery) return;
    const attempts = delivery.attempts + 1;
    const at = deps.clock.now();
    let status: number | null = null;
    let error: WebhookDeliveryError | null = null;
    // What the team sees of this attempt; each attempt replaces the last one's.
    let sent: Record<string, string> | null = null;
    let answer: { headers: Headers; body: { text: string; truncated: boolean } } | null = null;
    if (delivery.enabled !== 1) {
      error = 'endpoint_disabled';
    } else {
      try {
        const signature = new Webhook(deps.secretBox.open(delivery.secret)).sign(delivery.event_id, at, delivery.payload);
        sent = {
          'content-type': 'application/json',
          'user-agent': 'AuthPlatform-Webhooks/1',
          'webhook-id': delivery.event_id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        };
        const send = await fetchFor(deliveryId);
        const response = await send(delivery.url, { method: 'POST', headers: sent, body: delivery.payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        status = response.status;
        if (answerMayBeShown(delivery.url)) answer = { headers: response.headers, body: await readBodyStart(response) };
        else await response.body?.cancel().catch(() => undefined);
        if (status < 200 || status >= 300) error = 'http_status';
      } catch (failure) {
        error = deliveryErrorOf(failure);
        // The host only: receivers' URLs often carry their own secret in the path.
        deps.logger.warn({ err: failure, delivery: deliveryId, host: new URL(delivery.url).host, category: error }, 'webhook delivery failed');
      }
    }
    const done = error === null;
    const giveUp = !done && (delivery.enabled !== 1 || attempts > RETRY_DELAYS_S.length);
    deps.metrics.countWebhookDelivery(done ? 'succeeded' : giveUp ? 'failed' : 'retrying');
    await recordAttempt(deps.db, deliveryId, {
      attempts,
      status: done ? 'succeeded' : giveUp ? 'failed' : 'pending',
      next_attempt_at: done || giveUp ? null : new Date(at.getTime() + RETRY_DELAYS_S[attempts - 1]! * 1000).toISOString(),
      claimed_until: null,
      last_attempt_at: at.toISOString(),
      last_status_code: status,
      last_error: error,
      request_headers: sent && JSON.stringify(storedHeaders(sent)),
      response_headers: answer && JSON.stringify(storedHeaders(answer.headers)),
      response_body: answer && answer.body.text,
      response_body_truncated: answer && (answer.body.truncated ? 1 : 0),
    });
  };

  const runOnce = async (): Promise<number> => {
    const now = deps.clock.now();
    const claimed = await claimDueRows(deps.db, deps.dialect, 'webhook_deliveries', now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), BATCH);
    await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery.id).catch((error: unknown) => deps.logger.error({ err: error, delivery: delivery.id }, 'webhook delivery could not be recorded')),
      ),
    );
    return claimed.length;
  };

  return {
    timeoutMs,
    runOnce,
    start(pollMs) {
      timer = setInterval(() => {
        if (running) return;
        running = runOnce()
          .catch((error: unknown) => {
            deps.logger.error({ err: error }, 'webhook dispatch failed');
            return 0;
          })
          .finally(() => (running = null));
      }, pollMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';

/** While the database is away every request fails the same way: one line per this long tells the story. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

const outages = new WeakMap<FastifyBaseLogger, { loggedAt: number; since: number }>();

/**
 * Logs a request answered 503 because the database could not serve it: the first at once, then at
 * most one line per OUTAGE_LOG_INTERVAL_MS with how many more there were, rather than one per request.
 */
export function logUnavailable(logger: FastifyBaseLogger, error: unknown): void {
  const now = Date.now();
  const outage = outages.get(logger);
  if (outage && now - outage.loggedAt < OUTAGE_LOG_INTERVAL_MS) {
    outage.since += 1;
    return;
  }
  logger.warn({ err: error, ...(outage && { more: outage.since }) }, 'database unavailable: answering 503');
  outages.set(logger, { loggedAt: now, since: 0 });
}

import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../db/connect.js';
import { registerRequestMetrics, RequestCounts } from './request-metrics.js';

/** What the services count, through Deps; nothing when metrics are off. */
export interface ServiceMetrics {
  /** One sign-in attempt: `success`, or the failure reason it was recorded with. */
  countLogin(realm: 'platform' | 'project', outcome: string): void;
  /** One webhook delivery attempt: `succeeded`, `retrying` or `failed` (given up). */
  countWebhookDelivery(outcome: 'succeeded' | 'retrying' | 'failed'): void;
  /** One mail delivery attempt: `sent`, `retry` (another attempt is due) or `failed` (given up, or refused for good). */
  countMailDelivery(outcome: 'sent' | 'retry' | 'failed'): void;
}

export const NO_METRICS: ServiceMetrics = { countLogin: () => {}, countWebhookDelivery: () => {}, countMailDelivery: () => {} };

export interface AppMetrics extends ServiceMetrics {
  registry: Registry;
  /** `route` is the route's pattern (`/api/v1/projects/:id`), never the path asked for. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export interface MetricSources {
  hashing: () => { running: number; waiting: number };
  /** null on SQLite, which has no pool. */
  pool: (() => PoolStats) | null;
  /** Mails in the outbox not yet sent nor given up (read from the database on scrape). */
  mailPending: () => Promise<number>;
}

/**
 * One registry per app (not prom-client's global one), so several apps in one process (the tests)
 * each count their own. Gauges of things that already know their value are read on scrape.
 */
export function createMetrics(sources: MetricSources): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new RequestCounts();
  registerRequestMetrics(registry, requests);
  const logins = new Counter({ name: 'logins_total', help: 'Sign-in attempts by realm and outcome (success or the failure reason)', labelNames: ['realm', 'outcome'], registers: [registry] });
  const webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed: given up)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const mailDeliveries = new Counter({
    name: 'mail_deliveries_total',
    help: 'Mail delivery attempts by outcome (sent, retry: another attempt is due, failed: given up or refused for good)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'mail_outbox_pending',
    help: 'Mails in the outbox waiting to be sent (due or retrying), across every instance',
    registers: [registry],
    async collect() {
      // A database that is down must not take /metrics with it: the last value stays.
      const pending = await sources.mailPending().catch(() => null);
      if (pending !== null) this.set(pending);
    },
  });
  new Gauge({
    name: 'password_hashing_queue',
    help: 'bcrypt hashes running (at most one per core) and waiting for a turn',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { running, waiting } = sources.hashing();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  const pool = sources.pool;
  if (pool) {
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool()));
        },
      });
    poolGauge('db_pool_connections', 'PostgreSQL connections open in the pool, idle or in use', (stats) => stats.total);
    poolGauge('db_pool_idle_connections', 'PostgreSQL connections open and idle', (stats) => stats.idle);
    poolGauge('db_pool_waiting_queries', 'Queries waiting for a PostgreSQL connection', (stats) => stats.waiting);
  }

  return {
    registry,
    observeRequest: (method, route, status, seconds) => requests.record(method, route, status, seconds),
    countLogin(realm, outcome) {
      logins.inc({ realm, outcome });
    },
    countWebhookDelivery(outcome) {
      webhookDeliveries.inc({ outcome });
    },
    countMailDelivery(outcome) {
      mailDeliveries.inc({ outcome });
    },
  };
}

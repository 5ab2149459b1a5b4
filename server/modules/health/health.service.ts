import type { Deps } from '../../deps.js';
import { pingDatabase } from '../../db/connect.js';
import { pendingMigrations } from '../../db/migrate.js';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unavailable';
  version: string;
  uptime_s: number;
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  database: 'ok' | 'unavailable';
  /** `unknown` while the database does not answer. */
  migrations: 'ok' | 'pending' | 'unknown';
  pending_migrations: string[];
}

/** A liveness probe gives up after about a second: /health says the database is away sooner than that. */
export const HEALTH_DATABASE_WAIT_MS = 500;

type HealthDeps = Pick<Deps, 'db' | 'logger' | 'clock' | 'version' | 'startedAt'>;

/** One round trip within `waitMs`: a database that does not answer holds nothing up past it. */
async function databaseAnswers(deps: HealthDeps, what: string, waitMs?: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ping = pingDatabase(deps.db).then(() => true);
  const late = waitMs === undefined ? [] : [new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${waitMs} ms`)), waitMs)))];
  try {
    return await Promise.race([ping, ...late]);
  } catch (error) {
    ping.catch(() => {});
    deps.logger.error({ err: error }, `${what}: database unavailable`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness: this process answers. It says whether the database answers too, but never fails for it:
 * an orchestrator restarting every instance because the database is away (a restart, a failover)
 * would only add an outage of the application to the database's. Readiness is /ready.
 */
export async function checkHealth(deps: HealthDeps): Promise<Health> {
  const database = (await databaseAnswers(deps, 'health check', HEALTH_DATABASE_WAIT_MS)) ? 'ok' : 'unavailable';
  return {
    status: database === 'ok' ? 'ok' : 'degraded',
    database,
    version: deps.version,
    uptime_s: Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000),
  };
}

/** Readiness: whether this instance can serve requests now, and if not, why (the database, or migrations not run yet). */
export async function checkReadiness(deps: HealthDeps): Promise<Readiness> {
  if (!(await databaseAnswers(deps, 'readiness check'))) return { status: 'not_ready', database: 'unavailable', migrations: 'unknown', pending_migrations: [] };
  let pending: string[];
  try {
    pending = await pendingMigrations(deps.db);
  } catch (error) {
    deps.logger.error({ err: error }, 'readiness check: database unavailable');
    return { status: 'not_ready', database: 'unavailable', migrations: 'unknown', pending_migrations: [] };
  }
  return pending.length > 0
    ? { status: 'not_ready', database: 'ok', migrations: 'pending', pending_migrations: pending }
    : { status: 'ready', database: 'ok', migrations: 'ok', pending_migrations: [] };
}

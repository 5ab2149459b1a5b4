import type { Deps } from '../../deps.js';
import { pingDatabase } from '../../db/connect.js';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unavailable';
  version: string;
  uptime_s: number;
}

export async function checkHealth(deps: Pick<Deps, 'db' | 'logger' | 'clock' | 'version' | 'startedAt'>): Promise<Health> {
  let database: Health['database'] = 'ok';
  try {
    await pingDatabase(deps.db);
  } catch (error) {
    deps.logger.error({ err: error }, 'health check: database unavailable');
    database = 'unavailable';
  }
  return {
    status: database === 'ok' ? 'ok' : 'degraded',
    database,
    version: deps.version,
    uptime_s: Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000),
  };
}

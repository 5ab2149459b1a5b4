import { sql } from 'kysely';
import type { Deps } from '../../deps.js';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unavailable';
  version: string;
  uptime_s: number;
}

export async function checkHealth(deps: Deps, version: string, startedAt: Date): Promise<Health> {
  let database: Health['database'] = 'ok';
  try {
    await sql`select 1`.execute(deps.db);
  } catch (error) {
    deps.logger.error({ err: error }, 'health check: database unavailable');
    database = 'unavailable';
  }
  return {
    status: database === 'ok' ? 'ok' : 'degraded',
    database,
    version,
    uptime_s: Math.floor((deps.clock.now().getTime() - startedAt.getTime()) / 1000),
  };
}

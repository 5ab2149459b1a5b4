import type { Db } from '../../db/connect.js';
import { prepareStatement } from '../../db/prepared-statement.js';
import type { PreparedUnit } from '../../db/prepared-transaction.js';

export type DailyCounter = 'signups' | 'logins' | 'failed_logins' | 'refreshes' | 'api_requests';

/** One row per project and UTC day, incremented in place (an upsert, no event log to scan later). */
export async function bumpDailyCounter(db: Db, projectId: string, day: string, counter: DailyCounter, by = 1): Promise<void> {
  await db
    .insertInto('project_daily_stats')
    .values({ project_id: projectId, day, signups: 0, logins: 0, failed_logins: 0, refreshes: 0, api_requests: 0, [counter]: by })
    .onConflict((oc) => oc.columns(['project_id', 'day']).doUpdateSet((eb) => ({ [counter]: eb(`project_daily_stats.${counter}`, '+', by) })))
    .execute();
}

const countRefresh = prepareStatement((db: Db, projectId: string, day: string) =>
  db
    .insertInto('project_daily_stats')
    .values({ project_id: projectId, day, signups: 0, logins: 0, failed_logins: 0, refreshes: 1, api_requests: 0 })
    .onConflict((oc) => oc.columns(['project_id', 'day']).doUpdateSet((eb) => ({ refreshes: eb('project_daily_stats.refreshes', '+', 1) }))),
);

/** bumpDailyCounter(…, 'refreshes') as a prepared statement, for the refresh's one transaction. */
export async function bumpRefreshes(unit: PreparedUnit, projectId: string, day: string): Promise<void> {
  await unit.run(countRefresh, projectId, day);
}

export async function markUserActive(db: Db, projectId: string, day: string, userId: string): Promise<void> {
  await db.insertInto('project_active_users').values({ project_id: projectId, day, user_id: userId }).onConflict((oc) => oc.doNothing()).execute();
}

export async function bumpApiKeyUsage(db: Db, apiKeyId: string, day: string, by = 1): Promise<void> {
  await db
    .insertInto('api_key_daily_usage')
    .values({ api_key_id: apiKeyId, day, requests: by })
    .onConflict((oc) => oc.columns(['api_key_id', 'day']).doUpdateSet((eb) => ({ requests: eb('api_key_daily_usage.requests', '+', by) })))
    .execute();
}

import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { Realm } from '../realms/realm.js';

type Counter = 'signups' | 'logins' | 'failed_logins' | 'refreshes' | 'api_requests';

/**
 * Analytics events, rolled up as they happen into one row per project and UTC day (an upsert,
 * no event log to scan later). Platform accounts are not a project and count nothing here.
 */
export interface Events {
  signup(realm: Realm): Promise<void>;
  loginSucceeded(realm: Realm, userId: string): Promise<void>;
  loginFailed(realm: Realm): Promise<void>;
  refreshed(realm: Realm): Promise<void>;
  apiRequest(projectId: string, apiKeyId: string): Promise<void>;
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function createEvents(db: Db, clock: Clock): Events {
  const bump = async (projectId: string, counter: Counter) => {
    await db
      .insertInto('project_daily_stats')
      .values({ project_id: projectId, day: utcDay(clock.now()), signups: 0, logins: 0, failed_logins: 0, refreshes: 0, api_requests: 0, [counter]: 1 })
      .onConflict((oc) => oc.columns(['project_id', 'day']).doUpdateSet((eb) => ({ [counter]: eb(`project_daily_stats.${counter}`, '+', 1) })))
      .execute();
  };
  return {
    async signup(realm) {
      if (realm.projectId) await bump(realm.projectId, 'signups');
    },
    async loginSucceeded(realm, userId) {
      if (!realm.projectId) return;
      await bump(realm.projectId, 'logins');
      await db
        .insertInto('project_active_users')
        .values({ project_id: realm.projectId, day: utcDay(clock.now()), user_id: userId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async loginFailed(realm) {
      if (realm.projectId) await bump(realm.projectId, 'failed_logins');
    },
    async refreshed(realm) {
      if (realm.projectId) await bump(realm.projectId, 'refreshes');
    },
    async apiRequest(projectId, apiKeyId) {
      const day = utcDay(clock.now());
      await bump(projectId, 'api_requests');
      await db
        .insertInto('api_key_daily_usage')
        .values({ api_key_id: apiKeyId, day, requests: 1 })
        .onConflict((oc) => oc.columns(['api_key_id', 'day']).doUpdateSet((eb) => ({ requests: eb('api_key_daily_usage.requests', '+', 1) })))
        .execute();
    },
  };
}

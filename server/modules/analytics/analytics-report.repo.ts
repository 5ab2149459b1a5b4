import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/** A period as the tables store it: UTC days (`2026-11-24`) and ISO instants, `to` exclusive. */
export interface StoredPeriod {
  fromDay: string;
  toDay: string;
  /** The first instant of `fromDay`. */
  fromInstant: string;
  /** The first instant after `toDay`. */
  untilInstant: string;
}

/** The rolled-up counters and active users per day of the period (days with nothing have no row). */
export async function dailyStats(db: Db, projectId: string, period: StoredPeriod) {
  const [days, active] = await Promise.all([
    db
      .selectFrom('project_daily_stats')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('day', '>=', period.fromDay)
      .where('day', '<=', period.toDay)
      .orderBy('day')
      .execute(),
    db
      .selectFrom('project_active_users')
      .select(['day', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .where('day', '>=', period.fromDay)
      .where('day', '<=', period.toDay)
      .groupBy('day')
      .execute(),
  ]);
  return { days, active };
}

export async function countActiveUsersSince(db: Db, projectId: string, fromDay: string): Promise<number> {
  const row = await db
    .selectFrom('project_active_users')
    .select((eb) => eb.fn.count<number>('user_id').distinct().as('n'))
    .where('project_id', '=', projectId)
    .where('day', '>=', fromDay)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The period's attempts of one project (the (project_id, created_at) index finds them). */
const attemptsIn = (db: Db, projectId: string, period: StoredPeriod) =>
  db
    .selectFrom('login_attempts')
    .where('project_id', '=', projectId)
    .where('created_at', '>=', period.fromInstant)
    .where('created_at', '<', period.untilInstant);

// PostgreSQL answers sums as text; the service reads every count with Number().
const succeeded = sql<number | string>`sum(case when success = 1 then 1 else 0 end)`;
const failed = sql<number | string>`sum(case when success = 1 then 0 else 1 end)`;

/** Attempts grouped by how they were made and by country, and failures by reason, counted by the database. */
export async function attemptBreakdowns(db: Db, projectId: string, period: StoredPeriod) {
  const [methods, countries, reasons] = await Promise.all([
    attemptsIn(db, projectId, period)
      .select(['method', succeeded.as('succeeded'), failed.as('failed')])
      .groupBy('method')
      .execute(),
    attemptsIn(db, projectId, period)
      .select(['country_code', succeeded.as('succeeded'), failed.as('failed')])
      .groupBy('country_code')
      .execute(),
    attemptsIn(db, projectId, period)
      .where('success', '=', 0)
      .select(['failure_reason', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('failure_reason')
      .execute(),
  ]);
  return { methods, countries, reasons };
}

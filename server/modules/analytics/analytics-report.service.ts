import type { Analytics, AnalyticsQuery } from '../../../shared/schemas/projects.js';
import type { Deps } from '../../deps.js';
import { attemptBreakdowns, countActiveUsersSince, dailyStats, type StoredPeriod } from './analytics-report.repo.js';
import { lastDays, utcDay } from './analytics.service.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

const dayAfter = (day: string) => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));

/** The UTC days a validated query covers, oldest first: its `from`–`to`, or the last `days` (30) ending today. */
export function periodDays(now: Date, query: AnalyticsQuery): string[] {
  if (query.from && query.to) {
    const days = [query.from];
    while (days.at(-1)! < query.to) days.push(dayAfter(days.at(-1)!));
    return days;
  }
  return lastDays(now, query.days ?? DEFAULT_DAYS);
}

/** Most attempts first; ties by key, so the order is stable. */
function byAttempts<T extends { succeeded: number; failed: number }>(rows: T[], key: (row: T) => string | null): T[] {
  return rows.sort((a, b) => b.succeeded + b.failed - (a.succeeded + a.failed) || String(key(a)).localeCompare(String(key(b))));
}

/**
 * A project's analytics over a period: per-day signups, logins, failures, active users and API
 * requests (zero-filled), the 30-day MAU, and the period's sign-in attempts by method and country and
 * its failures by reason. Who may read them is the caller's to check (projects.service).
 */
export async function projectAnalytics(deps: Pick<Deps, 'db' | 'clock'>, projectId: string, query: AnalyticsQuery): Promise<Analytics> {
  const now = deps.clock.now();
  const dayList = periodDays(now, query);
  const fromDay = dayList[0]!;
  const toDay = dayList.at(-1)!;
  const period: StoredPeriod = { fromDay, toDay, fromInstant: `${fromDay}T00:00:00.000Z`, untilInstant: `${dayAfter(toDay)}T00:00:00.000Z` };
  const [{ days: rows, active }, breakdowns, monthlyActiveUsers] = await Promise.all([
    dailyStats(deps.db, projectId, period),
    attemptBreakdowns(deps.db, projectId, period),
    countActiveUsersSince(deps.db, projectId, utcDay(new Date(now.getTime() - 29 * DAY_MS))),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const activeByDay = new Map(active.map((a) => [a.day, Number(a.n)]));
  return {
    project_id: projectId,
    from: fromDay,
    to: toDay,
    days: dayList.map((day) => {
      const r = byDay.get(day);
      return {
        day,
        signups: Number(r?.signups ?? 0),
        logins: Number(r?.logins ?? 0),
        failed_logins: Number(r?.failed_logins ?? 0),
        api_requests: Number(r?.api_requests ?? 0),
        active_users: activeByDay.get(day) ?? 0,
      };
    }),
    monthly_active_users: monthlyActiveUsers,
    sign_ins_by_method: byAttempts(
      breakdowns.methods.map((r) => ({ method: r.method, succeeded: Number(r.succeeded), failed: Number(r.failed) })),
      (r) => r.method,
    ),
    sign_ins_by_country: byAttempts(
      breakdowns.countries.map((r) => ({ country_code: r.country_code, succeeded: Number(r.succeeded), failed: Number(r.failed) })),
      (r) => r.country_code,
    ),
    failures_by_reason: breakdowns.reasons
      .map((r) => ({ reason: r.failure_reason, count: Number(r.count) }))
      .sort((a, b) => b.count - a.count || String(a.reason).localeCompare(String(b.reason))),
  };
}

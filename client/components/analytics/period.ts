import { ANALYTICS_MAX_DAYS, daysBetween } from '../../../shared/schemas/projects';

/** What the analytics screen shows: the last `days` UTC days, or the UTC days `from` to `to`. */
export type AnalyticsPeriod = { days: number } | { from: string; to: string };

export const PERIOD_PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
] as const;

const DEFAULT_DAYS = 30;
export const DEFAULT_PERIOD: AnalyticsPeriod = { days: DEFAULT_DAYS };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string | null): value is string => !!value && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

/** The UTC day `count - 1` days before `day`: the first of a period of `count` days ending on `day`. */
export function startOfDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - (count - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** The period a link asks for (`?days=7`, `?from=…&to=…`), or the default when it asks for none it can have. */
export function periodFromSearch(params: URLSearchParams): AnalyticsPeriod {
  const from = params.get('from');
  const to = params.get('to');
  if (isDay(from) && isDay(to) && !customPeriodError(from, to)) return { from, to };
  const days = Number(params.get('days'));
  if (Number.isInteger(days) && days >= 1 && days <= ANALYTICS_MAX_DAYS) return { days };
  return DEFAULT_PERIOD;
}

/** Writes the period into the link's parameters, leaving the others (the project) as they are. */
export function writePeriod(params: URLSearchParams, period: AnalyticsPeriod): URLSearchParams {
  params.delete('days');
  params.delete('from');
  params.delete('to');
  if ('days' in period) {
    if (period.days !== DEFAULT_DAYS) params.set('days', String(period.days));
  } else {
    params.set('from', period.from);
    params.set('to', period.to);
  }
  return params;
}

/** Why two chosen days are not a period the server takes, in words; null when they are. */
export function customPeriodError(from: string, to: string): string | null {
  if (!isDay(from) || !isDay(to)) return 'Choose a start and an end day';
  if (from > to) return 'The start must be on or before the end';
  if (daysBetween(from, to) > ANALYTICS_MAX_DAYS) return `Choose at most ${ANALYTICS_MAX_DAYS} days`;
  return null;
}

const rangeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'May 14 – May 20, 2026', for a period's first and last UTC day. */
export function periodLabel(from: string, to: string): string {
  return rangeFormat.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
}

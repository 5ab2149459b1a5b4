import type { ENVIRONMENTS } from '../../../shared/constants';

/** The analytics screens look back this many days (the server allows 1–90). */
export const ANALYTICS_DAYS = 30;

export type Environment = (typeof ENVIRONMENTS)[number];

const number = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatNumber = (value: number) => number.format(value);
export const formatCompact = (value: number) => (Math.abs(value) < 10_000 ? number.format(value) : compact.format(value));

/** '1 user', '2 users', '1,284 logins'. */
export const countOf = (value: number, singular: string, plural = `${singular}s`) =>
  `${number.format(value)} ${value === 1 ? singular : plural}`;

export const environmentLabel = (environment: Environment) => environment[0]!.toUpperCase() + environment.slice(1);

/** 'YYYY-MM-DD' (a UTC day, as the server rolls analytics up) → 'Mon'. */
export function weekdayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });
}

/** 'YYYY-MM-DD' → 'Jun 3'. */
export function shortDateOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * Share of the monthly allowance used, for the rate-limit bar: the exact percentage (for the bar) and a label
 * that never rounds a little use down to "0%" nor a near-full allowance up to "100%".
 */
export function usageOf(used: number, limit: number): { percent: number; label: string } {
  if (limit <= 0) return { percent: 0, label: '0%' };
  const percent = (used / limit) * 100;
  if (percent === 0) return { percent, label: '0%' };
  if (percent < 1) return { percent, label: '<1%' };
  if (percent < 100) return { percent, label: `${Math.min(99, Math.round(percent))}%` };
  return { percent, label: `${Math.floor(percent)}%` };
}

/** The rate-limit state: healthy below 75 %, a warning up to the limit, then reached. */
export function usageLevel(percent: number): { label: string; color: string } {
  if (percent >= 100) return { label: 'Limit reached', color: 'red' };
  if (percent >= 75) return { label: 'Approaching limit', color: 'orange' };
  return { label: 'Healthy', color: 'teal' };
}

/** Where a project's public signing keys are published (its end users' access tokens verify against them). */
export function jwksPath(projectKey: string): string {
  return `/public/api/v1/projects/${encodeURIComponent(projectKey)}/jwks.json`;
}

export function absoluteUrl(path: string): string {
  return typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString();
}

import type { AdminStats } from '../../shared/schemas/admin';
import type { Project } from '../../shared/schemas/projects';
import { SOCIAL_PROVIDER_NAMES, type SocialProvider } from '../../shared/schemas/social';
import type { User } from '../../shared/schemas/user';

/* Dates and days ------------------------------------------------------------------------------------------ */

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

export function formatDate(iso: string | null | undefined, fallback = 'Never'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : dateFormat.format(date);
}

export function formatDateTime(iso: string | null | undefined, fallback = 'Never'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : dateTimeFormat.format(date);
}

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

/* Numbers ------------------------------------------------------------------------------------------------- */

const number = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatNumber = (value: number) => number.format(value);
export const formatCompact = (value: number) => (Math.abs(value) < 10_000 ? number.format(value) : compact.format(value));

/** '1 user', '2 users', '1,284 logins'. */
export const countOf = (value: number, singular: string, plural = `${singular}s`) =>
  `${number.format(value)} ${value === 1 ? singular : plural}`;

/** Successful sign-ins as a rounded percentage of all attempts; 0 when there were none. */
export function successRate(stats: Pick<AdminStats, 'successful_logins' | 'total_login_attempts'>): number {
  if (!stats.total_login_attempts) return 0;
  return Math.round((stats.successful_logins / stats.total_login_attempts) * 100);
}

/* People -------------------------------------------------------------------------------------------------- */

type NameFields = Pick<User, 'email' | 'first_name' | 'last_name'>;

/** The user-menu label: first name, or the e-mail when there is none. */
export function menuLabel(user: NameFields): string {
  return user.first_name?.trim() || user.email;
}

/** 'first_name last_name' when both exist, otherwise the e-mail. */
export function fullNameOrEmail(user: NameFields): string {
  const first = user.first_name?.trim();
  const last = user.last_name?.trim();
  return first && last ? `${first} ${last}` : user.email;
}

/** Any name the user gave (first, last or both), otherwise the e-mail. */
export function nameOrEmail(user: NameFields): string {
  const name = [user.first_name?.trim(), user.last_name?.trim()].filter(Boolean).join(' ');
  return name || user.email;
}

export function initials(user: NameFields): string {
  const first = user.first_name?.trim()?.[0];
  const last = user.last_name?.trim()?.[0];
  if (first || last) return `${first ?? ''}${last ?? ''}`.toUpperCase();
  return (user.email[0] ?? '?').toUpperCase();
}

/* Projects and monitoring --------------------------------------------------------------------------------- */

export const environmentLabel = (environment: Project['environment']) => environment[0]!.toUpperCase() + environment.slice(1);

/** Device ids are long fingerprints: the views show their last 12 characters. */
export function shortDeviceId(deviceId: string): string {
  return deviceId.slice(-12);
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

/** 'DE' → 'Germany (DE)'; null → 'Unknown'. */
export function countryLabel(code: string | null | undefined): string {
  if (!code) return 'Unknown';
  const upper = code.toUpperCase();
  let name: string | undefined;
  try {
    name = regionNames?.of(upper);
  } catch {
    name = undefined;
  }
  return name && name !== upper ? `${name} (${upper})` : upper;
}

const REASONS: Record<string, string> = {
  invalid_credentials: 'Wrong password',
  unknown_email: 'Unknown e-mail',
  account_inactive: 'Account deactivated',
  device_blocked: 'Device blocked',
  vpn_blocked: 'VPN or proxy blocked',
  rate_limited: 'Too many attempts',
  captcha_failed: 'Captcha failed',
  token_reuse: 'Refresh token reused',
  mfa_failed: 'Wrong second factor',
  passkey_failed: 'Passkey refused',
  link_required: 'E-mail belongs to another account',
  sso_required: 'Single sign-on required',
  email_unverified: 'E-mail not verified',
};

const FACTORS: Record<string, string> = { password: 'Password', passkey: 'Passkey', code: 'code', email: 'Mailed link' };

function factorLabel(factor: string): string {
  if (Object.hasOwn(FACTORS, factor)) return FACTORS[factor]!;
  return Object.hasOwn(SOCIAL_PROVIDER_NAMES, factor) ? SOCIAL_PROVIDER_NAMES[factor as SocialProvider] : factor;
}

/**
 * How an attempt signed in, in words: 'password' → 'Password', 'github' → 'GitHub', 'email' → 'Mailed link'
 * (the verification or reset link of an app's sign-in on the hosted pages), and a second step's two
 * factors: 'password+code' → 'Password + code', 'github+passkey' → 'GitHub + passkey'. null when not
 * recorded (attempts from before methods were).
 */
export function signInMethodLabel(method: string | null | undefined): string | null {
  if (!method) return null;
  const [first, second] = method.split('+');
  if (!second) return factorLabel(first!);
  return `${factorLabel(first!)} + ${factorLabel(second).toLowerCase()}`;
}

/** The recorded failure reason in words ('invalid_credentials' → 'Wrong password'). */
export function failureReasonLabel(reason: string | null | undefined): string | null {
  if (!reason) return null;
  const known = REASONS[reason];
  if (known) return known;
  const words = reason.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
}

/* Audit log ----------------------------------------------------------------------------------------------- */

const AUDIT_SUBJECTS: Record<string, string> = {
  user: 'User',
  device: 'Device',
  session: 'Session',
  project: 'Project',
  api_key: 'API key',
  connection: 'Sign-in provider',
  mail: 'Mail',
};

const AUDIT_VERBS: Record<string, string> = { mfa_reset: 'two-factor reset' };

/** The family of an action ('user.deactivated' → 'user'): the part before the dot. */
export const auditFamilyOf = (action: string) => action.split('.')[0] ?? action;

/** 'user' → 'User', 'api_key' → 'API key'. */
export function auditSubjectLabel(family: string): string {
  const known = AUDIT_SUBJECTS[family];
  if (known) return known;
  const words = family.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An audit action in words: 'user.deactivated' → 'User deactivated', 'user.mfa_reset' → 'User two-factor reset'. */
export function auditActionLabel(action: string): string {
  const dot = action.indexOf('.');
  if (dot < 0) return auditSubjectLabel(action);
  const verb = action.slice(dot + 1);
  return `${auditSubjectLabel(action.slice(0, dot))} ${AUDIT_VERBS[verb] ?? verb.replace(/[_-]+/g, ' ')}`;
}

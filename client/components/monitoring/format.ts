import type { AdminStats } from '../../../shared/schemas/admin';

/** Successful sign-ins as a rounded percentage of all attempts; 0 when there were none. */
export function successRate(stats: Pick<AdminStats, 'successful_logins' | 'total_login_attempts'>): number {
  if (!stats.total_login_attempts) return 0;
  return Math.round((stats.successful_logins / stats.total_login_attempts) * 100);
}

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
};

/** The recorded failure reason in words ('invalid_credentials' → 'Wrong password'). */
export function failureReasonLabel(reason: string | null | undefined): string | null {
  if (!reason) return null;
  const known = REASONS[reason];
  if (known) return known;
  const words = reason.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : null;
}

/** 'Ada Lovelace', else the e-mail. */
export function nameOrEmail(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = [user.first_name, user.last_name].map((part) => part?.trim()).filter(Boolean).join(' ');
  return name || user.email;
}

const number = new Intl.NumberFormat('en-US');
export const formatCount = (value: number) => number.format(value);

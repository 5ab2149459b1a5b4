import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app expects it: 30-second steps, 6 digits, SHA-1. */
const PERIOD_S = 30;
const DIGITS = 6;
/** One step either side, for clocks a little off and codes typed as they roll over. */
const WINDOW = 1;

function totpOf(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totpOf(secret, issuer, label).toString();
}

/**
 * The time step a code belongs to, if it is right at `now` (within one step either side), else null.
 * The caller accepts each step once, so a code cannot be replayed.
 */
export function matchTotpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = now.getTime();
  const delta = totpOf(secret, '', '').validate({ token, timestamp, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp }) + delta;
}

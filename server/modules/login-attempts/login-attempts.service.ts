import type { Deps } from '../../deps.js';
import { isoNow } from '../../lib/clock.js';
import { newSequentialId } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import type { IpVerdict } from '../ip-intel/ip-intel.js';
import { insertLoginAttempt } from './login-attempts.repo.js';

export type FailureReason =
  | 'invalid_credentials'
  | 'unknown_email'
  | 'account_inactive'
  | 'device_blocked'
  | 'rate_limited'
  | 'captcha_failed'
  | 'vpn_blocked'
  /** A refresh token presented again by another client, or too late: the session was revoked. */
  | 'token_reuse'
  /** A wrong second factor (TOTP, recovery code or passkey) after a right password. */
  | 'mfa_failed'
  /** A known passkey whose answer did not verify (wrong challenge, origin, signature or counter). */
  | 'passkey_failed'
  /** A provider's identity whose e-mail belongs to another account: linking needs the owner's proof. */
  | 'link_required'
  /** A right password for an address not verified yet, in a project that lets only verified end users in. */
  | 'email_unverified'
  /** A password for an address whose organization's connection enforces single sign-on. */
  | 'sso_required';

/** Every sign-in attempt, good or bad, is written down with where it came from. */
export async function recordLoginAttempt(
  deps: Deps,
  attempt: {
    projectId: string | null;
    email: string;
    userId: string | null;
    success: boolean;
    failureReason: FailureReason | null;
    deviceFingerprint: string | null;
    verdict: IpVerdict;
    /** The provider of a social sign-in; absent for a password or passkey. */
    method?: string | null;
  },
  request: RequestInfo,
): Promise<void> {
  await insertLoginAttempt(deps.db, {
    id: newSequentialId(),
    project_id: attempt.projectId,
    email: attempt.email.slice(0, 254),
    user_id: attempt.userId,
    ip_address: request.ip,
    is_vpn: attempt.verdict.is_vpn ? 1 : 0,
    is_proxy: attempt.verdict.is_proxy ? 1 : 0,
    success: attempt.success ? 1 : 0,
    failure_reason: attempt.failureReason,
    country_code: attempt.verdict.country_code,
    device_fingerprint: attempt.deviceFingerprint,
    user_agent: request.userAgent,
    created_at: isoNow(deps.clock),
    method: attempt.method ?? null,
  });
  deps.metrics.countLogin(attempt.projectId === null ? 'platform' : 'project', attempt.success ? 'success' : (attempt.failureReason ?? 'unknown'));
}

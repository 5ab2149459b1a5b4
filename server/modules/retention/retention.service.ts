import type { Deps } from '../../deps.js';
import { deleteExpiredOAuthRequestsBefore } from '../oidc/oidc.service.js';
import { deleteExpiredSocialSignInsBefore } from '../social/social.service.js';
import { deleteExpiredInvitations } from '../teams/teams.repo.js';
import { deleteSettledWebhookEventsBefore } from '../webhooks/webhooks.service.js';
import {
  deleteDeadSessionsBefore,
  deleteExpiredMfaChallengesBefore,
  deleteExpiredWebAuthnChallengesBefore,
  deleteLoginAttemptsBefore,
  deleteSpentOneTimeTokensBefore,
  deleteSpentRefreshTokensBefore,
} from './retention.repo.js';

const DAY_MS = 86_400_000;
/** Dead sessions and spent refresh tokens are kept this long for the monitoring views and late reuse detection. */
export const SESSION_HISTORY_DAYS = 30;
/** Used or expired links are kept a day, so a second click still says "already used" rather than "invalid". */
export const SPENT_LINK_DAYS = 1;
/** How often each instance runs it. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionResult {
  loginAttempts: number;
  sessions: number;
  refreshTokens: number;
  oneTimeTokens: number;
  mfaChallenges: number;
  webauthnChallenges: number;
  oauthRequests: number;
  /** Sign-ins sent to a provider, and mailed links to connect one. */
  socialSignIns: number;
  /** Webhook events and their deliveries, 30 days on, once none is pending. */
  webhookEvents: number;
  /** Team invitations, a day after they expired. */
  projectInvitations: number;
}

/**
 * Deletes what no one needs any more: login attempts older than LOGIN_ATTEMPTS_RETENTION_DAYS,
 * sessions (with their refresh tokens) expired or revoked more than 30 days ago, refresh tokens spent
 * more than 30 days ago, and one-time links used or expired more than a day ago. Analytics keep their
 * daily rollups. Each delete is idempotent by age, so several instances may run it at once.
 */
export async function runRetention(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<RetentionResult> {
  const now = deps.clock.now().getTime();
  const ago = (days: number) => new Date(now - days * DAY_MS).toISOString();
  return {
    loginAttempts: await deleteLoginAttemptsBefore(deps.db, ago(deps.config.loginAttemptsRetentionDays)),
    sessions: await deleteDeadSessionsBefore(deps.db, ago(SESSION_HISTORY_DAYS)),
    refreshTokens: await deleteSpentRefreshTokensBefore(deps.db, ago(SESSION_HISTORY_DAYS)),
    oneTimeTokens: await deleteSpentOneTimeTokensBefore(deps.db, ago(SPENT_LINK_DAYS)),
    mfaChallenges: await deleteExpiredMfaChallengesBefore(deps.db, ago(SPENT_LINK_DAYS)),
    webauthnChallenges: await deleteExpiredWebAuthnChallengesBefore(deps.db, ago(SPENT_LINK_DAYS)),
    oauthRequests: await deleteExpiredOAuthRequestsBefore(deps, ago(SPENT_LINK_DAYS)),
    socialSignIns: await deleteExpiredSocialSignInsBefore(deps, ago(SPENT_LINK_DAYS)),
    webhookEvents: await deleteSettledWebhookEventsBefore(deps, ago(SESSION_HISTORY_DAYS)),
    projectInvitations: await deleteExpiredInvitations(deps.db, ago(SPENT_LINK_DAYS)),
  };
}

/**
 * Runs the retention shortly after start and then every hour, in this process, until `stop`.
 * A failure is logged and the next run tries again.
 */
export function scheduleRetention(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>, intervalMs = RETENTION_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= runRetention(deps)
      .then((removed) => {
        if (Object.values(removed).some((n) => n > 0)) deps.logger.info({ removed }, 'retention: old records deleted');
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'retention run failed'))
      .finally(() => {
        running = null;
      });
  };
  // Instances started together spread their runs over the first minute.
  const first = setTimeout(run, 5_000 + Math.floor(Math.random() * 55_000));
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}

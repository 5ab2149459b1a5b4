import type { Deps } from '../../deps.js';
import { isoNow } from '../../lib/clock.js';
import { sweepMails } from '../../mail/outbox.repo.js';
import { deleteSpentCodesBefore, sweepExpiredOAuthRequests } from '../oidc/oidc.service.js';
import { sweepExpiredDeviceAuthorizations } from '../oidc/device-authorization.service.js';
import { deleteExpiredLinkRequests, sweepExpiredSocialSignIns } from '../social/social.service.js';
import { sweepExpiredAssertions } from '../sso/sso-sign-in.service.js';
import { sweepExpiredPortalLinks } from '../sso/admin-portal.service.js';
import { deleteExpiredInvitations } from '../teams/teams.repo.js';
import { deleteSettledWebhookEventsBefore } from '../webhooks/webhooks.service.js';
import { deleteEndedEmailSignIns } from '../passwordless/passwordless.repo.js';
import { purgeRevocations } from '../revocations/revocations.service.js';
import { sweepLeftoverSpools } from '../user-transfer/spool.js';
import {
  deleteDeadSessionsBefore,
  deleteExpiredMfaChallengesBefore,
  deleteExpiredWebAuthnChallenges,
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
/** How often each instance sweeps the rows that stopped waiting. */
export const SWEEP_INTERVAL_MS = 60 * 1000;

export interface RetentionResult {
  loginAttempts: number;
  sessions: number;
  refreshTokens: number;
  oneTimeTokens: number;
  mfaChallenges: number;
  /** Authorization codes, a day after they expired (kept so a late replay still revokes what a spent one gave). */
  oauthCodes: number;
  /** Mailed links to connect a provider, a day after they expired. */
  identityLinks: number;
  /** Webhook events and their deliveries, 30 days on, once none is pending. */
  webhookEvents: number;
  /** Team invitations, a day after they expired. */
  projectInvitations: number;
  /** Sent mails, MAIL_RETENTION_DAYS after they were queued. */
  sentMails: number;
  /** Failed mails whose body (the message, its links) was dropped at the same age; the row stays for the lists. */
  failedMailBodies: number;
  /** Rows of the revocation feed whose sessions' access tokens have all expired. */
  revocations: number;
  /** Mailed sign-in codes and magic links (with their exchange codes), a day after they ended. */
  emailSignIns: number;
  /** Import uploads a stopped server left in IMPORT_SPOOL_DIR, a day old. */
  importSpools: number;
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
    oauthCodes: await deleteSpentCodesBefore(deps, ago(SPENT_LINK_DAYS)),
    identityLinks: await deleteExpiredLinkRequests(deps, ago(SPENT_LINK_DAYS)),
    webhookEvents: await deleteSettledWebhookEventsBefore(deps, ago(SESSION_HISTORY_DAYS)),
    projectInvitations: await deleteExpiredInvitations(deps.db, ago(SPENT_LINK_DAYS)),
    revocations: await purgeRevocations(deps),
    emailSignIns: await deleteEndedEmailSignIns(deps.db, ago(SPENT_LINK_DAYS)),
    // Files' times are the machine's, not the service clock's.
    importSpools: await sweepLeftoverSpools(deps.config.importSpoolDir, Date.now()),
    ...(await sweepMails(deps.db, ago(deps.config.mailRetentionDays)).then(({ deleted, dropped }) => ({ sentMails: deleted, failedMailBodies: dropped }))),
  };
}

export interface SweepResult {
  webauthnChallenges: number;
  /** Authorization requests waiting for the hosted sign-in, and codes never spent. */
  oauthRequests: number;
  /** Device authorization requests (RFC 8628), ten minutes after their ten minutes. */
  deviceAuthorizations: number;
  /** Sign-ins sent to a provider. */
  socialSignIns: number;
  ssoAssertions: number;
  /** Setup portal links past their expiry, with their sessions. */
  adminPortalLinks: number;
}

/**
 * Deletes the rows requests leave waiting without a session once their lives have ended, rather than
 * a day later: passkey ceremonies (5 minutes), authorization requests (30 minutes) and unspent codes
 * (60 seconds), device requests (10 minutes, kept 10 more), sign-ins sent to a provider (10 minutes, or their result's minute). Nothing reads
 * them once expired; this keeps what a flood leaves behind from piling up. Idempotent by age.
 */
export async function sweepExpiredWaiting(deps: Pick<Deps, 'db' | 'clock'>): Promise<SweepResult> {
  return {
    webauthnChallenges: await deleteExpiredWebAuthnChallenges(deps.db, isoNow(deps.clock)),
    oauthRequests: await sweepExpiredOAuthRequests(deps),
    deviceAuthorizations: await sweepExpiredDeviceAuthorizations(deps),
    socialSignIns: await sweepExpiredSocialSignIns(deps),
    ssoAssertions: await sweepExpiredAssertions(deps),
    adminPortalLinks: await sweepExpiredPortalLinks(deps),
  };
}

/**
 * Runs the retention shortly after start and then every hour, and the sweep of expired waiting rows
 * every minute, in this process, until `stop`. A failure is logged and the next run tries again.
 */
export function scheduleRetention(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>,
  intervalMs = RETENTION_INTERVAL_MS,
  sweepIntervalMs = SWEEP_INTERVAL_MS,
): { stop(): Promise<void> } {
  // Instances started together spread their runs over the first minute.
  const jobs = [
    repeat(deps, 'retention', 'info', () => runRetention(deps), 5_000 + Math.floor(Math.random() * 55_000), intervalMs),
    // Every minute: its deletions are routine, not news.
    repeat(deps, 'sweep', 'debug', () => sweepExpiredWaiting(deps), Math.floor(Math.random() * sweepIntervalMs), sweepIntervalMs),
  ];
  return {
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}

/** Runs `job` after `firstMs`, then every `everyMs`, never two at once; logs what it deleted. */
function repeat(deps: Pick<Deps, 'logger'>, name: string, level: 'info' | 'debug', job: () => Promise<object>, firstMs: number, everyMs: number) {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= job()
      .then((removed) => {
        if (Object.values(removed).some((n) => n > 0)) deps.logger[level]({ removed }, `${name}: old records deleted`);
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, `${name} run failed`))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, firstMs);
  const every = setInterval(run, everyMs);
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

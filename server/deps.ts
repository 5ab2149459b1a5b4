import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db, Dialect } from './db/connect.js';
import type { Clock } from './lib/clock.js';
import type { Invalidations } from './lib/invalidations.js';
import type { ServiceMetrics } from './lib/metrics.js';
import type { PasswordHasher } from './lib/passwords.js';
import type { Limiters } from './lib/rate-limit.js';
import type { ExportSlots } from './lib/export-slots.js';
import type { SecretBox } from './lib/secret-box.js';
import type { MailDispatcher } from './mail/dispatcher.js';
import type { Mailer } from './mail/mailer.js';
import type { CaptchaVerifier } from './modules/captcha/captcha.js';
import type { IpIntel } from './modules/ip-intel/ip-intel.js';
import type { ProjectRealms, Realm } from './modules/realms/realm.js';
import type { AccessTokens } from './modules/sessions/access-tokens.js';
import type { SessionCheck } from './modules/sessions/request-auth.js';
import type { PortalSessionCheck } from './modules/sso/admin-portal.service.js';
import type { ProviderClient } from './modules/social/provider-client.js';
import type { WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import type { RevocationStreams } from './modules/revocations/revocation-stream.js';

/**
 * Everything a service needs, built once in buildApp and passed down; no module-level singletons.
 * Inside a unit of work (db/transaction.ts) `db` is the transaction.
 */
export interface Deps {
  config: Config;
  db: Db;
  dialect: Dialect;
  clock: Clock;
  /** The transport (SMTP, or .eml files without SMTP_URL); only the mail dispatcher sends through it. */
  mailer: Mailer;
  /** Delivers the mail outbox (mail/outbox.ts queues; runOnce in tests; polling and nudges in the server). */
  mailDispatcher: MailDispatcher;
  logger: FastifyBaseLogger;
  passwords: PasswordHasher;
  limiters: Limiters;
  /** One running CSV export per user (across instances over Redis when configured). */
  exportSlots: ExportSlots;
  /** The platform's own signer (developers' tokens). */
  accessTokens: AccessTokens;
  /** The platform's accounts, as a realm for the shared auth services. */
  platform: Realm;
  secretBox: SecretBox;
  /** Delivers the webhook outbox (runOnce in tests; polling in the server). */
  webhooks: WebhookDispatcher;
  /** The revocation feed's server-sent-event streams of this instance. */
  revocationStreams: RevocationStreams;
  /** Each project's end users, as realms, resolved from API keys. */
  projectRealms: ProjectRealms;
  /** Checks a request's access token (sessions' authenticate over these deps), for rest/callers. */
  sessionCheck: SessionCheck;
  /** The setup portal's session, from its cookie (401 without a live one). */
  portalSessionCheck: PortalSessionCheck;
  ipIntel: IpIntel;
  captcha: CaptchaVerifier;
  /** OAuth 2 / OpenID Connect client of the sign-in providers (GitHub, Google, Microsoft, any OIDC). */
  socialProviders: ProviderClient;
  /** Drops what instances cache when it changes (over Redis when several share it). */
  invalidations: Invalidations;
  /** Counters for /metrics (sign-ins); no-ops when METRICS_TOKEN is unset. */
  metrics: ServiceMetrics;
  /** package.json's version, for /health and the OpenAPI document. */
  version: string;
  startedAt: Date;
}

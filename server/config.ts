import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ACCESS_TOKEN_TTL_S, DEFAULT_REFRESH_TOKEN_TTL_S } from '../shared/constants.js';
import { SOCIAL_PROVIDER_DEFAULTS, SOCIAL_PROVIDER_NAMES, type SocialProvider } from '../shared/schemas/social.js';
import type { SiteConfig } from '../shared/site-config.js';

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', ''])
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

const commaList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** `a.b.c.d`, `a.b.c.d/nn`, an IPv6 address or `v6/nnn`. */
function isAddressOrCidr(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  const version = isIP(address ?? '');
  if (!version || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies in front of the server to believe about the client's address: off, `on` (exactly
 * one hop), a number of hops, or a comma list of proxy addresses and CIDRs. Never "every hop":
 * behind an appending proxy that would let any client pick its own address.
 */
const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  const trimmed = value.trim().toLowerCase();
  if (['', 'off', 'false', 'no', '0'].includes(trimmed)) return false;
  if (['on', 'true', 'yes'].includes(trimmed)) return 1;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const entries = trimmed.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.find((entry) => !isAddressOrCidr(entry));
  if (bad !== undefined || entries.length === 0) {
    ctx.addIssue({ code: 'custom', message: `expected off, on, a number of hops, or proxy addresses/CIDRs (bad entry ${JSON.stringify(bad ?? value)})` });
    return z.NEVER;
  }
  return entries;
});

const httpUrl = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

/** A scraper's bearer token: long enough that guessing it over HTTP is hopeless. */
const MIN_METRICS_TOKEN_LENGTH = 16;

/** Variables whose value a config error must not repeat (it ends up in logs). */
const SECRET_VARIABLES = new Set([
  'METRICS_TOKEN',
  'MASTER_KEY',
  'JWT_PRIVATE_KEY',
  'CAPTCHA_SECRET',
  'GITHUB_CLIENT_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'MICROSOFT_CLIENT_SECRET',
  'OIDC_CLIENT_SECRET',
]);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z.string().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('AuthPlatform <no-reply@localhost>'),
  ADMIN_EMAILS: commaList.pipe(z.array(z.email())).default([]),
  CORS_ORIGINS: commaList.pipe(z.array(z.url())).default([]),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(1).max(31 * 24 * 3600).default(DEFAULT_ACCESS_TOKEN_TTL_S),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(1).max(366 * 24 * 3600).default(DEFAULT_REFRESH_TOKEN_TTL_S),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  TRUST_PROXY: trustProxy.default(false),
  REFRESH_REUSE_INTERVAL: z.coerce.number().int().min(0).max(300).default(10),
  STEP_UP_WINDOW_S: z.coerce.number().int().min(30).max(3600).default(300),
  API_USAGE_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  LOGIN_ATTEMPTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RATE_LIMITS: booleanFlag.default(true),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('authplatform:'),
  JWT_PRIVATE_KEY: z.string().optional(),
  MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, { error: 'expected 32 random bytes, base64-encoded' })
    .optional(),
  BLOCK_VPN: booleanFlag.default(false),
  PLATFORM_EMAIL_CODE: booleanFlag.default(true),
  IP_DATA_DIR: z.string().min(1).optional(),
  IMPORT_SPOOL_DIR: z.string().min(1).optional(),
  CAPTCHA_PROVIDER: z.enum(['none', 'altcha', 'turnstile', 'hcaptcha', 'recaptcha']).default('none'),
  CAPTCHA_SITE_KEY: z.string().default(''),
  CAPTCHA_SECRET: z.string().default(''),
  CAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  LANDING_PAGE: booleanFlag.default(true),
  PRIVACY_URL: z.url({ protocol: /^https?$/ }).optional(),
  TERMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Empty counts as unset, as an orchestrator's `METRICS_TOKEN=` line would mean.
  METRICS_TOKEN: z
    .string()
    .refine((v) => v === '' || v.length >= MIN_METRICS_TOKEN_LENGTH, { error: `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters` })
    .optional(),
  NODE_ENV: z.string().optional(),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GITHUB_AUTHORIZE_URL: httpUrl.optional(),
  GITHUB_TOKEN_URL: httpUrl.optional(),
  GITHUB_API_URL: httpUrl.optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: httpUrl.optional(),
  MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_ISSUER: httpUrl.optional(),
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(50).optional(),
  CONNECTIONS_ALLOW_PRIVATE: booleanFlag.default(false),
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  // Tests only: 'off' counts every domain of an SSO connection as verified without its DNS TXT record.
  SSO_DOMAIN_VERIFICATION: z.enum(['dns', 'off']).default('dns'),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  WEBHOOK_LEASE_S: z.coerce.number().int().min(1).max(3600).default(60),
  MAIL_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  MAIL_LEASE_S: z.coerce.number().int().min(1).max(3600).default(120),
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  // At most 4 s, so a revocation on any instance reaches every stream within the feed's 5 s promise.
  REVOCATION_POLL_MS: z.coerce.number().int().min(50).max(4000).default(500),
  REVOCATION_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
});

type Env = z.infer<typeof EnvSchema>;

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** false, a number of proxy hops, or the proxies' addresses and CIDRs (Fastify's trustProxy takes each). */
export type TrustProxy = false | number | string[];

export type Config = Readonly<{
  port: number;
  host: string;
  /** Server processes sharing the port (node:cluster); 1 serves in the process that was started. */
  workers: number;
  appUrl: string;
  dataDir: string;
  database: DatabaseTarget;
  smtpUrl: string | null;
  mailFrom: string;
  adminEmails: readonly string[];
  corsOrigins: readonly string[];
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  bcryptCost: number;
  trustProxy: TrustProxy;
  /** Seconds within which the client that rotated a refresh token may present it again (two tabs, a retry); 0 = strict. */
  refreshReuseIntervalS: number;
  /** How long a proof of who the user is (a sign-in, or a step-up) lets a session add a way in or move the account. */
  stepUpWindowS: number;
  loginAttemptsRetentionDays: number;
  /** How often counted public API calls are written (0: each call as it happens). */
  apiUsageFlushMs: number;
  /** Without SMTP, print mail links (with their tokens) to the log: only for a loopback APP_URL, the local demo. */
  logMailLinks: boolean;
  /** What the dashboard shows of the operator's site: the marketing landing page, and their legal pages' addresses. */
  site: SiteConfig;
  rateLimits: boolean;
  /** Shared store for rate limits and spent captcha tokens, so several instances enforce one budget; null keeps them in memory. */
  redisUrl: string | null;
  redisKeyPrefix: string;
  jwtPrivateKey: string | null;
  masterKey: string | null;
  blockVpn: boolean;
  /** Developers may sign in to the dashboard with a mailed 6-digit code (PLATFORM_EMAIL_CODE). */
  platformEmailCode: boolean;
  ipDataDir: string | null;
  /** Where user imports' uploads wait while their job reads them (DATA_DIR/import-spool unless IMPORT_SPOOL_DIR). */
  importSpoolDir: string;
  captcha: { provider: 'none' | 'altcha' | 'turnstile' | 'hcaptcha' | 'recaptcha'; siteKey: string; secret: string; verifyUrl: string | null };
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** `auto`: readable lines on a terminal, JSON lines otherwise (a log collector, a file, CI). */
  logFormat: z.infer<typeof EnvSchema>['LOG_FORMAT'];
  /** The platform's own sign-in providers (a button each on the sign-in and sign-up pages). */
  socialConnections: readonly ConnectionSettings[];
  /** Projects' sign-in providers may be at private, loopback or link-local addresses (a provider on the internal network). */
  connectionsAllowPrivate: boolean;
  /** Bearer token of GET /metrics; null: metrics are off and the path is not served. */
  metricsToken: string | null;
  /** Webhook endpoints may be at private, loopback or link-local addresses. */
  webhooksAllowPrivate: boolean;
  /** 'off' (tests only): SSO domains count as verified without the DNS check. */
  ssoDomainVerification: 'dns' | 'off';
  /**
   * APP_URL's host is loopback (localhost, 127.0.0.0/8, ::1): a local install nobody else reaches, where
   * development projects may send webhooks to loopback receivers. Never on a shared install, where
   * anyone who creates a project could aim them at the server's own host.
   */
  appOnLoopback: boolean;
  /** How often this process reads the revocation feed's new rows while one of its streams is open. */
  revocationPollMs: number;
  /** How often an open revocation stream gets a comment line, so proxies and clients see it is alive. */
  revocationHeartbeatMs: number;
  /** How often this process looks for due webhook deliveries; 0: never (another process delivers). */
  webhookPollMs: number;
  /**
   * How long a claimed webhook delivery is leased to the instance sending it; past it another instance
   * takes it over (how soon a delivery whose sender died is sent again). Keep it above the 10 s
   * delivery timeout: a shorter one lets a slow delivery be sent twice.
   */
  webhookLeaseS: number;
  /** How often this process looks for due mails in the outbox (besides right after its own commits); 0: never. */
  mailPollMs: number;
  /**
   * How long a claimed mail is leased to the instance sending it. Keep it above the SMTP timeouts
   * (mailer.ts): a shorter one lets a slow delivery be sent twice.
   */
  mailLeaseS: number;
  /** Sent mails are deleted, and failed ones' bodies dropped, this many days after they were queued. */
  mailRetentionDays: number;
}>;

/** One provider's client: the platform's from the environment, or a project's from its settings. */
export interface ConnectionSettings {
  provider: SocialProvider;
  /** The button's name. */
  name: string;
  clientId: string;
  clientSecret: string;
  /** Google, Microsoft, OpenID Connect: the issuer, found by discovery. */
  issuer: string | null;
  /** GitHub: its OAuth endpoints and API. */
  github: { authorizeUrl: string; tokenUrl: string; apiUrl: string } | null;
  /** Reached at public addresses only: a project's connection (its developer chose the URLs), unless CONNECTIONS_ALLOW_PRIVATE. */
  publicOnly?: boolean;
}

/** The providers whose client id and secret are both set; one without the other names the missing variable. */
function socialConnectionsOf(e: Env): ConnectionSettings[] {
  const pair = (prefix: 'GITHUB' | 'GOOGLE' | 'MICROSOFT' | 'OIDC') => {
    const clientId = e[`${prefix}_CLIENT_ID`];
    const clientSecret = e[`${prefix}_CLIENT_SECRET`];
    if (!clientId && !clientSecret) return null;
    if (!clientId) throw new ConfigError(`${prefix}_CLIENT_ID: required when ${prefix}_CLIENT_SECRET is set`);
    if (!clientSecret) throw new ConfigError(`${prefix}_CLIENT_SECRET: required when ${prefix}_CLIENT_ID is set`);
    return { clientId, clientSecret };
  };
  const connections: ConnectionSettings[] = [];
  const github = pair('GITHUB');
  if (github) {
    const defaults = SOCIAL_PROVIDER_DEFAULTS.github;
    connections.push({
      provider: 'github',
      name: SOCIAL_PROVIDER_NAMES.github,
      ...github,
      issuer: null,
      github: {
        authorizeUrl: e.GITHUB_AUTHORIZE_URL ?? defaults.authorize_url,
        tokenUrl: e.GITHUB_TOKEN_URL ?? defaults.token_url,
        apiUrl: e.GITHUB_API_URL ?? defaults.api_url,
      },
    });
  }
  for (const provider of ['google', 'microsoft'] as const) {
    const prefix = provider === 'google' ? 'GOOGLE' : 'MICROSOFT';
    const client = pair(prefix);
    if (client) connections.push({ provider, name: SOCIAL_PROVIDER_NAMES[provider], ...client, issuer: e[`${prefix}_ISSUER`] ?? SOCIAL_PROVIDER_DEFAULTS[provider].issuer, github: null });
  }
  const oidc = pair('OIDC');
  if (oidc) {
    if (!e.OIDC_ISSUER) throw new ConfigError('OIDC_ISSUER: required when OIDC_CLIENT_ID is set');
    connections.push({ provider: 'oidc', name: e.OIDC_NAME ?? SOCIAL_PROVIDER_NAMES.oidc, ...oidc, issuer: e.OIDC_ISSUER, github: null });
  } else if (e.OIDC_ISSUER) {
    throw new ConfigError('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  }
  return connections;
}

export class ConfigError extends Error {}

/** BCRYPT_COST below 10 is only allowed outside production (the tests use 4 for speed). */
const MIN_PRODUCTION_BCRYPT_COST = 10;

export function parseDatabaseUrl(value: string | undefined, dataDir: string): DatabaseTarget {
  if (!value) return { kind: 'sqlite', file: path.join(dataDir, 'authplatform.sqlite') };
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  if (value.startsWith('sqlite:')) return { kind: 'sqlite', file: value.slice('sqlite:'.length).replace(/^\/\//, '') };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new ConfigError('DATABASE_URL: expected postgres://…, sqlite:PATH or a file path');
  return { kind: 'sqlite', file: value };
}

/** Parses the environment once. Throws ConfigError with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: { allowWeakHashing?: boolean } = {}): Config {
  const result = EnvSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const shown = env[name] === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name])})`;
    throw new ConfigError(`${name}: ${issue.message}${shown}`);
  }
  const e = result.data;
  if (e.BCRYPT_COST < MIN_PRODUCTION_BCRYPT_COST && !overrides.allowWeakHashing) {
    throw new ConfigError(`BCRYPT_COST: must be at least ${MIN_PRODUCTION_BCRYPT_COST} (got ${e.BCRYPT_COST})`);
  }
  const database = parseDatabaseUrl(e.DATABASE_URL, e.DATA_DIR);
  if (e.WORKERS > 1 && database.kind === 'sqlite' && database.file === ':memory:') {
    throw new ConfigError(`WORKERS: an in-memory SQLite database cannot be shared by several processes (got ${e.WORKERS}); use a file or PostgreSQL`);
  }
  if (['turnstile', 'hcaptcha', 'recaptcha'].includes(e.CAPTCHA_PROVIDER)) {
    if (!e.CAPTCHA_SECRET) throw new ConfigError(`CAPTCHA_SECRET: required when CAPTCHA_PROVIDER is ${e.CAPTCHA_PROVIDER}`);
    if (!e.CAPTCHA_SITE_KEY) throw new ConfigError(`CAPTCHA_SITE_KEY: required when CAPTCHA_PROVIDER is ${e.CAPTCHA_PROVIDER}`);
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    workers: e.WORKERS,
    appUrl,
    dataDir: e.DATA_DIR,
    database,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    adminEmails: Object.freeze(e.ADMIN_EMAILS.map((email) => email.toLowerCase())),
    corsOrigins: Object.freeze(e.CORS_ORIGINS.map((origin) => new URL(origin).origin)),
    accessTokenTtlS: e.ACCESS_TOKEN_TTL,
    refreshTokenTtlS: e.REFRESH_TOKEN_TTL,
    bcryptCost: e.BCRYPT_COST,
    trustProxy: e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    refreshReuseIntervalS: e.REFRESH_REUSE_INTERVAL,
    stepUpWindowS: e.STEP_UP_WINDOW_S,
    loginAttemptsRetentionDays: e.LOGIN_ATTEMPTS_RETENTION_DAYS,
    apiUsageFlushMs: e.API_USAGE_FLUSH_MS,
    logMailLinks: isLoopbackUrl(appUrl),
    rateLimits: e.RATE_LIMITS,
    redisUrl: e.REDIS_URL ?? null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    jwtPrivateKey: e.JWT_PRIVATE_KEY ?? null,
    masterKey: e.MASTER_KEY ?? null,
    blockVpn: e.BLOCK_VPN,
    platformEmailCode: e.PLATFORM_EMAIL_CODE,
    ipDataDir: e.IP_DATA_DIR ?? null,
    importSpoolDir: e.IMPORT_SPOOL_DIR ?? path.join(e.DATA_DIR, 'import-spool'),
    captcha: Object.freeze({ provider: e.CAPTCHA_PROVIDER, siteKey: e.CAPTCHA_SITE_KEY, secret: e.CAPTCHA_SECRET, verifyUrl: e.CAPTCHA_VERIFY_URL ?? null }),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    site: Object.freeze({ landingPage: e.LANDING_PAGE, privacyUrl: e.PRIVACY_URL ?? null, termsUrl: e.TERMS_URL ?? null }),
    socialConnections: Object.freeze(socialConnectionsOf(e)),
    connectionsAllowPrivate: e.CONNECTIONS_ALLOW_PRIVATE,
    metricsToken: e.METRICS_TOKEN || null,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    ssoDomainVerification: e.SSO_DOMAIN_VERIFICATION,
    appOnLoopback: isLoopbackUrl(appUrl),
    webhookPollMs: e.WEBHOOK_POLL_MS,
    revocationPollMs: e.REVOCATION_POLL_MS,
    revocationHeartbeatMs: e.REVOCATION_HEARTBEAT_MS,
    webhookLeaseS: e.WEBHOOK_LEASE_S,
    mailPollMs: e.MAIL_POLL_MS,
    mailLeaseS: e.MAIL_LEASE_S,
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
  });
}

/** localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

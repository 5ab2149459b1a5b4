import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import { sha256 } from './crypto.js';

/**
 * A named budget of points per key and window: in this process's memory for one instance, or in
 * Redis (REDIS_URL) so that several instances spend from one budget.
 */
export interface Limiter {
  /** The budget it spends from; null when limits are off (RATE_LIMITS=off). */
  readonly rule: LimitRule | null;
  /** Spends a point; 429 when the budget is gone. Spending before the work makes a parallel burst count in full. */
  consume(key: string): Promise<void>;
  /** Gives one spent point back (the attempt it paid for turned out fine). */
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export interface LimitRule {
  points: number;
  durationS: number;
  /** What the refusal says; the generic text otherwise. */
  detail?: string;
}

/**
 * Per-address budgets count a client's network (an IPv4 address or an IPv6 /64); per-account ones
 * the account within its realm. Wrong-password budgets are spent before hashing and refunded on success.
 */
export const DEFAULT_LIMITS = {
  loginPerIp: { points: 30, durationS: 60 },
  /** Failed passwords for one account from one network: a stranger exhausts only their own. */
  loginFailuresPerAccountAndIp: {
    points: 10,
    durationS: 15 * 60,
    detail: 'Too many failed sign-in attempts for this account from your network. Try again later, or reset your password.',
  },
  /** Failed passwords for one account from anywhere (NIST SP 800-63B's bound); past it a captcha, or 429 without a provider. */
  loginFailuresPerAccount: {
    points: 100,
    durationS: 60 * 60,
    detail: 'Too many failed sign-in attempts for this account. Try again later, or reset your password.',
  },
  /** Change of password and account deletion check the current password with bcrypt too. */
  passwordCheckPerIp: { points: 30, durationS: 60 },
  wrongCurrentPasswordPerAccount: { points: 5, durationS: 15 * 60, detail: 'Too many wrong passwords. Try again later.' },
  /**
   * Wrong second-factor codes for one account from one network, across its mfa_tokens (someone with
   * the password can open as many as they like): a stranger exhausts only their own network's.
   */
  wrongMfaCodesPerAccountAndIp: { points: 10, durationS: 15 * 60, detail: 'Too many wrong codes from your network. Try again later.' },
  /**
   * Wrong codes for one account from anywhere: at most 100 guesses a day, so a 6-digit code (three
   * steps accepted at a time) holds about 3,300 days on average against a botnet that knows the password.
   */
  wrongMfaCodesPerAccount: { points: 100, durationS: 24 * 60 * 60, detail: 'Too many wrong codes for this account. Try again later, or use a passkey.' },
  /** Changes of address one account asks for (each mails two addresses), after its password was right. */
  emailChangePerAccount: { points: 5, durationS: 60 * 60, detail: 'Too many email change requests. Try again later.' },
  /** Step-up codes mailed to one account without a password (like resends of a verification link). */
  stepUpCodesPerAccount: { points: 3, durationS: 15 * 60, detail: 'Too many codes asked for. Try again later.' },
  /** Wrong step-up codes for one account: 5 guesses per 15 minutes, a code's whole life, against a million codes. */
  wrongStepUpCodesPerAccount: { points: 5, durationS: 15 * 60, detail: 'Too many wrong codes. Try again later.' },
  /** Sign-in codes and magic links mailed (asked for by anyone who types an address): per network, and per address in the realm. */
  emailSignInsPerIp: { points: 10, durationS: 15 * 60 },
  emailSignInsPerAccount: { points: 3, durationS: 15 * 60, detail: 'Too many codes or links asked for. Try again later.' },
  /**
   * Wrong sign-in codes for one address from anywhere, across its codes: 5 per code (a code's own
   * budget) and at most 20 an hour, so a million codes hold against a botnet.
   */
  wrongEmailCodesPerAccount: { points: 20, durationS: 60 * 60, detail: 'Too many wrong codes. Try again later.' },
  signupPerIp: { points: 10, durationS: 60 * 60 },
  forgotPerIp: { points: 10, durationS: 15 * 60 },
  forgotPerAccount: { points: 3, durationS: 15 * 60 },
  resendPerIp: { points: 10, durationS: 15 * 60 },
  resendPerAccount: { points: 3, durationS: 15 * 60 },
  refreshPerIp: { points: 120, durationS: 60 },
  verifyPerIp: { points: 30, durationS: 15 * 60 },
  captchaChallengePerIp: { points: 60, durationS: 60 },
  /** The hosted sign-in's home-realm discovery (asked as an address is typed): per client network in the realm. */
  ssoDiscoveryPerIp: { points: 60, durationS: 60 },
  /** Mails of one kind (verification, sign-up notice, reset) one address receives, across all realms. */
  mailPerRecipient: { points: 5, durationS: 60 * 60 },
  /** Each project's public API, whatever X-End-User-IP says: sized for a real app's peak. */
  projectSignups: { points: 300, durationS: 60 },
  projectLogins: { points: 1200, durationS: 60 },
  projectPasswordResets: { points: 120, durationS: 60 },
  projectVerificationResends: { points: 120, durationS: 60 },
  /**
   * Starts that leave a row waiting without a session (a passkey sign-in's ceremony, an authorization
   * request waiting for the hosted sign-in, a sign-in sent to a provider): per client network in the
   * realm and per project. They also cap the rows waiting (modules/pending/pending-rows.ts).
   */
  passkeyOptionsPerIp: { points: 30, durationS: 60 },
  passkeyOptionsPerProject: { points: 1200, durationS: 60 },
  authorizePerIp: { points: 30, durationS: 60 },
  authorizePerProject: { points: 600, durationS: 60 },
  socialStartPerIp: { points: 30, durationS: 60 },
  socialStartPerProject: { points: 600, durationS: 60 },
  /**
   * The token endpoint's machine grants. Client credentials: per client network in the realm (wrong
   * secrets included, spent before the secret is checked), like the refresh of the other token calls.
   * Device authorization starts leave a row waiting (pending-rows.ts).
   */
  clientCredentialsPerIp: { points: 120, durationS: 60 },
  deviceAuthorizationPerIp: { points: 30, durationS: 60 },
  deviceAuthorizationPerProject: { points: 600, durationS: 60 },
  /**
   * User codes typed on the hosted device page: every lookup per network (spent before the lookup), and
   * wrong ones per project from anywhere. A guess finds one of the N codes waiting with a chance of
   * N / 20^8: with 100 waiting, the project's 1,000 wrong codes an hour give about 1 in 10,000 a day.
   */
  deviceCodeEntriesPerIp: { points: 20, durationS: 15 * 60, detail: 'Too many codes tried. Try again later.' },
  wrongDeviceCodesPerProject: { points: 1000, durationS: 60 * 60, detail: 'Too many wrong codes. Try again later.' },
  /**
   * Wrong SCIM bearer tokens, per client network and connection (spent before the check, refunded when the
   * token is right): an IdP's shared egress addresses serve many tenants, so one tenant's stale token does
   * not lock out the others' connections.
   */
  wrongScimTokensPerIp: { points: 20, durationS: 15 * 60, detail: 'Too many wrong SCIM tokens. Try again later.' },
  machineClientChangesPerUser: { points: 30, durationS: 60, detail: 'Too many machine client changes. Try again later.' },
  /**
   * Changes to a project's configuration, per developer, REST and tRPC alike: each writes an audit entry
   * kept for ever and drops cached copies on every instance. Past what a person or a sync script needs.
   */
  projectUpdatesPerUser: { points: 30, durationS: 60, detail: 'Too many project changes. Try again later.' },
  projectSettingsUpdatesPerUser: { points: 30, durationS: 60, detail: 'Too many settings changes. Try again later.' },
  webhookChangesPerUser: { points: 30, durationS: 60, detail: 'Too many webhook changes. Try again later.' },
  connectionChangesPerUser: { points: 30, durationS: 60, detail: 'Too many sign-in connection changes. Try again later.' },
  /** Webhook test events and resends, per developer: each makes this server send a request to an address the developer chose. */
  webhookSendsPerUser: { points: 10, durationS: 60, detail: 'Too many test events and resends. Try again later.' },
  /** Test mails of a project's end-user mails, per developer: each goes to the developer's own address. */
  mailTestsPerUser: { points: 5, durationS: 60, detail: 'Too many test mails. Try again later.' },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
export type Limiters = Record<LimitName, Limiter>;

const TOO_MANY = 'Too many requests. Please try again later.';

/** `keyOf` turns a caller's key (an address, an e-mail) into the store's key. */
function wrap(store: RateLimiterAbstract, rule: LimitRule, keyOf = (key: string) => key): Limiter {
  const tooMany = (msBeforeNext: number) =>
    new AppError('TOO_MANY_REQUESTS', rule.detail ?? TOO_MANY, { retryAfterS: Math.max(1, Math.ceil(msBeforeNext / 1000)) });
  return {
    rule,
    async consume(key) {
      try {
        await store.consume(keyOf(key));
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooMany(error.msBeforeNext);
        throw error;
      }
    },
    async refund(key) {
      await store.reward(keyOf(key), 1);
    },
    async reset(key) {
      await store.delete(keyOf(key));
    },
  };
}

const unlimited: Limiter = { rule: null, consume: async () => {}, refund: async () => {}, reset: async () => {} };

export interface SharedStore {
  redis: Redis;
  keyPrefix: string;
}

/**
 * One limiter per rule. With a shared store, each limiter keeps its counters in Redis and falls back
 * to this instance's memory (rate-limiter-flexible's insurance limiter) whenever Redis does not answer.
 */
export function createLimiters(rules: Partial<Record<LimitName, LimitRule>> = {}, enabled = true, shared: SharedStore | null = null): Limiters {
  const entries = (Object.keys(DEFAULT_LIMITS) as LimitName[]).map((name) => {
    if (!enabled) return [name, unlimited] as const;
    const rule: LimitRule = { ...DEFAULT_LIMITS[name], ...rules[name] };
    const memory = new RateLimiterMemory({ keyPrefix: name, points: rule.points, duration: rule.durationS });
    const store = shared
      ? new RateLimiterRedis({
          storeClient: shared.redis,
          keyPrefix: `${shared.keyPrefix}limit:${name}`,
          points: rule.points,
          duration: rule.durationS,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    // Redis keys are hashed: e-mail addresses and client IPs stay out of a store other systems may read.
    return [name, wrap(store, rule, shared ? sha256 : undefined)] as const;
  });
  return Object.fromEntries(entries) as Limiters;
}

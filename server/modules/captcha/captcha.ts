import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type DeriveKeyFunction, type Solution } from 'altcha-lib';
import { deriveKey as derivePbkdf2 } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey as deriveSha } from 'altcha-lib/algorithms/sha';
import { memorySpentTokens, SpentTokens, type SpentTokenStore } from './spent-tokens.js';

export interface CaptchaConfig {
  enabled: boolean;
  provider: string;
  site_key: string;
}

/** A signed ALTCHA (v2) challenge, as the widget expects it from the challenge URL. */
export type AltchaChallenge = Challenge;

export interface CaptchaVerifier {
  config(): CaptchaConfig;
  /** True when the token is valid and unused; a token works once. Never throws; any failure is false. */
  verify(token: string, remoteIp: string): Promise<boolean>;
  /** Only for provider 'altcha': a fresh signed challenge, to serve at GET /api/v1/captcha/challenge (Cache-Control: no-store). */
  createChallenge?(): Promise<AltchaChallenge>;
}

export const CAPTCHA_PROVIDERS = ['none', 'altcha', 'turnstile', 'hcaptcha', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];
type RemoteProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

export const DEFAULT_VERIFY_URLS: Readonly<Record<RemoteProvider, string>> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** CAPTCHA_PROVIDER as written in the environment: case and spaces ignored, empty means 'none'; null when unknown. */
export function parseCaptchaProvider(raw: string | null | undefined): CaptchaProvider | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'none';
  return (CAPTCHA_PROVIDERS as readonly string[]).includes(value) ? (value as CaptchaProvider) : null;
}

export interface AltchaOptions {
  /** Key derivation the client must repeat; default 'PBKDF2/SHA-256'. */
  algorithm?: 'PBKDF2/SHA-256' | 'PBKDF2/SHA-384' | 'PBKDF2/SHA-512' | 'SHA-256' | 'SHA-384' | 'SHA-512';
  /** Iterations per attempt; default 5,000 (altcha-lib's default). */
  cost?: number;
  /**
   * The secret counter is drawn from [counterMin, counterMax]; the client derives a key for every counter
   * from 0 up to it. Defaults 1,000–3,000: with cost 5,000 one attempt is ~1.3 ms, so ~2.6 s on one core
   * and well under a second with the widget's workers. (altcha-lib's README example uses 5,000–10,000.)
   */
  counterMin?: number;
  counterMax?: number;
  /** Seconds a challenge stays solvable; default 300. */
  expiresInS?: number;
}

export interface CaptchaOptions {
  provider: CaptchaProvider;
  /** Public key the widget needs (turnstile, hcaptcha, recaptcha); shown by config(). */
  siteKey: string;
  /** Provider secret (remote providers) or HMAC secret for ALTCHA challenges; for altcha an empty one is replaced by a random one. */
  secret: string;
  /** Overrides the provider's siteverify URL (CAPTCHA_VERIFY_URL); null for the default. */
  verifyUrl: string | null;
  clock?: { now(): Date };
  /** Remote verification timeout; default 5,000 ms. */
  timeoutMs?: number;
  altcha?: AltchaOptions;
  /** Bound on remembered spent tokens; default 100,000. */
  maxRememberedTokens?: number;
  /** Where spent tokens are kept; default this process's memory. */
  spentTokens?: (memory: SpentTokens) => SpentTokenStore;
}

/** Tokens longer than this are refused unread (Turnstile's are ≤ 2,048 characters, hCaptcha's a few thousand). */
const MAX_TOKEN_LENGTH = 16_384;
/** How long an accepted remote token is remembered: the providers' tokens live 2–5 minutes. */
const REMOTE_TOKEN_MEMORY_MS = 10 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_REMEMBERED = 100_000;

const systemClock = { now: () => new Date() };

export function createCaptchaVerifier(
  options: CaptchaOptions = { provider: 'none', siteKey: '', secret: '', verifyUrl: null },
): CaptchaVerifier {
  const clock = options.clock ?? systemClock;
  const memory = new SpentTokens(() => clock.now().getTime(), options.maxRememberedTokens ?? DEFAULT_MAX_REMEMBERED);
  const spent = options.spentTokens ? options.spentTokens(memory) : memorySpentTokens(memory);
  switch (options.provider) {
    case 'none':
      return {
        config: () => ({ enabled: false, provider: 'none', site_key: '' }),
        verify: async () => true,
      };
    case 'altcha':
      return createAltchaVerifier(options, clock, spent);
    case 'turnstile':
    case 'hcaptcha':
    case 'recaptcha':
      return createRemoteVerifier(options.provider, options, clock, spent);
    default:
      throw new Error(`CAPTCHA_PROVIDER: unknown provider ${JSON.stringify(options.provider)} (expected one of ${CAPTCHA_PROVIDERS.join(', ')})`);
  }
}

function isUsableToken(token: unknown): token is string {
  return typeof token === 'string' && token.trim() !== '' && token.length <= MAX_TOKEN_LENGTH;
}

function createRemoteVerifier(
  provider: RemoteProvider,
  options: CaptchaOptions,
  clock: { now(): Date },
  spent: SpentTokenStore,
): CaptchaVerifier {
  if (!options.secret) throw new Error(`CAPTCHA_SECRET: required for CAPTCHA_PROVIDER=${provider}`);
  if (!options.siteKey) throw new Error(`CAPTCHA_SITE_KEY: required for CAPTCHA_PROVIDER=${provider}`);
  const url = options.verifyUrl || DEFAULT_VERIFY_URLS[provider];
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new Error(`CAPTCHA_VERIFY_URL: not an http(s) URL (got ${JSON.stringify(url)})`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const config: CaptchaConfig = Object.freeze({ enabled: true, provider, site_key: options.siteKey });

  async function askProvider(token: string, remoteIp: string): Promise<boolean> {
    const form = new URLSearchParams({ secret: options.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    // hCaptcha checks that the token was issued for this site key when it is sent.
    if (provider === 'hcaptcha') form.set('sitekey', options.siteKey);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return false;
    }
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true;
  }

  return {
    config: () => config,
    async verify(token, remoteIp) {
      if (!isUsableToken(token)) return false;
      const key = createHash('sha256').update(token).digest('base64url');
      if (await spent.has(key)) return false;
      try {
        if (!(await askProvider(token, typeof remoteIp === 'string' ? remoteIp : ''))) return false;
      } catch {
        return false; // network error, timeout, bad JSON: fail closed
      }
      return spent.spend(key, clock.now().getTime() + REMOTE_TOKEN_MEMORY_MS);
    },
  };
}

const DERIVE_KEY: Record<NonNullable<AltchaOptions['algorithm']>, DeriveKeyFunction> = {
  'PBKDF2/SHA-256': derivePbkdf2,
  'PBKDF2/SHA-384': derivePbkdf2,
  'PBKDF2/SHA-512': derivePbkdf2,
  'SHA-256': deriveSha,
  'SHA-384': deriveSha,
  'SHA-512': deriveSha,
};

interface AltchaPayload {
  challenge: Challenge;
  solution: Solution;
}

/** The widget submits base64(JSON {challenge, solution}); anything else is null. */
function decodeAltchaPayload(token: string): AltchaPayload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const { challenge, solution } = value as Partial<AltchaPayload>;
    if (typeof challenge !== 'object' || challenge === null || typeof challenge.signature !== 'string') return null;
    if (typeof challenge.parameters !== 'object' || challenge.parameters === null) return null;
    if (typeof solution !== 'object' || solution === null) return null;
    if (typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

function createAltchaVerifier(options: CaptchaOptions, clock: { now(): Date }, spent: SpentTokenStore): CaptchaVerifier {
  const master = options.secret || randomBytes(32).toString('hex');
  // Two keys from one secret: one signs the challenge parameters, the other the expected derived key.
  const signatureSecret = createHmac('sha256', master).update('altcha/challenge-signature').digest('hex');
  const keySignatureSecret = createHmac('sha256', master).update('altcha/key-signature').digest('hex');
  const algorithm = options.altcha?.algorithm ?? 'PBKDF2/SHA-256';
  const deriveKey = DERIVE_KEY[algorithm];
  if (!deriveKey) throw new Error(`altcha: unsupported algorithm ${JSON.stringify(algorithm)}`);
  const cost = options.altcha?.cost ?? 5_000;
  const counterMin = options.altcha?.counterMin ?? 1_000;
  const counterMax = options.altcha?.counterMax ?? 3_000;
  const expiresInS = options.altcha?.expiresInS ?? 300;
  if (!(Number.isInteger(counterMin) && counterMin >= 0 && counterMax >= counterMin)) throw new Error('altcha: counterMin..counterMax is not a range');
  const config: CaptchaConfig = Object.freeze({ enabled: true, provider: 'altcha', site_key: options.siteKey });

  return {
    config: () => config,
    async createChallenge() {
      const expiresAt = Math.floor(clock.now().getTime() / 1000) + expiresInS;
      return createChallenge({
        algorithm,
        cost,
        counter: randomInt(counterMax, counterMin),
        deriveKey,
        expiresAt,
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },
    async verify(token) {
      if (!isUsableToken(token)) return false;
      const payload = decodeAltchaPayload(token);
      if (!payload) return false;
      const { challenge, solution } = payload;
      const expiresAt = challenge.parameters.expiresAt;
      // Every challenge we issue expires; one without expiresAt was not made here (the signature check would say so too).
      if (typeof expiresAt !== 'number' || expiresAt * 1000 <= clock.now().getTime()) return false;
      const key = challenge.signature!;
      if (await spent.has(key)) return false;
      try {
        const result = await verifySolution({
          challenge,
          solution,
          deriveKey,
          hmacSignatureSecret: signatureSecret,
          hmacKeySignatureSecret: keySignatureSecret,
        });
        if (!result.verified) return false;
      } catch {
        return false;
      }
      return spent.spend(key, expiresAt * 1000);
    },
  };
}

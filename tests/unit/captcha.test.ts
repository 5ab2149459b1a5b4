import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge } from 'altcha-lib';
import { deriveKey as derivePbkdf2 } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey as deriveSha } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCaptchaVerifier,
  DEFAULT_VERIFY_URLS,
  parseCaptchaProvider,
  type AltchaChallenge,
  type CaptchaOptions,
} from '../../server/modules/captcha/captcha.js';
import { SpentTokens } from '../../server/modules/captcha/spent-tokens.js';

const SECRET = 'test-secret-0123456789';
const SITE_KEY = 'test-site-key';

/** A clock the test moves by hand, starting at the real time (altcha-lib also checks expiry against Date.now()). */
function testClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
  };
}

describe('parseCaptchaProvider', () => {
  it('reads the environment spelling', () => {
    expect(parseCaptchaProvider(undefined)).toBe('none');
    expect(parseCaptchaProvider('')).toBe('none');
    expect(parseCaptchaProvider(' Turnstile ')).toBe('turnstile');
    expect(parseCaptchaProvider('ALTCHA')).toBe('altcha');
    expect(parseCaptchaProvider('hcaptcha')).toBe('hcaptcha');
    expect(parseCaptchaProvider('recaptcha')).toBe('recaptcha');
    expect(parseCaptchaProvider('friendlycaptcha')).toBeNull();
  });
});

describe('provider none', () => {
  it('is disabled and lets everything through', async () => {
    for (const verifier of [createCaptchaVerifier(), createCaptchaVerifier({ provider: 'none', siteKey: 'x', secret: 'y', verifyUrl: null })]) {
      expect(verifier.config()).toEqual({ enabled: false, provider: 'none', site_key: '' });
      expect(await verifier.verify('', '203.0.113.1')).toBe(true);
      expect(await verifier.verify('anything', '')).toBe(true);
      expect(verifier.createChallenge).toBeUndefined();
    }
  });
});

// A stand-in for the providers' siteverify endpoints.
interface Received {
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}
let server: Server;
let base: string;
const received: Received[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const path = req.url ?? '/';
    received.push({ path, contentType: req.headers['content-type'], form });
    if (path === '/slow') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'), 1_000).unref();
      return;
    }
    if (path === '/error') return void res.writeHead(500).end('{"success":true}');
    if (path === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>ok</html>');
    if (path === '/redirect') return void res.writeHead(302, { location: '/siteverify' }).end();
    const success = form.secret === SECRET && typeof form.response === 'string' && form.response.startsWith('good-');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(success ? { success: true, hostname: 'localhost' } : { success: false, 'error-codes': ['invalid-input-response'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

describe.each(['turnstile', 'hcaptcha', 'recaptcha'] as const)('provider %s', (provider) => {
  const options = (overrides: Partial<CaptchaOptions> = {}): CaptchaOptions => ({
    provider,
    siteKey: SITE_KEY,
    secret: SECRET,
    verifyUrl: `${base}/siteverify`,
    ...overrides,
  });

  it('shows its site key', () => {
    expect(createCaptchaVerifier(options()).config()).toEqual({ enabled: true, provider, site_key: SITE_KEY });
    expect(createCaptchaVerifier(options()).createChallenge).toBeUndefined();
  });

  it('posts secret, response and remote ip as a form and accepts success: true', async () => {
    const verifier = createCaptchaVerifier(options());
    expect(await verifier.verify('good-token-1', '198.51.100.23')).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/siteverify');
    expect(received[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(received[0]!.form).toEqual({
      secret: SECRET,
      response: 'good-token-1',
      remoteip: '198.51.100.23',
      ...(provider === 'hcaptcha' ? { sitekey: SITE_KEY } : {}),
    });
  });

  it('a token works once, even though the provider would accept it again', async () => {
    const verifier = createCaptchaVerifier(options());
    expect(await verifier.verify('good-token-2', '198.51.100.23')).toBe(true);
    expect(await verifier.verify('good-token-2', '198.51.100.23')).toBe(false);
    expect(await verifier.verify('good-token-2', '203.0.113.9')).toBe(false);
    expect(received).toHaveLength(1); // the replays never reached the provider
  });

  it('two racing submissions of one token: only one wins', async () => {
    const verifier = createCaptchaVerifier(options());
    const results = await Promise.all([verifier.verify('good-race', '198.51.100.1'), verifier.verify('good-race', '198.51.100.1')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('a token the provider rejects is false', async () => {
    const verifier = createCaptchaVerifier(options());
    expect(await verifier.verify('bad-token', '198.51.100.23')).toBe(false);
    expect(received).toHaveLength(1);
  });

  it('a wrong secret is false', async () => {
    const verifier = createCaptchaVerifier(options({ secret: 'not-the-secret' }));
    expect(await verifier.verify('good-token-3', '198.51.100.23')).toBe(false);
    expect(received[0]!.form.secret).toBe('not-the-secret');
  });

  it('an empty token is false without calling anyone', async () => {
    const verifier = createCaptchaVerifier(options());
    expect(await verifier.verify('', '198.51.100.23')).toBe(false);
    expect(await verifier.verify('   ', '198.51.100.23')).toBe(false);
    expect(await verifier.verify(undefined as unknown as string, '198.51.100.23')).toBe(false);
    expect(await verifier.verify('good-' + 'x'.repeat(20_000), '198.51.100.23')).toBe(false);
    expect(received).toHaveLength(0);
  });

  it('leaves remoteip out when there is none', async () => {
    const verifier = createCaptchaVerifier(options());
    expect(await verifier.verify('good-token-4', '')).toBe(true);
    expect(received[0]!.form).not.toHaveProperty('remoteip');
  });

  it('fails closed when the provider is down, slow, broken or redirects', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/siteverify`;
    await new Promise((resolve) => closed.close(resolve));

    expect(await createCaptchaVerifier(options({ verifyUrl: deadUrl })).verify('good-down', '198.51.100.23')).toBe(false);
    const started = Date.now();
    expect(await createCaptchaVerifier(options({ verifyUrl: `${base}/slow`, timeoutMs: 200 })).verify('good-slow', '198.51.100.23')).toBe(false);
    expect(Date.now() - started).toBeLessThan(900);
    expect(await createCaptchaVerifier(options({ verifyUrl: `${base}/error` })).verify('good-500', '198.51.100.23')).toBe(false);
    expect(await createCaptchaVerifier(options({ verifyUrl: `${base}/html` })).verify('good-html', '198.51.100.23')).toBe(false);
    expect(await createCaptchaVerifier(options({ verifyUrl: `${base}/redirect` })).verify('good-redirect', '198.51.100.23')).toBe(false);
  });

  it('a token failed by an outage can be used once the provider is back', async () => {
    const verifier = createCaptchaVerifier(options({ verifyUrl: `${base}/error` }));
    expect(await verifier.verify('good-later', '198.51.100.23')).toBe(false);
    expect(await createCaptchaVerifier(options()).verify('good-later', '198.51.100.23')).toBe(true);
  });

  it('forgets accepted tokens after ten minutes', async () => {
    const clock = testClock();
    const verifier = createCaptchaVerifier(options({ clock }));
    expect(await verifier.verify('good-token-5', '198.51.100.23')).toBe(true);
    clock.advance(9 * 60);
    expect(await verifier.verify('good-token-5', '198.51.100.23')).toBe(false);
    clock.advance(2 * 60);
    expect(await verifier.verify('good-token-5', '198.51.100.23')).toBe(true); // only the provider's own expiry stops it now
  });

  it('refuses to start without a secret or site key, or with a bad URL', () => {
    expect(() => createCaptchaVerifier(options({ secret: '' }))).toThrow(/CAPTCHA_SECRET/);
    expect(() => createCaptchaVerifier(options({ siteKey: '' }))).toThrow(/CAPTCHA_SITE_KEY/);
    expect(() => createCaptchaVerifier(options({ verifyUrl: 'ftp://example.com/x' }))).toThrow(/CAPTCHA_VERIFY_URL/);
    expect(() => createCaptchaVerifier(options({ verifyUrl: null }))).not.toThrow();
  });

  it('defaults to the provider\'s own siteverify URL', () => {
    expect(DEFAULT_VERIFY_URLS[provider]).toMatch(/^https:\/\/.+\/siteverify$/);
  });
});

describe('provider altcha', () => {
  const fast = { algorithm: 'SHA-256', cost: 1, counterMin: 1, counterMax: 200 } as const;

  function altcha(overrides: Partial<CaptchaOptions> = {}) {
    return createCaptchaVerifier({ provider: 'altcha', siteKey: '', secret: SECRET, verifyUrl: null, altcha: fast, ...overrides });
  }

  async function solve(challenge: AltchaChallenge, algorithm: 'SHA' | 'PBKDF2' = 'SHA') {
    const solution = await solveChallenge({ challenge, deriveKey: algorithm === 'SHA' ? deriveSha : derivePbkdf2, timeout: 15_000 });
    if (!solution) throw new Error('could not solve the challenge');
    return { challenge, solution };
  }

  const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

  it('is enabled and serves signed, expiring challenges', async () => {
    const clock = testClock();
    const verifier = altcha({ clock });
    expect(verifier.config()).toEqual({ enabled: true, provider: 'altcha', site_key: '' });
    const challenge = await verifier.createChallenge!();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1 });
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    const expiresIn = challenge.parameters.expiresAt! - clock.now().getTime() / 1000;
    expect(expiresIn).toBeGreaterThan(290);
    expect(expiresIn).toBeLessThanOrEqual(300);
  });

  it('a solved challenge verifies once', async () => {
    const verifier = altcha();
    const token = encode(await solve(await verifier.createChallenge!()));
    expect(await verifier.verify(token, '198.51.100.23')).toBe(true);
    expect(await verifier.verify(token, '198.51.100.23')).toBe(false);
  });

  it('two racing submissions of one solution: only one wins', async () => {
    const verifier = altcha();
    const token = encode(await solve(await verifier.createChallenge!()));
    const results = await Promise.all([verifier.verify(token, ''), verifier.verify(token, ''), verifier.verify(token, '')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('works with the default PBKDF2 algorithm', async () => {
    const verifier = altcha({ altcha: { cost: 10, counterMin: 1, counterMax: 50 } });
    const challenge = await verifier.createChallenge!();
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(await verifier.verify(encode(await solve(challenge, 'PBKDF2')), '')).toBe(true);
  });

  it('tampered payloads are refused', async () => {
    const verifier = altcha();
    const good = await solve(await verifier.createChallenge!());
    const variants = [
      { ...good, solution: { ...good.solution, derivedKey: good.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')) } },
      { ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, expiresAt: good.challenge.parameters.expiresAt! + 3600 } } },
      { ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, cost: 2 } } },
      { ...good, challenge: { ...good.challenge, signature: 'f'.repeat(64) } },
      { ...good, challenge: { parameters: good.challenge.parameters } },
      { challenge: good.challenge },
    ];
    for (const variant of variants) expect(await verifier.verify(encode(variant), '')).toBe(false);
    // The untouched payload still works: the failures above did not spend it.
    expect(await verifier.verify(encode(good), '')).toBe(true);
  });

  it('a challenge signed with another secret is refused', async () => {
    const other = altcha({ secret: 'another-secret' });
    const verifier = altcha();
    const token = encode(await solve(await other.createChallenge!()));
    expect(await verifier.verify(token, '')).toBe(false);
    expect(await other.verify(token, '')).toBe(true);
  });

  it('an expired challenge is refused', async () => {
    const clock = testClock();
    const verifier = altcha({ clock, altcha: { ...fast, expiresInS: 120 } });
    const token = encode(await solve(await verifier.createChallenge!()));
    clock.advance(121);
    expect(await verifier.verify(token, '')).toBe(false);
  });

  it('malformed tokens are false', async () => {
    const verifier = altcha();
    for (const token of ['', 'not base64 at all', encode({}), encode([]), encode(null), encode({ challenge: {}, solution: {} }), Buffer.from('{').toString('base64')]) {
      expect(await verifier.verify(token, '')).toBe(false);
    }
  });

  it('without a secret it makes one up (challenges then die with the process)', async () => {
    const verifier = altcha({ secret: '' });
    const token = encode(await solve(await verifier.createChallenge!()));
    expect(await verifier.verify(token, '')).toBe(true);
    expect(await altcha({ secret: '' }).verify(token, '')).toBe(false);
  });
});

describe('SpentTokens', () => {
  it('is bounded: past the limit the oldest entry is forgotten', () => {
    let now = 0;
    const spent = new SpentTokens(() => now, 2);
    expect(spent.spend('a', 1_000)).toBe(true);
    expect(spent.spend('b', 1_000)).toBe(true);
    expect(spent.spend('c', 1_000)).toBe(true);
    expect(spent.size).toBe(2);
    expect(spent.has('a')).toBe(false);
    expect(spent.spend('b', 1_000)).toBe(false);
    now = 1_000;
    expect(spent.has('b')).toBe(false);
    expect(spent.spend('d', 2_000)).toBe(true);
    expect(spent.size).toBe(1);
  });
});

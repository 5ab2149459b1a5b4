import { describe, expect, it } from 'vitest';
import { prettyLogs } from '../../server/lib/logging.js';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../server/config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      workers: 1,
      appUrl: 'http://localhost:3000',
      database: { kind: 'sqlite', file: 'data/authplatform.sqlite' },
      smtpUrl: null,
      accessTokenTtlS: 86400,
      refreshTokenTtlS: 604800,
      bcryptCost: 12,
      trustProxy: false,
      redisUrl: null,
      redisKeyPrefix: 'authplatform:',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      WORKERS: '4',
      APP_URL: 'https://auth.example.com/',
      DATABASE_URL: 'postgres://u@db:5432/auth',
      SMTP_URL: 'smtp://user:pass@mail:2525',
      MAIL_FROM: 'Auth <auth@example.com>',
      ADMIN_EMAILS: 'Boss@Example.com, ops@example.com',
      ACCESS_TOKEN_TTL: '900',
      REFRESH_TOKEN_TTL: '3600',
      BCRYPT_COST: '11',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      REDIS_URL: 'rediss://:secret@cache.internal:6380/2',
      REDIS_KEY_PREFIX: 'auth-prod:',
    });
    expect(config).toMatchObject({
      port: 8080,
      workers: 4,
      appUrl: 'https://auth.example.com',
      database: { kind: 'postgres', url: 'postgres://u@db:5432/auth' },
      smtpUrl: 'smtp://user:pass@mail:2525',
      adminEmails: ['boss@example.com', 'ops@example.com'],
      accessTokenTtlS: 900,
      refreshTokenTtlS: 3600,
      bcryptCost: 11,
      trustProxy: 1,
      logLevel: 'warn',
      logFormat: 'json',
      redisUrl: 'rediss://:secret@cache.internal:6380/2',
      redisKeyPrefix: 'auth-prod:',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ APP_URL: 'not a url' }, /^APP_URL: /],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL: /],
    [{ ADMIN_EMAILS: 'boss' }, /^ADMIN_EMAILS: /],
    [{ BCRYPT_COST: '9' }, /^BCRYPT_COST: must be at least 10/],
    [{ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY: /],
    [{ ACCESS_TOKEN_TTL: '0' }, /^ACCESS_TOKEN_TTL: /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ LOG_FORMAT: 'xml' }, /^LOG_FORMAT: /],
    [{ REDIS_URL: 'http://cache:6379' }, /^REDIS_URL: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [{ WORKERS: '0' }, /^WORKERS: /],
    [{ WORKERS: 'two' }, /^WORKERS: /],
    [{ WORKERS: '2', DATABASE_URL: ':memory:' }, /^WORKERS: an in-memory SQLite database cannot be shared/],
  ])('stops on %j with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('prettyLogs', () => {
  it('prints readable lines on a terminal and JSON lines anywhere else, unless LOG_FORMAT says', () => {
    expect(prettyLogs(loadConfig({}), true)).toBe(true);
    expect(prettyLogs(loadConfig({}), false)).toBe(false);
    expect(prettyLogs(loadConfig({ LOG_FORMAT: 'json' }), true)).toBe(false);
    expect(prettyLogs(loadConfig({ LOG_FORMAT: 'pretty' }), false)).toBe(true);
    expect(prettyLogs(loadConfig({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'silent' }), true)).toBe(false);
  });
});

describe('parseDatabaseUrl', () => {
  it('understands a path, sqlite:PATH and postgres URLs', () => {
    expect(parseDatabaseUrl(undefined, 'd')).toEqual({ kind: 'sqlite', file: 'd/authplatform.sqlite' });
    expect(parseDatabaseUrl('/var/lib/auth.db', 'd')).toEqual({ kind: 'sqlite', file: '/var/lib/auth.db' });
    expect(parseDatabaseUrl('sqlite:./x.db', 'd')).toEqual({ kind: 'sqlite', file: './x.db' });
    expect(parseDatabaseUrl('postgresql://h/db', 'd')).toEqual({ kind: 'postgres', url: 'postgresql://h/db' });
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
  it('is off, one hop, a number of hops, or a list of proxy addresses and CIDRs', () => {
    expect(trust('off')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('on')).toBe(1);
    expect(trust('true')).toBe(1);
    expect(trust('3')).toBe(3);
    expect(trust('10.0.0.1, 192.168.0.0/16,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
  });

  it('refuses anything else with one line naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/^TRUST_PROXY: /);
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/^TRUST_PROXY: /);
  });
});

describe('mail links in the log', () => {
  it('are printed only when APP_URL is a loopback address (the local demo)', () => {
    expect(loadConfig({}).logMailLinks).toBe(true);
    expect(loadConfig({ APP_URL: 'http://127.0.0.1:3000' }).logMailLinks).toBe(true);
    expect(loadConfig({ APP_URL: 'http://[::1]:3000' }).logMailLinks).toBe(true);
    expect(loadConfig({ APP_URL: 'https://auth.example.com' }).logMailLinks).toBe(false);
    expect(loadConfig({ APP_URL: 'http://10.0.0.5:3000' }).logMailLinks).toBe(false);
  });
});

describe('METRICS_TOKEN', () => {
  it('is off when unset or empty, and the token when set', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'a-scraper-token-16' }).metricsToken).toBe('a-scraper-token-16');
  });

  it('refuses a short token with one line naming the variable, without repeating the secret', () => {
    let error: unknown;
    try {
      loadConfig({ METRICS_TOKEN: 'short-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe('METRICS_TOKEN: must be at least 16 characters');
  });
});

describe('retention and reuse settings', () => {
  it('have defaults and bounds', () => {
    expect(loadConfig({})).toMatchObject({ refreshReuseIntervalS: 10, loginAttemptsRetentionDays: 90 });
    expect(loadConfig({ REFRESH_REUSE_INTERVAL: '0', LOGIN_ATTEMPTS_RETENTION_DAYS: '7' })).toMatchObject({ refreshReuseIntervalS: 0, loginAttemptsRetentionDays: 7 });
    expect(() => loadConfig({ REFRESH_REUSE_INTERVAL: '-1' })).toThrow(/^REFRESH_REUSE_INTERVAL: /);
    expect(() => loadConfig({ LANDING_PAGE: 'maybe' })).toThrow(/^LANDING_PAGE: /);
    expect(() => loadConfig({ PRIVACY_URL: 'javascript:alert(1)' })).toThrow(/^PRIVACY_URL: /);
    expect(() => loadConfig({ TERMS_URL: '/terms' })).toThrow(/^TERMS_URL: /);
    expect(loadConfig({}).site).toEqual({ landingPage: true, privacyUrl: null, termsUrl: null });
    expect(loadConfig({ LANDING_PAGE: 'off', TERMS_URL: 'https://example.com/terms' }).site).toEqual({ landingPage: false, privacyUrl: null, termsUrl: 'https://example.com/terms' });
    expect(() => loadConfig({ LOGIN_ATTEMPTS_RETENTION_DAYS: '0' })).toThrow(/^LOGIN_ATTEMPTS_RETENTION_DAYS: /);
  });
});

describe('STEP_UP_WINDOW_S', () => {
  it('is 5 minutes unless set, between 30 seconds and an hour', () => {
    expect(loadConfig({}).stepUpWindowS).toBe(300);
    expect(loadConfig({ STEP_UP_WINDOW_S: '600' }).stepUpWindowS).toBe(600);
    expect(() => loadConfig({ STEP_UP_WINDOW_S: '5' })).toThrow(/^STEP_UP_WINDOW_S: /);
    expect(() => loadConfig({ STEP_UP_WINDOW_S: 'soon' })).toThrow(/^STEP_UP_WINDOW_S: /);
  });
});

describe('sign-in providers', () => {
  it('are the ones whose client id and secret are set, with the public services as defaults', () => {
    expect(loadConfig({}).socialConnections).toEqual([]);
    const config = loadConfig({
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET: 'gh-secret',
      GITHUB_API_URL: 'https://github.example.com/api/v3/',
      MICROSOFT_CLIENT_ID: 'ms',
      MICROSOFT_CLIENT_SECRET: 'ms-secret',
      OIDC_ISSUER: 'https://sso.example.com',
      OIDC_CLIENT_ID: 'sso',
      OIDC_CLIENT_SECRET: 'sso-secret',
    });
    expect(config.socialConnections).toEqual([
      {
        provider: 'github',
        name: 'GitHub',
        clientId: 'gh',
        clientSecret: 'gh-secret',
        issuer: null,
        github: { authorizeUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', apiUrl: 'https://github.example.com/api/v3' },
      },
      { provider: 'microsoft', name: 'Microsoft', clientId: 'ms', clientSecret: 'ms-secret', issuer: 'https://login.microsoftonline.com/common/v2.0', github: null },
      { provider: 'oidc', name: 'Single sign-on', clientId: 'sso', clientSecret: 'sso-secret', issuer: 'https://sso.example.com', github: null },
    ]);
  });

  it('refuse half a client, or an OpenID Connect provider without its issuer, naming the missing variable', () => {
    expect(() => loadConfig({ GITHUB_CLIENT_ID: 'gh' })).toThrow(new ConfigError('GITHUB_CLIENT_SECRET: required when GITHUB_CLIENT_ID is set'));
    expect(() => loadConfig({ GOOGLE_CLIENT_SECRET: 's' })).toThrow(new ConfigError('GOOGLE_CLIENT_ID: required when GOOGLE_CLIENT_SECRET is set'));
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })).toThrow(new ConfigError('OIDC_ISSUER: required when OIDC_CLIENT_ID is set'));
    expect(() => loadConfig({ OIDC_ISSUER: 'https://sso.example.com' })).toThrow(new ConfigError('OIDC_CLIENT_ID: required when OIDC_ISSUER is set'));
    expect(() => loadConfig({ GOOGLE_ISSUER: 'not a url' })).toThrow(/^GOOGLE_ISSUER: /);
  });
});

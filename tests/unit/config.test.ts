import { describe, expect, it } from 'vitest';
import { prettyLogs } from '../../server/lib/logging.js';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../server/config.js';

describe('loadConfig', () => {
  it('has working defaults for a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
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
      appUrl: 'https://auth.example.com',
      database: { kind: 'postgres', url: 'postgres://u@db:5432/auth' },
      smtpUrl: 'smtp://user:pass@mail:2525',
      adminEmails: ['boss@example.com', 'ops@example.com'],
      accessTokenTtlS: 900,
      refreshTokenTtlS: 3600,
      bcryptCost: 11,
      trustProxy: true,
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

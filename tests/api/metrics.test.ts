import { randomUUID } from 'node:crypto';
import parsePrometheusTextFormat, { type MetricFamily, type Sample } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_METRICS } from '../../server/lib/metrics.js';
import { createTestApp, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

const TOKEN = 'scraper-token-0123456789abcdef';

async function scrapeText(t: TestApp): Promise<string> {
  const res = await t.call('GET', '/metrics', { token: TOKEN });
  expect(res.statusCode).toBe(200);
  return res.body;
}

const scrape = async (t: TestApp) => parsePrometheusTextFormat(await scrapeText(t));

/**
 * parse-prometheus-text-format folds the labelled series of a histogram into one and drops their
 * labels; without the TYPE line it reads each `_bucket`, `_sum` and `_count` line as the labelled
 * sample it is on the wire.
 */
const parseHistogramsUntyped = (text: string) => parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''));

function family(families: MetricFamily[], name: string): MetricFamily | undefined {
  return families.find((f) => f.name === name);
}

/** The sample of `name` whose labels include `labels` (a name may come back as several families). */
function sample(families: MetricFamily[], name: string, labels: Record<string, string> = {}): Sample | undefined {
  return families
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value));
}

const valueOf = (s: Sample | undefined) => (s?.value === undefined ? undefined : Number(s.value));

describe('metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('are not served: /metrics is a 404 like any unknown path', async () => {
    for (const token of [undefined, TOKEN]) {
      const res = await t.call('GET', '/metrics', { token });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toMatch(/^Not Found/);
    }
    expect(t.deps.metrics).toBe(NO_METRICS);
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('refuse a missing or wrong token with 401 {detail}', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-of-some-length' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of attempts) {
      const res = await t.call('GET', '/metrics', { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({ detail: expect.any(String) });
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('answer the Prometheus text format to the bearer of the token', async () => {
    const res = await t.call('GET', '/metrics', { token: TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('count requests by method, route pattern and status, never by the path asked for', async () => {
    const dev = await t.signUpAndLogIn(uniqueEmail('counted'));
    const missing = randomUUID();
    expect((await t.call('GET', `/api/v1/projects/${missing}`, { token: dev.access_token })).statusCode).toBe(404);
    expect((await t.call('GET', `/no/such/${randomUUID()}`)).statusCode).toBe(404);

    const text = await scrapeText(t);
    const families = parsePrometheusTextFormat(text);
    expect(valueOf(sample(families, 'http_requests_total', { method: 'POST', route: '/api/v1/auth/login', status: '200' }))).toBe(1);
    expect(valueOf(sample(families, 'http_requests_total', { method: 'GET', route: '/api/v1/projects/:id', status: '404' }))).toBe(1);
    expect(valueOf(sample(families, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }))).toBeGreaterThanOrEqual(1);
    expect(family(families, 'http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const samples = parseHistogramsUntyped(text);
    const login = { method: 'POST', route: '/api/v1/auth/login', status: '200' };
    expect(valueOf(sample(samples, 'http_request_duration_seconds_count', login))).toBe(1);
    expect(valueOf(sample(samples, 'http_request_duration_seconds_bucket', { ...login, le: '+Inf' }))).toBe(1);
    expect(valueOf(sample(samples, 'http_request_duration_seconds_sum', login))).toBeGreaterThan(0);

    const routes = family(families, 'http_requests_total')!.metrics.map((m) => m.labels?.route ?? '');
    expect(routes.some((route) => route.includes(missing) || route.startsWith('/no/'))).toBe(false);
  });

  it('count sign-ins by realm and outcome', async () => {
    const email = uniqueEmail('logins');
    const dev = await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Password-1' }, ip })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('nobody'), password: STRONG_PASSWORD }, ip })).statusCode).toBe(401);

    const project = (await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Metrics' } })).json();
    const { secret } = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json();
    const endUserLogin = await t.call('POST', '/public/api/v1/auth/login', { body: { email: uniqueEmail('end'), password: STRONG_PASSWORD }, headers: { 'x-api-key': secret }, ip });
    expect(endUserLogin.statusCode).toBe(401);

    const families = await scrape(t);
    expect(family(families, 'logins_total')?.type).toBe('COUNTER');
    // Each test of this file signed in once before this one through signUpAndLogIn.
    expect(valueOf(sample(families, 'logins_total', { realm: 'platform', outcome: 'success' }))).toBe(2);
    expect(valueOf(sample(families, 'logins_total', { realm: 'platform', outcome: 'invalid_credentials' }))).toBe(1);
    expect(valueOf(sample(families, 'logins_total', { realm: 'platform', outcome: 'unknown_email' }))).toBe(1);
    expect(valueOf(sample(families, 'logins_total', { realm: 'project', outcome: 'unknown_email' }))).toBe(1);
    expect(sample(families, 'logins_total', { realm: 'project', outcome: 'success' })).toBeUndefined();
  });

  it('report the password hashing queue, the event loop lag and (on PostgreSQL) the connection pool', async () => {
    const families = await scrape(t);
    expect(family(families, 'password_hashing_queue')?.type).toBe('GAUGE');
    expect(valueOf(sample(families, 'password_hashing_queue', { state: 'running' }))).toBe(0);
    expect(valueOf(sample(families, 'password_hashing_queue', { state: 'waiting' }))).toBe(0);
    expect(valueOf(sample(families, 'nodejs_eventloop_lag_seconds'))).toBeGreaterThanOrEqual(0);
    expect(family(families, 'nodejs_eventloop_lag_p99_seconds')).toBeDefined();

    const pool = ['db_pool_connections', 'db_pool_idle_connections', 'db_pool_waiting_queries'];
    if (t.dialect === 'postgres') {
      for (const name of pool) expect(valueOf(sample(families, name)), name).toBeGreaterThanOrEqual(0);
      expect(valueOf(sample(families, 'db_pool_connections'))).toBeGreaterThanOrEqual(1);
    } else {
      for (const name of pool) expect(family(families, name), name).toBeUndefined();
    }
  });

  it('are counted per app: a second app in the same process starts from nothing', async () => {
    const other = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const families = await scrape(other);
      expect(sample(families, 'http_requests_total', { route: '/api/v1/auth/login' })).toBeUndefined();
      expect(family(families, 'logins_total')?.metrics ?? []).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

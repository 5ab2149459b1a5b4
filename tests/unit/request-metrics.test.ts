import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerRequestMetrics, RequestCounts } from '../../server/lib/request-metrics.js';

/** Each sample line as `name{sorted labels} value`, read without TYPE lines (see tests/api/metrics.test.ts). */
async function samplesOf(registry: Registry, name: string): Promise<string[]> {
  const text = (await registry.metrics()).replace(/^# TYPE \S+ histogram$/gm, '');
  return parsePrometheusTextFormat(text)
    .filter((family) => family.name.startsWith(name))
    .flatMap((family) =>
      family.metrics.map((m) => {
        const labels = Object.entries(m.labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
        return `${family.name}{${labels.map(([k, v]) => `${k}=${v}`).join(',')}} ${Number(m.value)}`;
      }),
    )
    .sort();
}

describe('request counts', () => {
  const observations: [string, string, number, number][] = [
    ['GET', '/api/v1/auth/me', 200, 0.0004],
    ['GET', '/api/v1/auth/me', 200, 0.001],
    ['GET', '/api/v1/auth/me', 200, 0.0031],
    ['GET', '/api/v1/auth/me', 401, 0.0002],
    ['POST', '/api/v1/auth/login', 200, 0.3],
    ['POST', '/api/v1/auth/login', 401, 12],
    ['GET', 'unmatched', 404, 0.0001],
  ];

  it("are exposed exactly as prom-client's own histogram of the same observations would be", async () => {
    const counts = new RequestCounts();
    const ours = new Registry();
    registerRequestMetrics(ours, counts);
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'reference',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [reference],
    });
    for (const [method, route, status, seconds] of observations) {
      counts.record(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    const expected = await samplesOf(reference, 'http_request_duration_seconds');
    expect(expected.length).toBe(5 * 16);
    expect(await samplesOf(ours, 'http_request_duration_seconds')).toEqual(expected);
  });

  it('count http_requests_total per method, route and status', async () => {
    const counts = new RequestCounts();
    const registry = new Registry();
    registerRequestMetrics(registry, counts);
    for (const [method, route, status, seconds] of observations) counts.record(method, route, status, seconds);
    expect(await samplesOf(registry, 'http_requests_total')).toEqual(
      [
        'http_requests_total{method=GET,route=/api/v1/auth/me,status=200} 3',
        'http_requests_total{method=GET,route=/api/v1/auth/me,status=401} 1',
        'http_requests_total{method=GET,route=unmatched,status=404} 1',
        'http_requests_total{method=POST,route=/api/v1/auth/login,status=200} 1',
        'http_requests_total{method=POST,route=/api/v1/auth/login,status=401} 1',
      ].sort(),
    );
  });
});

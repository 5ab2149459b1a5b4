import { Counter, Histogram, type Registry } from 'prom-client';

const REQUEST_LABELS = ['method', 'route', 'status'] as const;
type RequestLabel = (typeof REQUEST_LABELS)[number];
type Labels = Record<RequestLabel, string>;

/** From about a `me` (well under a millisecond) to a login at a high bcrypt cost. */
const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); one past the last bound for +Inf. */
  buckets: Float64Array;
}

/**
 * Counts of every answer, as plain numbers. prom-client's counter and histogram check and hash the
 * labels on each call (about a microsecond a request); these are read into them only on a scrape.
 */
export class RequestCounts {
  // By route, method and status: each a string or number the request already holds, so no key is built per request.
  readonly #byRoute = new Map<string, Map<string, Map<number, Series>>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#byRoute.get(route);
    if (!byMethod) this.#byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      found = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS_S.length + 1) };
      byStatus.set(status, found);
    }
    found.count += 1;
    found.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS_S.length && seconds > LATENCY_BUCKETS_S[bucket]!) bucket += 1;
    found.buckets[bucket]! += 1;
  }

  *series(): Generator<Series> {
    for (const byMethod of this.#byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }
}

/** http_request_duration_seconds, its values read from the counts when scraped. */
class RequestDurations extends Histogram<RequestLabel | 'le'> {
  constructor(
    registry: Registry,
    private readonly counts: RequestCounts,
  ) {
    super({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by route pattern and status',
      labelNames: REQUEST_LABELS,
      buckets: LATENCY_BUCKETS_S,
      registers: [registry],
    });
  }

  override async get(): ReturnType<Histogram<RequestLabel | 'le'>['get']> {
    // prom-client's own name, help, type and aggregator (its typings call `type` an enum; it is 'histogram').
    const { name, help, type, aggregator } = this as unknown as Awaited<ReturnType<Histogram['get']>>;
    const values = [...this.counts.series()].flatMap(({ labels, count, sum, buckets }) => {
      let cumulative = 0;
      const bucketValues = LATENCY_BUCKETS_S.map((le, i) => {
        cumulative += buckets[i]!;
        return { labels: { ...labels, le }, value: cumulative, metricName: `${name}_bucket` };
      });
      return [
        ...bucketValues,
        { labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` },
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      ];
    });
    return { name, help, type, aggregator, collect: () => {}, values };
  }

  /** What the registry reads for the text format when a metric has it (prom-client 15's Histogram does, and calls it from get). */
  getForPromString() {
    return this.get();
  }
}

/** Registers http_requests_total and http_request_duration_seconds over `counts`. */
export function registerRequestMetrics(registry: Registry, counts: RequestCounts): void {
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames: REQUEST_LABELS,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of counts.series()) this.inc(labels, count);
    },
  });
  new RequestDurations(registry, counts);
}

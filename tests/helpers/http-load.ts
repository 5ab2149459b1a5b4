/** One answer of a load run: how long it took, and what came back (status 0: no answer within the timeout, or the connection failed). */
export interface LoadAnswer {
  status: number;
  ms: number;
  detail?: string;
  retryAfter?: string | null;
}

export interface Load {
  answers: LoadAnswer[];
  /** Resolves once `count` more answers than now have come in. */
  next(count: number): Promise<void>;
  stop(): Promise<LoadAnswer[]>;
}

/**
 * `connections` clients, each sending `request()` one after another over HTTP until stopped, as a
 * light steady load does. A request gets `timeoutMs` to answer; past it, it counts as status 0.
 */
export function startLoad(request: () => { url: string; init?: RequestInit }, options: { connections?: number; timeoutMs?: number } = {}): Load {
  const answers: LoadAnswer[] = [];
  let stopping = false;
  let waiters: Array<{ at: number; resolve: () => void }> = [];
  const record = (answer: LoadAnswer) => {
    answers.push(answer);
    waiters = waiters.filter((waiter) => (answers.length >= waiter.at ? (waiter.resolve(), false) : true));
  };
  const client = async () => {
    while (!stopping) {
      const { url, init } = request();
      const started = performance.now();
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
        // REST answers {detail}; tRPC {error: {message}}.
        const body = (await response.json().catch(() => ({}))) as { detail?: string; error?: { message?: string } };
        const detail = body.detail ?? body.error?.message;
        record({ status: response.status, ms: performance.now() - started, detail, retryAfter: response.headers.get('retry-after') });
      } catch {
        record({ status: 0, ms: performance.now() - started });
      }
    }
  };
  const running = Array.from({ length: options.connections ?? 8 }, client);
  return {
    answers,
    next: (count) => new Promise<void>((resolve) => waiters.push({ at: answers.length + count, resolve })),
    async stop() {
      stopping = true;
      await Promise.all(running);
      return answers;
    },
  };
}

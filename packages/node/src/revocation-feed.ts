import { readEventStream } from './sse.js';
import type { FetchLike } from './verify.js';

export interface RevocationFeedOptions {
  /** Where AuthPlatform is reached, e.g. https://auth.example.com. */
  url: string;
  projectKey: string;
  /** The project's API key (the feed is the project's backend's only). */
  apiKey: string;
  fetch?: FetchLike;
  /** While the stream is down, how often the feed is read instead (default 1 s; keep it well under 5 s). */
  pollIntervalMs?: number;
  /** A stream silent this long is taken for dead and opened again (default 45 s: three missed heartbeats). */
  idleTimeoutMs?: number;
  /** The longest wait between two attempts to open the stream again (default 30 s). */
  maxReconnectDelayMs?: number;
  /** Told of each failure (the feed keeps trying); nothing is logged otherwise. */
  onError?: (error: unknown) => void;
  now?: () => number;
}

export interface RevocationFeed {
  /** Reads every revocation the server still keeps, then follows the stream. Resolves once the first read is done. */
  start(): Promise<void>;
  /** Whether this session was revoked (and one of its tokens could still be valid). */
  isRevoked(sessionId: string): boolean;
  /** Whether this machine client was revoked or deleted (and one of its tokens could still be valid). */
  isClientRevoked(clientId: string): boolean;
  /** Stops the stream and the polling. */
  close(): Promise<void>;
  readonly cursor: string | undefined;
  /** How many revoked sessions and machine clients are remembered. */
  readonly size: number;
  /** `stream` while the stream is open, `polling` while it is being opened again, `closed`. */
  readonly mode: 'idle' | 'stream' | 'polling' | 'closed';
  /**
   * How long the feed has not known itself current: 0 while the stream is open (a silent one is dropped after
   * `idleTimeoutMs`), else the time since the server last answered it (since the feed was made, before any answer).
   */
  unreachableForMs(): number;
}

/** A session's revocation names its `session_id`; a machine client's, its `client_id`. */
type Revocation = ({ session_id: string } | { client_id: string }) & { revoked_at: string; expires_at: string };

// Sessions and machine clients in one map: a client's key is prefixed, so neither can pass for the other.
const clientKey = (clientId: string) => `client:${clientId}`;

/**
 * The project's revoked sessions, kept in memory: the server-sent-event stream while it is open,
 * reading `?since=` every `pollIntervalMs` while it is not, both resuming from the last cursor. Each
 * session is forgotten once every access token of it has expired (`expires_at`).
 */
export function createRevocationFeed(options: RevocationFeedOptions): RevocationFeed {
  const base = `${options.url.replace(/\/+$/, '')}/public/api/v1/projects/${encodeURIComponent(options.projectKey)}/revocations`;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  const maxReconnectDelayMs = options.maxReconnectDelayMs ?? 30_000;
  const headers = { 'x-api-key': options.apiKey };
  const revoked = new Map<string, number>();
  let cursor: string | undefined;
  let mode: RevocationFeed['mode'] = 'idle';
  let streamAbort: AbortController | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let loop: Promise<void> | null = null;
  let reconnectWake: (() => void) | null = null;
  let nextPrune = 0;
  let lastContact = now();

  const closed = () => mode === 'closed';
  const report = (error: unknown) => options.onError?.(error);
  const add = (row: Revocation) => {
    const expires = Date.parse(row.expires_at);
    const key = 'session_id' in row ? row.session_id : 'client_id' in row ? clientKey(row.client_id) : undefined;
    if (typeof key === 'string' && Number.isFinite(expires) && expires > now()) revoked.set(key, expires);
  };
  const prune = () => {
    const at = now();
    if (at < nextPrune) return;
    nextPrune = at + 60_000;
    for (const [id, expires] of revoked) if (expires <= at) revoked.delete(id);
  };

  /** Reads the pages after the cursor until the server has no more. */
  async function readPages(): Promise<void> {
    for (;;) {
      const url = cursor === undefined ? base : `${base}?since=${encodeURIComponent(cursor)}`;
      const response = await doFetch(url, { headers });
      if (!response.ok) throw new Error(`revocation feed: ${response.status} ${await response.text().catch(() => '')}`.trim());
      const page = (await response.json()) as { revocations: Revocation[]; cursor: string; has_more: boolean };
      for (const row of page.revocations) add(row);
      cursor = page.cursor;
      lastContact = now();
      if (!page.has_more) break;
    }
    prune();
  }

  function startPolling() {
    if (pollTimer || closed()) return;
    mode = 'polling';
    const tick = async () => {
      try {
        await readPages();
      } catch (error) {
        report(error);
      }
      if (pollTimer) pollTimer = setTimeout(tick, pollIntervalMs).unref();
    };
    pollTimer = setTimeout(tick, pollIntervalMs).unref();
  }
  function stopPolling() {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
  }

  /** One stream, until it ends or fails; true once it was ready (caught up). */
  async function followStream(): Promise<boolean> {
    const abort = new AbortController();
    streamAbort = abort;
    let ready = false;
    let idle: NodeJS.Timeout | undefined;
    const alive = () => {
      if (ready) lastContact = now();
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(new Error('revocation feed: the stream went silent')), idleTimeoutMs).unref();
    };
    try {
      alive();
      const response = await doFetch(`${base}/stream`, {
        headers: { ...headers, accept: 'text/event-stream', ...(cursor !== undefined && { 'last-event-id': cursor }) },
        signal: abort.signal,
      });
      if (!response.ok || !response.body) throw new Error(`revocation feed stream: ${response.status}`);
      await readEventStream(response.body, {
        onEvent(event) {
          alive();
          if (event.event === 'revocation') add(JSON.parse(event.data) as Revocation);
          if (event.event === 'ready') {
            ready = true;
            lastContact = now();
            mode = 'stream';
            stopPolling();
          }
          if (event.id) cursor = event.id;
        },
        onComment: () => {
          alive();
          prune();
        },
      });
    } catch (error) {
      if (!closed()) report(error);
    } finally {
      clearTimeout(idle);
      streamAbort = null;
    }
    return ready;
  }

  async function run(): Promise<void> {
    let delay = 0;
    while (!closed()) {
      const wasReady = await followStream();
      if (closed()) break;
      // The stream is down: read the feed until it is back, so a revocation still arrives within seconds.
      startPolling();
      delay = wasReady ? 250 : Math.min(Math.max(delay * 2, 500), maxReconnectDelayMs);
      await new Promise<void>((resolve) => {
        reconnectWake = resolve;
        setTimeout(resolve, delay).unref();
      });
      reconnectWake = null;
    }
  }

  return {
    async start() {
      if (mode !== 'idle') return;
      mode = 'polling';
      try {
        await readPages();
      } catch (error) {
        mode = 'idle';
        throw error;
      }
      loop = run();
    },
    isRevoked(sessionId) {
      const expires = revoked.get(sessionId);
      return expires !== undefined && expires > now();
    },
    isClientRevoked(clientId) {
      const expires = revoked.get(clientKey(clientId));
      return expires !== undefined && expires > now();
    },
    async close() {
      mode = 'closed';
      stopPolling();
      streamAbort?.abort();
      reconnectWake?.();
      await loop;
    },
    get cursor() {
      return cursor;
    },
    get size() {
      return revoked.size;
    },
    get mode() {
      return mode;
    },
    unreachableForMs() {
      return mode === 'stream' ? 0 : Math.max(0, now() - lastContact);
    },
  };
}

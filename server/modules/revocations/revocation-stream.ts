import { PassThrough, type Readable } from 'node:stream';
import type { Deps } from '../../deps.js';
import { isAfter, readHeadPosition, readRevocationsAfter, type Position, type RevocationRow } from './revocations.repo.js';
import { REVOCATION_PAGE_MAX } from '../../../shared/schemas/revocations.js';
import { encodeCursor, revocationWindowS, toRevocation } from './revocations.service.js';

/**
 * The revocation feed as server-sent events. Each instance reads the feed's new rows of every project
 * once per REVOCATION_POLL_MS while it has a stream open (one query for all its streams, whichever
 * instance wrote the rows) and hands each row to the streams of its project. A stream first replays
 * what came after its cursor (Last-Event-ID or `since`), says `ready`, then follows the poll.
 */
export interface RevocationStreams {
  open(projectId: string, from: Position): Promise<Readable>;
  /** Ends every open stream, as an instance's restart would; readers reconnect and are served again. */
  endAll(): void;
  /** Ends every open stream and refuses new ones (on shutdown, so the server's close does not wait for them). */
  close(): void;
  /** Streams open now. */
  size(): number;
}

/** A stream whose reader fell this far behind is ended; the reader resumes from its last event id. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How long a reader waits before reconnecting (the SSE `retry` field). */
const RETRY_MS = 1000;

interface Stream {
  projectId: string;
  last: Position;
  /** Rows the poll delivered while the stream was replaying; null once it follows the poll. */
  pending: RevocationRow[] | null;
  body: PassThrough;
}

export function createRevocationStreams(deps: Pick<Deps, 'db' | 'dialect' | 'config' | 'logger'>): RevocationStreams {
  const streams = new Set<Stream>();
  const windowS = revocationWindowS(deps.config);
  let position: Promise<Position> | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;
  let failing = false;

  const write = (stream: Stream, text: string) => {
    if (stream.body.writableEnded || stream.body.destroyed) return;
    stream.body.write(text);
    if (stream.body.writableLength > MAX_BUFFERED_BYTES) stream.body.end();
  };
  const deliver = (stream: Stream, rows: RevocationRow[]) => {
    for (const row of rows) {
      if (!isAfter(row.position, stream.last)) continue;
      stream.last = row.position;
      write(stream, `id: ${encodeCursor(row.position)}\nevent: revocation\ndata: ${JSON.stringify(toRevocation(row, windowS))}\n\n`);
    }
  };

  async function poll(): Promise<void> {
    pollTimer = null;
    const started = position;
    if (!started || streams.size === 0) return;
    try {
      let after = await started;
      for (;;) {
        const rows = await readRevocationsAfter(deps.db, deps.dialect, after, { projectId: null, limit: REVOCATION_PAGE_MAX });
        for (const stream of streams) {
          const own = rows.filter((row) => row.project_id === stream.projectId);
          if (stream.pending) stream.pending.push(...own);
          else deliver(stream, own);
        }
        if (rows.length > 0) after = rows.at(-1)!.position;
        if (rows.length < REVOCATION_PAGE_MAX) break;
      }
      // Unless every stream closed meanwhile (the next one starts from the head).
      if (position === started) position = Promise.resolve(after);
      failing = false;
    } catch (error) {
      // A database away: the streams stay open and the next poll tries again.
      if (!failing) deps.logger.warn({ err: error }, 'revocation feed: poll failed');
      failing = true;
    }
    schedule();
  }
  const schedule = () => {
    if (!closed && streams.size > 0 && pollTimer === null) pollTimer = setTimeout(() => void poll(), deps.config.revocationPollMs).unref();
  };

  function start(): Promise<Position> {
    // A failed read is not remembered: the next stream tries again.
    position ??= readHeadPosition(deps.db, deps.dialect).catch((error: unknown) => {
      position = null;
      throw error;
    });
    heartbeat ??= setInterval(() => {
      for (const stream of streams) write(stream, ': heartbeat\n\n');
    }, deps.config.revocationHeartbeatMs).unref();
    return position;
  }
  function stopWhenIdle() {
    if (streams.size > 0) return;
    if (pollTimer) clearTimeout(pollTimer);
    if (heartbeat) clearInterval(heartbeat);
    pollTimer = heartbeat = null;
    // The next stream starts from the head again rather than from a position left behind.
    position = null;
  }

  return {
    async open(projectId, from) {
      if (closed) throw new Error('revocation streams are closed');
      const stream: Stream = { projectId, last: from, pending: [], body: new PassThrough() };
      const forget = () => {
        streams.delete(stream);
        stopWhenIdle();
      };
      stream.body.on('close', forget);
      stream.body.on('finish', forget);
      streams.add(stream);
      write(stream, `retry: ${RETRY_MS}\n\n`);
      try {
        // Where the poll is must be known before the replay reads, so nothing falls between the two.
        await start();
        schedule();
        for (;;) {
          const rows = await readRevocationsAfter(deps.db, deps.dialect, stream.last, { projectId, limit: REVOCATION_PAGE_MAX });
          deliver(stream, rows);
          if (rows.length < REVOCATION_PAGE_MAX) break;
        }
      } catch (error) {
        stream.body.destroy();
        forget();
        throw error;
      }
      const pending = stream.pending ?? [];
      stream.pending = null;
      deliver(stream, pending);
      write(stream, `id: ${encodeCursor(stream.last)}\nevent: ready\ndata: ${JSON.stringify({ cursor: encodeCursor(stream.last) })}\n\n`);
      return stream.body;
    },
    endAll() {
      for (const stream of [...streams]) stream.body.end();
      streams.clear();
      stopWhenIdle();
    },
    close() {
      closed = true;
      this.endAll();
    },
    size: () => streams.size,
  };
}

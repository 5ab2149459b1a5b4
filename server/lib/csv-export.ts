import { pipeline, Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Deps } from '../deps.js';
import type { Cursor, KeysetRead } from '../db/keyset.js';
import { AppError } from '../errors.js';
import type { ExportSlot } from './export-slots.js';
import { csvWriter, EXPORT_MAX_ROWS } from './csv.js';

/** Rows read per query: a few milliseconds of work, after which other requests get their turn. */
export const EXPORT_CHUNK_ROWS = 250;

export const EXPORT_RUNNING = 'One of your exports is still running. Wait for it to finish, then try again.';
const EXPORT_RUNNING_RETRY_AFTER_S = 5;

export interface CsvExport {
  /** Rows the body holds: those matching when the export started, at most EXPORT_MAX_ROWS. */
  rows: number;
  /** More rows matched than an export holds. */
  truncated: boolean;
  /** The CSV, written as it is read: the caller sends it and must not buffer it. */
  body: Readable;
}

export interface CsvColumns<Row, Item> {
  columns: (keyof Item & string)[];
  item(row: Row): Item;
}

/**
 * Streams a list as CSV for `userId`, who may run one export at a time (429 otherwise). Headers go
 * first, so the row count and truncation are decided up front by a bounded count; the rows follow in
 * chunks of EXPORT_CHUNK_ROWS, each a query of its own, read only as fast as the client takes them
 * (backpressure) and giving the event loop a turn between chunks. The slot is freed when the body
 * ends, fails, or is destroyed because the client went away (which also stops the reading).
 */
export async function streamCsvExport<Row, Item>(
  deps: Pick<Deps, 'exportSlots' | 'logger'>,
  userId: string,
  read: KeysetRead<Row>,
  csv: CsvColumns<Row, Item>,
): Promise<CsvExport> {
  const slot = await deps.exportSlots.take(userId);
  if (!slot) throw new AppError('TOO_MANY_REQUESTS', EXPORT_RUNNING, { retryAfterS: EXPORT_RUNNING_RETRY_AFTER_S });
  let matching: number;
  try {
    matching = await read.count(EXPORT_MAX_ROWS + 1);
  } catch (error) {
    slot.release();
    throw error;
  }
  const rows = Math.min(matching, EXPORT_MAX_ROWS);
  const body = pipeline(Readable.from(itemsOf(read, csv.item, rows, slot)), csvWriter(csv.columns), (error) => {
    // Also when the body was destroyed before its first row was asked for (the reading never started).
    slot.release();
    if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') deps.logger.error({ err: error }, 'CSV export failed');
  });
  return { rows, truncated: matching > EXPORT_MAX_ROWS, body };
}

/**
 * At most `rows` items (fewer if rows went meanwhile), a chunk at a time. The slot is freed as soon as
 * the reading ends, before the last bytes reach the client, so a client that got its whole file may
 * start the next export at once.
 */
async function* itemsOf<Row, Item>(read: KeysetRead<Row>, item: (row: Row) => Item, rows: number, slot: ExportSlot): AsyncGenerator<Item> {
  try {
    let cursor: Cursor | null = null;
    for (let sent = 0; sent < rows; ) {
      const limit = Math.min(EXPORT_CHUNK_ROWS, rows - sent);
      const chunk = await read.page(cursor, limit);
      for (const row of chunk) yield item(row);
      sent += chunk.length;
      if (chunk.length < limit) return;
      cursor = read.cursorOf(chunk.at(-1)!);
      await nextTurn();
    }
  } finally {
    slot.release();
  }
}

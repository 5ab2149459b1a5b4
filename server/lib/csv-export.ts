import { pipeline, Readable, type Duplex } from 'node:stream';
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
export function streamCsvExport<Row, Item>(
  deps: Pick<Deps, 'exportSlots' | 'logger'>,
  userId: string,
  read: KeysetRead<Row>,
  csv: CsvColumns<Row, Item>,
): Promise<CsvExport> {
  return streamExport(deps, userId, read, { maxRows: EXPORT_MAX_ROWS, items: (chunk) => chunk.map(csv.item), writer: () => csvWriter(csv.columns) });
}

export interface ExportFormat<Row, Item> {
  /** At most this many rows (the first in the read's order); null: every row matching when the export starts. */
  maxRows: number | null;
  /** A chunk's rows as the items to write (a chunk's related rows may be read here, one query per chunk). */
  items(chunk: Row[]): Item[] | Promise<Item[]>;
  /** Writes items (object mode) as the body's bytes. */
  writer(): Duplex;
}

/** streamCsvExport's slot, count and chunked reading, for any format of the items. */
export async function streamExport<Row, Item>(deps: Pick<Deps, 'exportSlots' | 'logger'>, userId: string, read: KeysetRead<Row>, format: ExportFormat<Row, Item>): Promise<CsvExport> {
  const slot = await deps.exportSlots.take(userId);
  if (!slot) throw new AppError('TOO_MANY_REQUESTS', EXPORT_RUNNING, { retryAfterS: EXPORT_RUNNING_RETRY_AFTER_S });
  let matching: number;
  try {
    matching = await read.count(format.maxRows === null ? Number.MAX_SAFE_INTEGER : format.maxRows + 1);
  } catch (error) {
    slot.release();
    throw error;
  }
  const rows = format.maxRows === null ? matching : Math.min(matching, format.maxRows);
  const body = pipeline(Readable.from(itemsOf(read, format.items, rows, slot)), format.writer(), (error) => {
    // Also when the body was destroyed before its first row was asked for (the reading never started).
    slot.release();
    if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') deps.logger.error({ err: error }, 'Export failed');
  });
  return { rows, truncated: rows < matching, body };
}

/**
 * At most `rows` items (fewer if rows went meanwhile), a chunk at a time. The slot is freed as soon as
 * the reading ends, before the last bytes reach the client, so a client that got its whole file may
 * start the next export at once.
 */
async function* itemsOf<Row, Item>(read: KeysetRead<Row>, items: ExportFormat<Row, Item>['items'], rows: number, slot: ExportSlot): AsyncGenerator<Item> {
  try {
    let cursor: Cursor | null = null;
    for (let sent = 0; sent < rows; ) {
      const limit = Math.min(EXPORT_CHUNK_ROWS, rows - sent);
      const chunk = await read.page(cursor, limit);
      for (const item of await items(chunk)) yield item;
      sent += chunk.length;
      if (chunk.length < limit) return;
      cursor = read.cursorOf(chunk.at(-1)!);
      await nextTurn();
    }
  } finally {
    slot.release();
  }
}

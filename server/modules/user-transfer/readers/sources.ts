import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { JSONParser } from '@streamparser/json';
import { parse } from 'csv-parse';

/** The pieces the provider readers share: records of CSV, NDJSON and (streamed) JSON files, and field helpers. */

export interface SourceRecord<T> {
  line: number;
  record?: T;
  error?: string;
}

/** CSV with a header row: each row as an object by column name, with its line (the row's last line, for a quoted value over several). */
export async function* csvRecords(input: Readable): AsyncGenerator<SourceRecord<Record<string, string>>> {
  const parser = input.pipe(parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, info: true, trim: false }));
  input.once('error', (error) => parser.destroy(error));
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    yield { line: info.lines, record };
  }
}

/** NDJSON: each non-blank line a JSON object; a line that is not one is reported by number. */
export async function* ndjsonRecords(input: Readable): AsyncGenerator<SourceRecord<Record<string, unknown>>> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    yield parsedObject(line, text);
  }
}

function parsedObject(line: number, text: string): SourceRecord<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { line, record: value } : { line, error: 'Not a JSON object' };
  } catch {
    return { line, error: 'Not valid JSON' };
  }
}

/**
 * The elements a JSONPath of a JSON document selects (`$.*`: an array's; `$.users.*`: a `users` array's),
 * parsed as the file streams (@streamparser/json): memory holds one element, not the file. `line` is the
 * element's position. A file that breaks off or is not JSON fails the reading with its reason.
 */
export async function* jsonElements(input: Readable, path: string): AsyncGenerator<SourceRecord<Record<string, unknown>>> {
  const parser = new JSONParser({ paths: [path], keepStack: false });
  const found: unknown[] = [];
  parser.onValue = ({ value }) => {
    found.push(value);
  };
  let position = 0;
  const drain = function* () {
    for (const value of found.splice(0)) {
      position += 1;
      yield isObject(value) ? { line: position, record: value } : { line: position, error: 'Not a JSON object' };
    }
  };
  for await (const chunk of input) {
    parser.write(chunk as Buffer);
    yield* drain();
  }
  if (!parser.isEnded) parser.end();
  yield* drain();
}

/** NDJSON, or a JSON array when the file's first character says so. */
export async function* jsonOrNdjsonRecords(input: Readable): AsyncGenerator<SourceRecord<Record<string, unknown>>> {
  const { first, rest } = await peekFirstCharacter(input);
  yield* first === '[' ? jsonElements(rest, '$.*') : ndjsonRecords(rest);
}

/** The file's first non-blank character, and the stream to read it whole from. */
async function peekFirstCharacter(input: Readable): Promise<{ first: string | null; rest: Readable }> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const seen: (Buffer | string)[] = [];
  let first: string | null = null;
  while (first === null) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    const match = /[^\s\uFEFF]/.exec(next.value.toString());
    if (match) first = match[0];
  }
  const rest = Readable.from(
    (async function* () {
      yield* seen;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })(),
    { objectMode: false },
  );
  return { first, rest };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty text, trimmed; undefined otherwise. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** true / false as CSV files write them (true, TRUE, t, 1). */
export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  return typeof value === 'string' && ['true', 't', '1', 'yes'].includes(value.trim().toLowerCase());
}

/** "Ada Lovelace" → first "Ada", last "Lovelace"; names longer than the schema allows are left for the import to refuse. */
export function splitName(name: unknown): { first_name?: string; last_name?: string } {
  const whole = text(name);
  if (!whole) return {};
  const at = whole.indexOf(' ');
  return at === -1 ? { first_name: whole } : { first_name: whole.slice(0, at), last_name: whole.slice(at + 1).trim() };
}

/** A time as ISO-8601 UTC: from epoch milliseconds (number or digits), or a date text (ISO, PostgreSQL's `2024-01-15 10:22:33.123+00`). */
export function isoTime(value: unknown, epoch: 'ms' | 's' = 'ms'): string | undefined {
  let date: Date | undefined;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
    date = new Date(Number(value) * (epoch === 's' ? 1000 : 1));
  } else if (typeof value === 'string' && value.trim() !== '') {
    // PostgreSQL writes `+00` for the offset and a space for the T.
    const normalized = value.trim().replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
    date = new Date(normalized);
  }
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/** JSON text (a CSV cell) or an object, as an object; undefined for anything else. */
export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Drops undefined fields and empty objects (the import's defaults stand in for them). */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && !(isObject(field) && Object.keys(field).length === 0))) as Partial<T>;
}

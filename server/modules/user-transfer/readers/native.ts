import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { MAX_LINE_BYTES, UnreadableLine, type UserLineReader } from './reader.js';

const TOO_LONG = `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return new UnreadableLine('line is not valid JSON');
  }
}

/**
 * NDJSON: one JSON value a line (`\n` or `\r\n`), numbered from 1; blank lines are skipped but counted. Reads chunk
 * by chunk, holding one line at a time (at most MAX_LINE_BYTES: a longer one fails and is skipped to its end).
 */
export const readNdjson: UserLineReader = async function* (input: Readable) {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 0;
  const take = (piece: Buffer) => {
    if (tooLong || piece.length === 0) return;
    size += piece.length;
    if (size > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
    } else parts.push(piece);
  };
  const finish = (): { line: number; value: unknown } | null => {
    line += 1;
    const wasTooLong = tooLong;
    const text = wasTooLong ? '' : Buffer.concat(parts).toString('utf8').trim();
    parts = [];
    size = 0;
    tooLong = false;
    if (wasTooLong) return { line, value: new UnreadableLine(TOO_LONG) };
    return text === '' ? null : { line, value: parsed(text) };
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(10, start); newline !== -1; newline = bytes.indexOf(10, start)) {
      take(bytes.subarray(start, newline));
      const done = finish();
      if (done) yield done;
      start = newline + 1;
    }
    take(bytes.subarray(start));
  }
  if (size > 0 || tooLong) {
    const done = finish();
    if (done) yield done;
  }
};

/**
 * A JSON array of users, read element by element without holding the array: a scanner follows strings and nesting to
 * find where each top-level element ends, then parses that element alone. Elements are numbered from 1. Anything but
 * an array (or text after it) makes the whole input unreadable.
 */
export const readJsonArray: UserLineReader = async function* (input: Readable) {
  const decoder = new StringDecoder('utf8');
  let state: 'before' | 'between' | 'element' | 'after' = 'before';
  let element = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let tooLong = false;
  let index = 0;
  let sawComma = false;
  const collect = (piece: string) => {
    if (tooLong) return;
    element += piece;
    if (element.length > MAX_LINE_BYTES) {
      tooLong = true;
      element = '';
    }
  };
  const end = (): { line: number; value: unknown } => {
    index += 1;
    const value = tooLong ? new UnreadableLine(`element is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`) : parsed(element);
    element = '';
    tooLong = false;
    return { line: index, value };
  };
  const chunks = async function* () {
    for await (const chunk of input as AsyncIterable<Buffer | string>) yield typeof chunk === 'string' ? chunk : decoder.write(chunk);
    yield decoder.end();
  };
  for await (const text of chunks()) {
    let elementStart = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i]!;
      if (state === 'element') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth += 1;
        else if (c === '}' || c === ']') {
          if (depth === 0) {
            // The array's own `]` right after an element.
            collect(text.slice(elementStart, i));
            yield end();
            state = 'after';
            continue;
          }
          depth -= 1;
        } else if (c === ',' && depth === 0) {
          collect(text.slice(elementStart, i));
          yield end();
          state = 'between';
          sawComma = true;
        }
        continue;
      }
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\ufeff') continue;
      if (state === 'before') {
        if (c !== '[') throw new Error('The body is not a JSON array');
        state = 'between';
        sawComma = false;
      } else if (state === 'between') {
        if (c === ']') {
          if (sawComma) throw new Error('The JSON array ends with a comma');
          state = 'after';
        } else if (c === ',') throw new Error('The JSON array has an empty element');
        else {
          // This character is the element's first: read it again in the element's state.
          state = 'element';
          elementStart = i;
          i -= 1;
          depth = 0;
          element = '';
        }
      } else throw new Error('The body has text after its JSON array');
    }
    if (state === 'element') collect(text.slice(elementStart));
  }
  // The scanner's state changes inside the loop, where TypeScript does not follow it.
  if ((state as string) !== 'after') throw new Error('The JSON array ends too soon');
};

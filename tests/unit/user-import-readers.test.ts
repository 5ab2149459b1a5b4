import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonArray, readNdjson } from '../../server/modules/user-transfer/readers/native.js';
import { MAX_LINE_BYTES, UnreadableLine, type UserLineReader } from '../../server/modules/user-transfer/readers/reader.js';

async function readAll(reader: UserLineReader, chunks: (string | Buffer)[]) {
  const out: { line: number; value: unknown }[] = [];
  for await (const item of reader(Readable.from(chunks))) out.push(item);
  return out;
}

const PADDING = 'p'.repeat(400);
const user = (i: number) => ({ email: `user-${i}@example.com`, first_name: 'Ada', public_metadata: { note: `a "quoted" ] } , value ${i}`, padding: PADDING } });

/** A body of `count` users made as it is read (never whole in memory), in chunks that split lines anywhere; `produced` counts its bytes so far. */
function generated(count: number, framing: 'ndjson' | 'array'): Readable & { produced: number } {
  let i = 0;
  const stream = new Readable({
    read() {
      if (i >= count) return this.push(null);
      let text = framing === 'array' && i === 0 ? '[' : '';
      for (const end = Math.min(count, i + 500); i < end; i += 1) {
        text += JSON.stringify(user(i)) + (framing === 'ndjson' ? '\n' : i === count - 1 ? ']' : ',\n');
      }
      // Odd cuts: a chunk boundary inside lines and inside a multi-byte character.
      const bytes = Buffer.from(text.replaceAll('Ada', 'Adä'));
      stream.produced += bytes.length;
      this.push(bytes.subarray(0, 777));
      this.push(bytes.subarray(777));
    },
  }) as Readable & { produced: number };
  stream.produced = 0;
  return stream;
}

/**
 * Reads a body of `count` users and answers how far, at most, the source ran ahead of the users the reader had
 * handed out: a reader that buffered the body (or its values) would have drawn it whole before its first user.
 */
async function peakLead(reader: UserLineReader, framing: 'ndjson' | 'array', count: number): Promise<{ lines: number; lead: number; total: number }> {
  const source = generated(count, framing);
  let consumed = 0;
  let lead = 0;
  let lines = 0;
  for await (const item of reader(source)) {
    lines += 1;
    if (item.line !== lines) throw new Error(`line ${item.line} read as the ${lines}th`);
    consumed += Buffer.byteLength(JSON.stringify(user(lines - 1)).replaceAll('Ada', 'Adä')) + 2;
    lead = Math.max(lead, source.produced - consumed);
  }
  return { lines, lead, total: source.produced };
}

describe('the native readers', () => {
  it('NDJSON: numbers lines from 1, skips blank ones, takes \\r\\n, and fails a broken line without stopping', async () => {
    const items = await readAll(readNdjson, ['{"a":1}\r\n\n{"b"', ':2}\n{nope\n', '{"c":3}']);
    expect(items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
      { line: 4, value: new UnreadableLine('line is not valid JSON') },
      { line: 5, value: { c: 3 } },
    ]);
  });

  it('NDJSON: a line longer than the limit fails alone, without being held', async () => {
    const long = 'x'.repeat(MAX_LINE_BYTES + 10);
    const items = await readAll(readNdjson, [`{"a":1}\n"${long.slice(0, 1000)}`, long, `"\n{"b":2}\n`]);
    expect(items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: new UnreadableLine('line is longer than 1 MiB') },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it('JSON array: reads element by element across chunks, strings with brackets and escapes included', async () => {
    const items = await readAll(readJsonArray, ['\ufeff [ {"a":"x]\\"}"', ', "y":[1,{"z":2}]}', ' ,\n{"b":', '2}, 7 ,"s", {bad} ]\n ']);
    expect(items).toEqual([
      { line: 1, value: { a: 'x]"}', y: [1, { z: 2 }] } },
      { line: 2, value: { b: 2 } },
      { line: 3, value: 7 },
      { line: 4, value: 's' },
      { line: 5, value: new UnreadableLine('line is not valid JSON') },
    ]);
    expect(await readAll(readJsonArray, ['[]'])).toEqual([]);
  });

  it('JSON array: an input that is no array, or ends too soon, is unreadable as a whole', async () => {
    await expect(readAll(readJsonArray, ['{"a":1}'])).rejects.toThrow('The body is not a JSON array');
    await expect(readAll(readJsonArray, ['[{"a":1},'])).rejects.toThrow('The JSON array ends too soon');
    await expect(readAll(readJsonArray, ['[{"a":1},]'])).rejects.toThrow('ends with a comma');
    await expect(readAll(readJsonArray, ['[{"a":1}] x'])).rejects.toThrow('text after its JSON array');
  });

  it.each([
    ['NDJSON', readNdjson, 'ndjson'],
    ['JSON array', readJsonArray, 'array'],
  ] as const)('%s: 100,000 users (~55 MB) are read as they arrive, never the whole body at once', async (_name, reader, framing) => {
    const { lines, lead, total } = await peakLead(reader, framing, 100_000);
    expect(lines).toBe(100_000);
    expect(total).toBeGreaterThan(50 * 1024 * 1024);
    // The stream's own read-ahead (a few of the source's 260 KB pushes), far from the body's size.
    expect(lead).toBeLessThan(2 * 1024 * 1024);
  }, 60_000);
});

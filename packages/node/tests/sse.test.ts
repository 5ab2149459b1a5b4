import { describe, expect, it } from 'vitest';
import { createSseParser, readEventStream, type ServerSentEvent } from '../src/sse.js';

function parse(chunks: string[]) {
  const events: ServerSentEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = createSseParser({ onEvent: (event) => events.push(event), onComment: (text) => comments.push(text), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, comments, retries, lastEventId: parser.lastEventId };
}

const STREAM = '\uFEFFretry: 1000\n\n: heartbeat\n\nid: 1_1\nevent: revocation\ndata: {"a":1}\n\nid: 1_2\nevent: revocation\ndata: line one\ndata: line two\n\nid: 1_3\nevent: ready\ndata:{}\n\n';

describe('the event-stream parser', () => {
  it('reads events, ids, comments and retry', () => {
    const { events, comments, retries, lastEventId } = parse([STREAM]);
    expect(events).toEqual([
      { event: 'revocation', data: '{"a":1}', id: '1_1' },
      { event: 'revocation', data: 'line one\nline two', id: '1_2' },
      { event: 'ready', data: '{}', id: '1_3' },
    ]);
    expect(comments).toEqual(['heartbeat']);
    expect(retries).toEqual([1000]);
    expect(lastEventId).toBe('1_3');
  });

  it('gives the same events however the stream is cut, with LF, CRLF or CR line ends', () => {
    const expected = parse([STREAM]).events;
    for (const ending of ['\n', '\r\n', '\r']) {
      const text = STREAM.replaceAll('\n', ending);
      for (let size = 1; size <= 7; size++) {
        const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
        expect(parse(chunks).events, `${JSON.stringify(ending)} in chunks of ${size}`).toEqual(expected);
      }
    }
  });

  it('dispatches nothing without data, keeps the last id, defaults the type to message, ignores unknown fields and an id with NUL', () => {
    const { events, lastEventId } = parse(['id: 7\n\n', 'data: x\nfoo: bar\n\n', 'id: bad\0id\ndata: y\n\n', 'data: unfinished']);
    expect(events).toEqual([
      { event: 'message', data: 'x', id: '7' },
      { event: 'message', data: 'y', id: '7' },
    ]);
    expect(lastEventId).toBe('7');
  });

  it('reads a fetch body, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('data: é✓\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    await readEventStream(body, { onEvent: (event) => events.push(event) });
    expect(events).toEqual([{ event: 'message', data: 'é✓', id: '' }]);
  });
});

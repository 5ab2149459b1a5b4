/** One server-sent event, as the WHATWG "event stream interpretation" dispatches it. */
export interface ServerSentEvent {
  /** `message` when the stream named none. */
  event: string;
  data: string;
  /** The last event id set so far (the `Last-Event-ID` to resume from). */
  id: string;
}

export interface SseParserOptions {
  onEvent(event: ServerSentEvent): void;
  /** A `retry:` field: how long the server asks a client to wait before reconnecting. */
  onRetry?(ms: number): void;
  /** A comment line (`: heartbeat`): the stream is alive. */
  onComment?(text: string): void;
}

/**
 * An incremental parser of `text/event-stream` (https://html.spec.whatwg.org/#event-stream-interpretation):
 * feed it decoded text chunks in order, split anywhere; lines end with CRLF, LF or CR.
 * Node 20 has no EventSource, so the feed client reads the stream through fetch and this.
 */
export function createSseParser(options: SseParserOptions) {
  let buffer = '';
  let started = false;
  let pendingCr = false;
  let data: string[] = [];
  let event = '';
  let lastId = '';

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) options.onEvent({ event: event || 'message', data: data.join('\n'), id: lastId });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) {
      options.onComment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) lastId = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) options.onRetry?.(Number(value));
  };

  return {
    push(chunk: string): void {
      if (!started && chunk.length > 0) {
        started = true;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      // A CR that ended the last chunk already ended its line: a LF starting this one belongs to it.
      if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const char = buffer[i];
        if (char !== '\n' && char !== '\r') continue;
        line(buffer.slice(start, i));
        if (char === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The id to resume from. */
    get lastEventId(): string {
      return lastId;
    },
  };
}

/** Reads a fetch body as events until it ends (or its fetch is aborted, which rejects). */
export async function readEventStream(body: ReadableStream<Uint8Array>, options: SseParserOptions): Promise<void> {
  const parser = createSseParser(options);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}

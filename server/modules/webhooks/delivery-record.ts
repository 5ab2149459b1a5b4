import type { WebhookHeader } from '../../../shared/schemas/webhooks.js';

/**
 * What a delivery keeps of its last attempt, for the team to read: the headers sent, and the answer's
 * headers and first 4 KB of body. An answer is the receiver's to choose, so every part is capped.
 */

/** How much of an answer's body is kept, in bytes. */
export const RESPONSE_BODY_LIMIT_BYTES = 4096;
const MAX_HEADERS = 50;
const MAX_HEADER_NAME = 100;
const MAX_HEADER_VALUE = 1000;

/** The headers as stored: at most 50, each name and value cut to a length a screen can show. */
export function storedHeaders(headers: Headers | Record<string, string>): WebhookHeader[] {
  // Not `instanceof Headers`: the answers of the public-address fetch are undici's own Headers, another class.
  const entries = typeof headers.entries === 'function' ? [...(headers as Headers).entries()] : Object.entries(headers);
  return entries.slice(0, MAX_HEADERS).map(([name, value]) => ({ name: name.slice(0, MAX_HEADER_NAME), value: value.slice(0, MAX_HEADER_VALUE) }));
}

/**
 * The body's first `limit` bytes as text, read no further (the rest is cancelled), and whether there was
 * more. The cut falls at a character's boundary; bytes that are not UTF-8 read as U+FFFD, and so does
 * NUL (PostgreSQL's text holds none). A body that stops arriving (the attempt's timeout) keeps what came.
 */
export async function readBodyStart(response: Response, limit = RESPONSE_BODY_LIMIT_BYTES): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    truncated = size > limit;
  } catch {
    truncated = true;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks);
  const kept = truncated ? bytes.subarray(0, utf8Boundary(bytes, limit)) : bytes;
  return { text: new TextDecoder().decode(kept).replaceAll('\u0000', '\uFFFD'), truncated };
}

/** The largest length ≤ `limit` that does not end inside a UTF-8 sequence. */
export function utf8Boundary(bytes: Uint8Array, limit: number): number {
  if (bytes.length <= limit) return bytes.length;
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the character cut in two.
  while (end > 0 && end > limit - 4 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return end;
}

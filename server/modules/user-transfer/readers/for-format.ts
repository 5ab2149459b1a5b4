import type { ImportFormat } from '../../../../shared/schemas/user-import.js';
import { readJsonArray, readNdjson } from './native.js';
import { PROVIDER_READERS } from './providers.js';
import { UnreadableLine, type UserLineReader } from './reader.js';

/** The media types the native user line comes in. */
export const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
/** A provider's export file is JSON, NDJSON or CSV as that provider writes it; its reader knows which. */
export const PROVIDER_FILE_TYPES = [...NDJSON_TYPES, 'application/json', 'text/csv'];

/**
 * The reader of an import's body: the native one for its media type, or the provider's reader (whose records a
 * line fails on with their own reason). Null when the media type is not one the format comes in.
 */
export function readerFor(format: ImportFormat, type: string): UserLineReader | null {
  if (format === 'native') return NDJSON_TYPES.includes(type) ? readNdjson : type === 'application/json' ? readJsonArray : null;
  if (!PROVIDER_FILE_TYPES.includes(type)) return null;
  const read = PROVIDER_READERS[format];
  return async function* (input) {
    for await (const record of read(input)) yield { line: record.line, value: record.error === undefined ? record.value : new UnreadableLine(record.error) };
  };
}

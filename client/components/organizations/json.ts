import { METADATA_MAX_BYTES } from '../../../shared/schemas/organizations';

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export type JsonObject = Record<string, unknown>;

/**
 * The text of a JSON editor read as an object: `{ value }` when it is one (at most `maxBytes` of JSON),
 * `{ error }` in words otherwise. Empty text is `empty` (an empty object for metadata, null for "none").
 */
export function parseJsonObject(
  text: string,
  { name, maxBytes = METADATA_MAX_BYTES, empty = {} }: { name: string; maxBytes?: number; empty?: JsonObject | null },
): { value: JsonObject | null; error: null } | { value?: undefined; error: string } {
  if (!text.trim()) return { value: empty, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: `${name} is not valid JSON` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: `${name} must be a JSON object, such as {"plan": "pro"}` };
  if (bytesOf(parsed) > maxBytes) return { error: `${name} must be at most ${maxBytes} bytes of JSON` };
  return { value: parsed as JsonObject, error: null };
}

/** An object as an editor shows it: indented, and empty for an empty object or none. */
export const jsonText = (value: JsonObject | null | undefined) => (value && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '');

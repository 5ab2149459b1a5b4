import type { TruncatedValue } from '../../../shared/schemas/audit.js';
import { sha256 } from '../../lib/crypto.js';

/** At most this much JSON is kept of an entry's `before`, and as much of its `after`. */
export const AUDIT_VALUE_MAX_BYTES = 2048;
const PREVIEW_CHARS = 100;

const bytesOf = (json: string) => Buffer.byteLength(json);

/** What is kept of a value too large to keep: its size, a digest that tells two such values apart, and its start. */
function truncated(json: string): TruncatedValue {
  let preview = json.slice(0, PREVIEW_CHARS);
  // Not half of a character made of two UTF-16 units.
  if (/[\uD800-\uDBFF]$/.test(preview)) preview = preview.slice(0, -1);
  return { truncated: true, bytes: bytesOf(json), sha256: sha256(json), preview };
}

/**
 * An entry's `before` or `after` as stored, at most AUDIT_VALUE_MAX_BYTES of JSON: whole when it fits;
 * else its largest fields, largest first, each replaced by a truncated marker until it fits (the
 * field names, and every small value, stay); else, should the markers themselves not fit, one marker
 * for the whole. The log is append-only and kept for ever, so no change may add more than that.
 */
export function auditJson(values: Record<string, unknown> | null | undefined): string | null {
  if (!values) return null;
  const whole = JSON.stringify(values);
  if (bytesOf(whole) <= AUDIT_VALUE_MAX_BYTES) return whole;
  const fields = Object.entries(values).map(([key, value]) => ({ key, json: JSON.stringify(value) ?? 'null' }));
  const kept: Record<string, unknown> = { ...values };
  for (const { key, json } of fields.sort((a, b) => bytesOf(b.json) - bytesOf(a.json))) {
    kept[key] = truncated(json);
    const capped = JSON.stringify(kept);
    if (bytesOf(capped) <= AUDIT_VALUE_MAX_BYTES) return capped;
  }
  return JSON.stringify(truncated(whole));
}

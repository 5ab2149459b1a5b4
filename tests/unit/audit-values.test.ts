import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isTruncatedValue } from '../../shared/schemas/audit.js';
import { AUDIT_VALUE_MAX_BYTES, auditJson } from '../../server/modules/changes/audit-values.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("an audit entry's before or after", () => {
  it('is kept whole while its JSON fits in 2 KB', () => {
    const values = { name: 'Shop', redirect_uris: ['https://shop.example/callback'], is_active: true };
    expect(auditJson(values)).toBe(JSON.stringify(values));
    expect(auditJson(null)).toBeNull();
    expect(auditJson(undefined)).toBeNull();
  });

  it('loses its largest values first, and only as many as it takes', () => {
    const stored = JSON.parse(auditJson({ a: 'a'.repeat(1500), b: 'b'.repeat(1000), c: 'c'.repeat(10) })!);
    expect(stored.a).toMatchObject({ truncated: true, bytes: 1502, preview: `"${'a'.repeat(99)}` });
    expect(stored.b).toBe('b'.repeat(1000));
    expect(stored.c).toBe('c'.repeat(10));
  });

  it('becomes one marker when even the markers of its fields would not fit', () => {
    const values = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, 'x'.repeat(500)]));
    const json = auditJson(values)!;
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(AUDIT_VALUE_MAX_BYTES);
    const whole = JSON.stringify(values);
    expect(JSON.parse(json)).toEqual({ truncated: true, bytes: Buffer.byteLength(whole), sha256: sha256(whole), preview: whole.slice(0, 100) });
    expect(isTruncatedValue(JSON.parse(json))).toBe(true);
  });

  it('counts bytes, not characters, and never cuts a character in two', () => {
    const stored = JSON.parse(auditJson({ emoji: `${'x'.repeat(98)}${'😀'.repeat(600)}` })!);
    expect(stored.emoji.bytes).toBe(2 + 98 + 600 * 4);
    expect(stored.emoji.preview).toBe(`"${'x'.repeat(98)}`);
  });
});

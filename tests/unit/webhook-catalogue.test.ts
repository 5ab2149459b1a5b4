import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sampleWebhookEventBody, webhookEventBodySchema, WEBHOOK_EVENT_CATALOGUE, WEBHOOK_EVENT_CATALOGUE_ENTRIES } from '../../shared/schemas/webhook-events.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import { readBodyStart, storedHeaders, utf8Boundary } from '../../server/modules/webhooks/delivery-record.js';

describe('the webhook event catalogue', () => {
  it('has an entry for every type a webhook can subscribe to, and nothing else', () => {
    expect(Object.keys(WEBHOOK_EVENT_CATALOGUE).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(WEBHOOK_EVENT_CATALOGUE_ENTRIES.map((entry) => entry.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
  });

  it.each(WEBHOOK_EVENT_TYPES)('%s: its sample body parses with the schema the server emits it by', (type) => {
    expect(WEBHOOK_EVENT_CATALOGUE[type].description.length).toBeGreaterThan(10);
    const body = JSON.parse(JSON.stringify(sampleWebhookEventBody(type)));
    expect(webhookEventBodySchema(type).safeParse(body).error).toBeUndefined();
  });

  it("the README's table of events names every type", () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('### Webhooks'), readme.indexOf('Requests are signed by'));
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !table.includes(`\`${type}\``))).toEqual([]);
  });

  it('refuses a body of another shape (the schemas are strict)', () => {
    expect(webhookEventBodySchema('api_key.created').safeParse({ type: 'api_key.created', timestamp: 'now', data: { api_key: { id: 'k', name: 'n', prefix: 'p', secret: 's' } } }).success).toBe(false);
    expect(webhookEventBodySchema('user.deleted').safeParse(sampleWebhookEventBody('user.created')).success).toBe(false);
  });
});

describe('what a delivery keeps of an answer', () => {
  const answer = (body: Uint8Array<ArrayBuffer> | string | null) => new Response(body);

  it('keeps a short body whole', async () => {
    expect(await readBodyStart(answer('{"ok":true}'))).toEqual({ text: '{"ok":true}', truncated: false });
    expect(await readBodyStart(answer(null))).toEqual({ text: '', truncated: false });
  });

  it('cuts a long body at 4 KB, never inside a character', async () => {
    // 4095 ASCII bytes, then "€" (3 bytes) straddling the 4096th byte.
    const { text, truncated } = await readBodyStart(answer(`${'a'.repeat(4095)}€ and more`));
    expect(truncated).toBe(true);
    expect(text).toBe('a'.repeat(4095));
    const exact = await readBodyStart(answer(`${'a'.repeat(4093)}€tail`));
    expect(exact).toEqual({ text: `${'a'.repeat(4093)}€`, truncated: true });
    expect(Buffer.byteLength((await readBodyStart(answer('é'.repeat(5000)))).text)).toBe(4096);
  });

  it('reads bytes that are not UTF-8, and NUL, as U+FFFD', async () => {
    expect((await readBodyStart(answer(new Uint8Array([0x6f, 0x6b, 0x00, 0xff])))).text).toBe('ok\uFFFD\uFFFD');
  });

  it('finds the boundary before a cut character', () => {
    const bytes = Buffer.from('ab€');
    expect([3, 4, 5].map((limit) => utf8Boundary(bytes, limit))).toEqual([2, 2, 5]);
    expect(utf8Boundary(bytes, 2)).toBe(2);
  });

  it('caps the headers kept: 50 at most, long names and values cut', () => {
    const many = new Headers(Array.from({ length: 80 }, (_, i) => [`x-h${i}`, 'v'.repeat(i === 0 ? 5000 : 1)] as [string, string]));
    const kept = storedHeaders(many);
    expect(kept).toHaveLength(50);
    expect(kept.find((header) => header.name === 'x-h0')!.value).toHaveLength(1000);
  });
});

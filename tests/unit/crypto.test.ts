import { describe, expect, it } from 'vitest';
import { randomToken, sha256 } from '../../server/lib/crypto.js';

describe('randomToken', () => {
  it('answers distinct URL-safe secrets of the asked length, across refills of its pool', () => {
    // 4096 bytes make 128 tokens of 32: 1000 tokens refill the pool several times, at uneven offsets with the odd sizes.
    const tokens = Array.from({ length: 1000 }, (_, i) => randomToken(i % 10 === 0 ? 24 : 32));
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const [i, token] of tokens.entries()) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(i % 10 === 0 ? 24 : 32);
    }
  });

  it('answers secrets larger than its pool', () => {
    const big = randomToken(5000);
    expect(Buffer.from(big, 'base64url')).toHaveLength(5000);
    expect(new Set(Buffer.from(big, 'base64url')).size).toBeGreaterThan(200);
  });

  it('never answers the all-zero bytes it leaves behind', () => {
    const zeros = Buffer.alloc(32).toString('base64url');
    for (let i = 0; i < 500; i++) expect(randomToken()).not.toBe(zeros);
  });
});

describe('sha256', () => {
  it('answers the hex digest of the UTF-8 text', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

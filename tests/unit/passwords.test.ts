import { describe, expect, it } from 'vitest';
import { createBcryptHasher, isCommonPassword } from '../../server/lib/passwords.js';

describe('passwords', () => {
  it('hashes with bcrypt at the configured cost and verifies', async () => {
    const hasher = createBcryptHasher(4);
    const hash = await hasher.hash('Correct-Horse-42');
    expect(hash).toMatch(/^\$2b\$04\$/);
    expect(await hasher.verify('Correct-Horse-42', hash)).toBe(true);
    expect(await hasher.verify('correct-horse-42', hash)).toBe(false);
    expect(await hasher.verifyAgainstDummy('anything')).toBe(false);
  });

  it('tells how many hashes run and how many wait their turn', async () => {
    const hasher = createBcryptHasher(8, 1);
    expect(hasher.load()).toEqual({ running: 0, waiting: 0 });
    const hashes = Promise.all([hasher.hash('a'), hasher.hash('b'), hasher.hash('c')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(hasher.load()).toEqual({ running: 1, waiting: 2 });
    await hashes;
    expect(hasher.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('knows the common passwords, whatever their case', () => {
    expect(isCommonPassword('Password1')).toBe(true);
    expect(isCommonPassword('QWERTY123')).toBe(true);
    expect(isCommonPassword('Correct-Horse-42')).toBe(false);
  });
});

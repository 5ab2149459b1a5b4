import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * A copy of the database (a backup, a dump) must not be enough to find an account's recovery codes:
 * ten codes of about 49 bits stored as a plain SHA-256 are guessed offline, every account's at once.
 * They are stored as an HMAC under the master key (which a database copy does not hold), bound to the
 * account; codes stored by earlier versions as SHA-256 keep working and are rewritten.
 */

const clock = manualClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

const plainSha256 = (code: string) => createHash('sha256').update(`recovery:${code}`).digest('hex');
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

/** A developer with two factors on, and the recovery codes they were shown. */
async function withRecoveryCodes(app = t) {
  const email = uniqueEmail('recovery-at-rest');
  const session = await app.signUpAndLogIn(email);
  const { secret } = (await app.call('POST', '/api/v1/auth/mfa/totp/setup', { token: session.access_token })).json();
  const confirm = await app.call('POST', '/api/v1/auth/mfa/totp/confirm', { token: session.access_token, body: { code: codeFor(secret) } });
  expect(confirm.statusCode).toBe(200);
  clock.advance(30);
  return { email, userId: session.user.id, codes: confirm.json().recovery_codes as string[] };
}

const storedOf = (userId: string, app = t) => app.db.selectFrom('recovery_codes').select(['id', 'code_hash', 'used_at']).where('user_id', '=', userId).orderBy('id').execute();

/** Sign in with the password, then the recovery code as the second factor: the HTTP status of that step. */
async function signInWithRecoveryCode(email: string, code: string, app = t): Promise<number> {
  const ip = uniqueIp();
  const login = await app.call('POST', '/api/v1/auth/login', { body: { email, password: 'Correct-Horse-42' }, ip });
  expect(login.json().mfa_required).toBe(true);
  return (await app.call('POST', '/api/v1/auth/mfa/verify', { body: { mfa_token: login.json().mfa_token, code }, ip })).statusCode;
}

/** What an earlier version stored: the SHA-256 of each code. */
async function storeAsEarlierVersionsDid(userId: string, codes: string[], app = t) {
  const rows = await storedOf(userId, app);
  // The rows' order is not the codes' order: rewrite them all from the codes, as confirm would have written them.
  for (const [index, row] of rows.entries()) {
    await app.db.updateTable('recovery_codes').set({ code_hash: plainSha256(codes[index]!) }).where('id', '=', row.id).execute();
  }
}

describe('recovery codes at rest', () => {
  it('are not stored as a plain SHA-256 (nor any other unkeyed hash) of the code', async () => {
    const { userId, codes } = await withRecoveryCodes();
    const stored = (await storedOf(userId)).map((row) => row.code_hash);
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      for (const unkeyed of [plainSha256(code), createHash('sha256').update(code).digest('hex'), code, code.replace('-', '')]) {
        expect(stored.some((hash) => hash.includes(unkeyed))).toBe(false);
      }
    }
    expect(new Set(stored).size).toBe(10);
  });

  it('still work once each', async () => {
    const { email, codes } = await withRecoveryCodes();
    expect(await signInWithRecoveryCode(email, codes[0]!)).toBe(200);
    expect(await signInWithRecoveryCode(email, codes[0]!)).toBe(400);
  });

  it("are bound to their account: another account's stored code does not open this one", async () => {
    const victim = await withRecoveryCodes();
    const attacker = await withRecoveryCodes();
    // Someone who can write to the database copies the attacker's rows over the victim's.
    const attackerRows = await storedOf(attacker.userId);
    const victimRows = await storedOf(victim.userId);
    for (const [index, row] of victimRows.entries()) {
      await t.db.updateTable('recovery_codes').set({ code_hash: attackerRows[index]!.code_hash }).where('id', '=', row.id).execute();
    }
    for (const code of attacker.codes.slice(0, 3)) expect(await signInWithRecoveryCode(victim.email, code)).toBe(400);
  });
});

describe('recovery codes stored by an earlier version (plain SHA-256)', () => {
  it('are rewritten in the keyed form when the server starts, and each still works once', async () => {
    const { email, userId, codes } = await withRecoveryCodes();
    await storeAsEarlierVersionsDid(userId, codes);

    // The next start of the server (here, a second instance on the same database) rewrites them.
    const restarted = await createTestApp({ clock, sameDatabaseAs: t });
    try {
      const stored = (await storedOf(userId, restarted)).map((row) => row.code_hash);
      for (const code of codes) expect(stored).not.toContain(plainSha256(code));
      expect(await signInWithRecoveryCode(email, codes[4]!, restarted)).toBe(200);
      expect(await signInWithRecoveryCode(email, codes[4]!, restarted)).toBe(400);
      expect(await signInWithRecoveryCode(email, codes[5]!, restarted)).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  it('written by an older instance while this one runs still work once, and the spent row is rewritten', async () => {
    const { email, userId, codes } = await withRecoveryCodes();
    await storeAsEarlierVersionsDid(userId, codes);

    expect(await signInWithRecoveryCode(email, codes[7]!)).toBe(200);
    expect(await signInWithRecoveryCode(email, codes[7]!)).toBe(400);
    const stored = await storedOf(userId);
    expect(stored.filter((row) => row.used_at !== null)).toHaveLength(1);
    expect(stored.map((row) => row.code_hash)).not.toContain(plainSha256(codes[7]!));
  });
});

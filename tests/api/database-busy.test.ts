import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConnectionOf } from '../../server/db/connect.js';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { testDialect } from '../helpers/test-database.js';

/**
 * SQLite: another process (a second worker, a backup, an administrator's sqlite3 shell) holding the
 * write lock for longer than busy_timeout. Writes answer 503 with Retry-After on both transports;
 * reads go on (WAL); once the lock is let go, the same writes succeed.
 */
describe.runIf(testDialect() === 'sqlite')('a SQLite write lock held elsewhere past busy_timeout', () => {
  let t: TestApp;
  let holder: SQLite.Database;
  beforeAll(async () => {
    t = await createTestApp();
    if (t.target.kind !== 'sqlite') throw new Error('SQLite only');
    holder = new SQLite(t.target.file);
  });
  afterAll(async () => {
    holder?.close();
    await t?.close();
  });

  it('answers writes 503 with Retry-After, REST and tRPC, and serves them once the lock is let go', async () => {
    const { access_token: token, refresh_token: refreshToken } = await t.signUpAndLogIn(uniqueEmail('busy'));
    const rename = () => t.call('PATCH', '/api/v1/auth/profile', { token, body: { first_name: 'Grace' } });
    const renameOverTrpc = () => t.call('POST', '/trpc/profile.update', { token, body: { first_name: 'Ada' } });
    // A refresh commits in a group (db/group-commit.ts), the rename in a Kysely transaction.
    const refresh = () => t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: refreshToken } });
    // The server waits 5 s; the test does not need to.
    writeConnectionOf(t.db)!.raw.pragma('busy_timeout = 50');

    holder.prepare('begin immediate').run();
    try {
      for (const response of [await rename(), await refresh()]) {
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ detail: 'Service temporarily unavailable' });
        expect(response.headers['retry-after']).toBe('1');
      }
      const overTrpc = await renameOverTrpc();
      expect(overTrpc.statusCode).toBe(503);
      expect(overTrpc.json().error).toMatchObject({ message: 'Service temporarily unavailable', data: { code: 'SERVICE_UNAVAILABLE', retryAfterS: 1 } });
      expect(overTrpc.headers['retry-after']).toBe('1');
      expect((await t.call('GET', '/api/v1/auth/me', { token })).statusCode).toBe(200);
    } finally {
      holder.prepare('commit').run();
    }

    expect((await rename()).json()).toMatchObject({ first_name: 'Grace' });
    expect((await renameOverTrpc()).statusCode).toBe(200);
    // The refresh that failed spent nothing: its token still works.
    expect((await refresh()).statusCode).toBe(200);
  });
});

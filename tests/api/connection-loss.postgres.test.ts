import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { connectDatabase } from '../../server/db/connect.js';
import { generateSigningKeyPem, signingKeyFromPem } from '../../server/lib/signing-keys.js';
import { POSTGRES_ADMIN_URL, createTestDatabase } from '../helpers/test-database.js';

/** PostgreSQL only (the server-postgres project runs *.postgres.test.ts; the SQLite one leaves them out). */
describe('a PostgreSQL server that closes connections', () => {
  it('survives PostgreSQL closing its idle connections, and answers again at once', async () => {
    const database = await createTestDatabase();
    const closed: Error[] = [];
    const { db } = connectDatabase(database.target, { onIdleConnectionError: (error) => closed.push(error) });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-pg-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, { allowWeakHashing: true });
    const { app } = await buildApp({ config, db, dialect: 'postgres', signingKey: signingKeyFromPem(generateSigningKeyPem()), clientDir: path.join(dataDir, 'no-client') });
    try {
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      // What a PostgreSQL restart or an administrator does to every session of the database.
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [rows[0]!.name]);
      await admin.end();
      for (let i = 0; i < 50 && closed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(closed.length).toBeGreaterThan(0);
      expect((await app.inject({ url: '/health' })).json()).toMatchObject({ status: 'ok', database: 'ok' });
    } finally {
      await app.close();
      await db.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

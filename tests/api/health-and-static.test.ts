import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { connectDatabase } from '../../server/db/connect.js';
import { generateSigningKeyPem, signingKeyFromPem } from '../../server/lib/signing-keys.js';
import { POSTGRES_ADMIN_URL, createTestDatabase, testDialect } from '../helpers/test-database.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function appWithClient() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-static-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'client', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'client', 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'client', 'assets', 'app-abc123.js'), 'console.log(1)');
  const database = await createTestDatabase();
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, { allowWeakHashing: true });
  const { app } = await buildApp({ config, db: database.db, dialect: database.dialect, signingKey: signingKeyFromPem(generateSigningKeyPem()), clientDir: path.join(dir, 'client') });
  return { app, database };
}

describe('health', () => {
  it('answers 503 when the database does not answer', async () => {
    const { app, database } = await appWithClient();
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    await database.db.destroy();
    const down = await app.inject({ url: '/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
    await app.close();
    await database.drop().catch(() => {});
  });

  it.runIf(testDialect() === 'postgres')('survives PostgreSQL closing its idle connections, and answers again at once', async () => {
    const database = await createTestDatabase();
    const closed: Error[] = [];
    const { db } = connectDatabase(database.target, { onIdleConnectionError: (error) => closed.push(error) });
    const config = loadConfig({ DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, { allowWeakHashing: true });
    const { app } = await buildApp({ config, db, dialect: 'postgres', signingKey: signingKeyFromPem(generateSigningKeyPem()), clientDir: os.tmpdir() });
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
    }
  });
});

describe('serving the built client', () => {
  it('serves assets with long caching and falls back to index.html for client routes', async () => {
    const { app, database } = await appWithClient();
    const asset = await app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const route of ['/', '/login', '/dashboard', '/verify-email?token=abc', '/no/such/page']) {
      const page = await app.inject({ url: route, headers: { accept: 'text/html' } });
      expect(page.statusCode, route).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/v1/unknown' })).json().detail).toMatch(/^Not Found/);
    expect((await app.inject({ url: '/../../etc/passwd' })).body).not.toContain('root:');
    await app.close();
    await database.drop();
  });
});

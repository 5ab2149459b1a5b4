import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { generateSigningKeyPem, signingKeyFromPem } from '../../server/lib/signing-keys.js';
import { createTestDatabase } from '../helpers/test-database.js';

const dirs: string[] = [];
const migrationNames = Object.keys(migrations).sort();
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function appWithClient(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-static-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'client', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'client', 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dir, 'client', 'assets', 'app-abc123.js'), 'console.log(1)');
  const database = await createTestDatabase();
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', BCRYPT_COST: '4', ...env }, { allowWeakHashing: true });
  const { app } = await buildApp({ config, db: database.db, dialect: database.dialect, signingKey: signingKeyFromPem(generateSigningKeyPem()), clientDir: path.join(dir, 'client') });
  return { app, database };
}

describe('health and readiness', () => {
  it('/health stays 200 while the database does not answer (liveness), /ready answers 503 naming it', async () => {
    const { app, database } = await appWithClient();
    expect((await app.inject({ url: '/health' })).json()).toMatchObject({ status: 'ok', database: 'ok' });
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', pending_migrations: [] });
    expect(ready.headers['cache-control']).toBe('no-store');

    await database.db.destroy();
    const down = await app.inject({ url: '/health' });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
    const notReady = await app.inject({ url: '/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: 'not_ready', database: 'unavailable', migrations: 'unknown', pending_migrations: [] });
    await app.close();
    await database.drop().catch(() => {});
  });

  it('/ready answers 503 naming the migrations this version has that the database has not run', async () => {
    const { app, database } = await appWithClient();
    const latest = migrationNames.at(-1)!;
    // As a database restored from a backup an older version made would be.
    await sql`delete from kysely_migration where name = ${latest}`.execute(database.db);
    const notReady = await app.inject({ url: '/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: 'not_ready', database: 'ok', migrations: 'pending', pending_migrations: [latest] });
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    await app.close();
    await database.drop();
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
    // Metrics are off (no METRICS_TOKEN): their path is not a client route.
    const metrics = await app.inject({ url: '/metrics', headers: { accept: 'text/html' } });
    expect(metrics.statusCode).toBe(404);
    expect(metrics.json().detail).toMatch(/^Not Found/);
    expect((await app.inject({ url: '/../../etc/passwd' })).body).not.toContain('root:');
    await app.close();
    await database.drop();
  });

  it("writes the operator's site settings into every page, for the client to read before it renders", async () => {
    const site = (body: string) => JSON.parse(/<meta name="authplatform-site" content="([^"]*)" \/>/.exec(body)![1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    const plain = await appWithClient();
    const page = (await plain.app.inject({ url: '/login', headers: { accept: 'text/html' } })).body;
    expect(page).toMatch(/<meta name="authplatform-site" [^>]*>\n  <\/head>/);
    expect(site(page)).toEqual({ landingPage: true, privacyUrl: null, termsUrl: null });
    await plain.app.close();
    await plain.database.drop();

    const operator = await appWithClient({ LANDING_PAGE: 'off', PRIVACY_URL: 'https://example.com/privacy?a=1&b="2"', TERMS_URL: 'https://example.com/terms' });
    const configured = (await operator.app.inject({ url: '/', headers: { accept: 'text/html' } })).body;
    expect(site(configured)).toEqual({ landingPage: false, privacyUrl: 'https://example.com/privacy?a=1&b="2"', termsUrl: 'https://example.com/terms' });
    await operator.app.close();
    await operator.database.drop();
  });
});

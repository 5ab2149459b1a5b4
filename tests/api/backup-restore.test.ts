import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { BackupError, backUp, restore } from '../../server/cli/backup-archive.js';
import { loadConfig } from '../../server/config.js';
import { connectDatabase } from '../../server/db/connect.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { startLoad } from '../helpers/http-load.js';
import { testDialect } from '../helpers/test-database.js';

/**
 * npm run backup and npm run restore (SQLite; PostgreSQL is pg_dump's, see the README): the CLIs run
 * as the operator runs them, in processes of their own, against a server that keeps writing.
 */
const root = path.resolve(import.meta.dirname, '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-backup-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs a CLI of server/cli with exactly `env` (and PATH); resolves with its exit code and output. */
function runCli(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `server/cli/${script}`, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const say = () => {};

describe.runIf(testDialect() === 'sqlite')('npm run backup and npm run restore', () => {
  let t: TestApp;
  let serverEnv: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
    if (t.target.kind !== 'sqlite') throw new Error('SQLite only');
    serverEnv = { DATA_DIR: t.deps.config.dataDir, DATABASE_URL: t.target.file };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a backup taken under write load restores to a database that passes integrity_check and serves sign-ins', async () => {
    // A developer with a project and a key, and an end user of it: their sign-ins need the restored master key.
    const developerEmail = uniqueEmail('backed-up');
    const developer = await t.signUpAndLogIn(developerEmail);
    const project = (await t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: 'Backed up' } })).json();
    const { secret: apiKey } = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'k' } })).json();
    const endUserEmail = uniqueEmail('backed-up-end-user');
    const endUserHeaders = { 'x-api-key': apiKey, 'x-end-user-ip': uniqueIp() };
    expect((await t.call('POST', '/public/api/v1/auth/signup', { body: { email: endUserEmail, password: STRONG_PASSWORD }, headers: endUserHeaders })).statusCode).toBe(201);

    // Sign-ups (a transaction of several rows each) and profile changes, all through the backup.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    let turn = 0;
    const load = startLoad((): { url: string; init: RequestInit } => {
      turn += 1;
      if (turn % 2) {
        const body = JSON.stringify({ email: uniqueEmail('during-backup'), password: STRONG_PASSWORD });
        return { url: `${base}/api/v1/auth/signup`, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body } };
      }
      const body = JSON.stringify({ first_name: `Ada ${turn}` });
      return { url: `${base}/api/v1/auth/profile`, init: { method: 'PATCH', headers: { authorization: `Bearer ${developer.access_token}`, 'content-type': 'application/json' }, body } };
    }, { connections: 4 });
    await load.next(20);

    const countUsers = async () => Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const usersBefore = await countUsers();
    const answeredBefore = load.answers.length;
    const archive = path.join(scratch, 'backup.tar');
    const backedUp = await runCli('backup.ts', [archive], serverEnv);
    const answeredDuring = load.answers.length - answeredBefore;
    const usersAfter = await countUsers();
    await load.next(10);
    const answers = await load.stop();
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(backedUp.output).toMatch(/^Backed up .* and keys\/master\.key to /);
    expect(answeredDuring).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 201)).toEqual([]);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    if (spawnSync('tar', ['--version']).status === 0) {
      expect(spawnSync('tar', ['-tf', archive], { encoding: 'utf8' }).stdout.trim().split('\n')).toEqual(['backup.json', 'authplatform.sqlite', 'keys/master.key']);
    }

    const restoredDir = path.join(scratch, 'restored');
    const restored = await runCli('restore.ts', [archive], { DATA_DIR: restoredDir });
    expect(restored.code, restored.output).toBe(0);
    const restoredFile = path.join(restoredDir, 'authplatform.sqlite');
    const check = new SQLite(restoredFile, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(check.pragma('foreign_key_check')).toEqual([]);
      // The database as of one moment of the backup.
      const users = (check.prepare('select count(*) as n from users').get() as { n: number }).n;
      expect(users).toBeGreaterThanOrEqual(usersBefore);
      expect(users).toBeLessThanOrEqual(usersAfter);
    } finally {
      check.close();
    }
    expect(fs.readFileSync(path.join(restoredDir, 'keys', 'master.key'))).toEqual(fs.readFileSync(path.join(t.deps.config.dataDir, 'keys', 'master.key')));

    // A server on the restored folder signs the developer and the project's end user in.
    const config = loadConfig({ APP_URL, DATA_DIR: restoredDir, LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, { allowWeakHashing: true });
    const { db, dialect } = connectDatabase(config.database);
    const { app } = await buildApp({ config, db, dialect, clientDir: path.join(restoredDir, 'no-client') });
    try {
      const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
        app.inject({ method: 'POST', url, payload: body as object, headers: { 'content-type': 'application/json', ...headers }, remoteAddress: uniqueIp() });
      const login = await post('/api/v1/auth/login', { email: developerEmail, password: STRONG_PASSWORD });
      expect(login.statusCode, login.body).toBe(200);
      expect((await app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${login.json().access_token}` } })).json()).toMatchObject({ email: developerEmail });
      const endUser = await post('/public/api/v1/auth/login', { email: endUserEmail, password: STRONG_PASSWORD }, endUserHeaders);
      expect(endUser.statusCode, endUser.body).toBe(200);
      expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('restores only into an empty data folder, and leaves a non-empty one as it was', async () => {
    const archive = path.join(scratch, 'for-refusals.tar');
    await backUp(loadConfig(serverEnv), archive, say);
    const occupied = path.join(scratch, 'occupied');
    fs.mkdirSync(occupied);
    fs.writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    await expect(restore(loadConfig({ DATA_DIR: occupied }), archive, say)).rejects.toThrow(/DATA_DIR .* is not empty: restore into an empty data folder/);
    expect(fs.readdirSync(occupied)).toEqual(['notes.txt']);
    // The database file is elsewhere (DATABASE_URL) and exists.
    const elsewhere = path.join(scratch, 'elsewhere.sqlite');
    fs.writeFileSync(elsewhere, '');
    await expect(restore(loadConfig({ DATA_DIR: path.join(scratch, 'fresh'), DATABASE_URL: elsewhere }), archive, say)).rejects.toThrow(/elsewhere\.sqlite exists/);
    expect(fs.existsSync(path.join(scratch, 'fresh'))).toBe(false);
  });

  it('refuses a master key that does not open the backup, and leaves nothing behind', async () => {
    const archive = path.join(scratch, 'for-master-key.tar');
    await backUp(loadConfig(serverEnv), archive, say);
    const target = path.join(scratch, 'wrong-key');
    const wrongKey = Buffer.alloc(32, 7).toString('base64');
    await expect(restore(loadConfig({ DATA_DIR: target, MASTER_KEY: wrongKey }), archive, say)).rejects.toThrow('MASTER_KEY does not open the secrets sealed in this database');
    expect(fs.existsSync(target)).toBe(false);
    // Nor does a backup go ahead with a master key that cannot open its database.
    await expect(backUp(loadConfig({ ...serverEnv, MASTER_KEY: wrongKey }), path.join(scratch, 'never.tar'), say)).rejects.toThrow(BackupError);
    expect(fs.readdirSync(scratch).filter((name) => name.startsWith('never'))).toEqual([]);
  });

  it('never replaces a file, and sends PostgreSQL to pg_dump', async () => {
    const existing = path.join(scratch, 'existing.tar');
    fs.writeFileSync(existing, 'precious');
    await expect(backUp(loadConfig(serverEnv), existing, say)).rejects.toThrow(/exists already: a backup never replaces a file/);
    expect(fs.readFileSync(existing, 'utf8')).toBe('precious');
    await expect(backUp(loadConfig({ DATABASE_URL: 'postgres://auth@db/authplatform' }), path.join(scratch, 'pg.tar'), say)).rejects.toThrow(/PostgreSQL: use pg_dump/);
  });
});

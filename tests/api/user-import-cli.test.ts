import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * `npm run import -- --project KEY FILE`: the same import job as the REST route, run on the configured
 * database without the server (here the test server's own database, SQLite or PostgreSQL). Exit codes:
 * 0 all imported, 3 some lines failed (listed by number on stdout), 1 the job could not run, 2 usage.
 */

const run = promisify(execFile);
let t: TestApp;
let files: string;
let project: { id: string; project_key: string };
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp();
  files = mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  const owner = await t.signUpAndLogIn(uniqueEmail('cli-owner'));
  project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'From the command line' } })).json();
  apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json().secret;
});

afterAll(async () => {
  rmSync(files, { recursive: true, force: true });
  await t?.close();
});

function file(name: string, text: string): string {
  const where = path.join(files, name);
  writeFileSync(where, text);
  return where;
}

/** The CLI as `npm run import` starts it, on the test server's database and data directory (its master key). */
async function importCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const database = t.target.kind === 'postgres' ? t.target.url : t.target.file;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/cli/import.ts', ...args], {
      env: { ...process.env, DATABASE_URL: database, DATA_DIR: t.deps.config.dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout: string; stderr: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const logIn = (email: string, password: string) =>
  t.call('POST', '/public/api/v1/auth/login', { body: { email, password }, headers: { 'x-api-key': apiKey }, ip: uniqueIp() });

describe('npm run import', () => {
  it('imports the good lines, lists the bad ones by number with exit code 3, and the imported users sign in with their old password', async () => {
    const kept = uniqueEmail('cli-kept');
    const hash = await bcrypt.hash('Old-Password-42', 4);
    const users = file(
      'users.ndjson',
      [
        JSON.stringify({ email: kept, email_verified: true, first_name: 'Kept', password: hash }),
        JSON.stringify({ email: 'not an address' }),
        '{ not json',
        JSON.stringify({ email: uniqueEmail('cli-second'), email_verified: true }),
      ].join('\n') + '\n',
    );

    const dryRun = await importCli('--project', project.project_key, '--dry-run', users);
    expect(dryRun.code, dryRun.stderr).toBe(3);
    expect(dryRun.stderr).toContain('done: 4 lines read, 2 users would be created, 2 failed');
    expect((await logIn(kept, 'Old-Password-42')).statusCode).toBe(401);

    const result = await importCli('--project', project.project_key, users);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toMatch(/^line 2: .+$/m);
    expect(result.stdout).toMatch(/^line 3: .+$/m);
    expect(result.stdout).not.toMatch(/^line [14]:/m);
    expect(result.stderr).toContain('done: 4 lines read, 2 users created, 2 failed');

    const signedIn = await logIn(kept, 'Old-Password-42');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const jobs = await t.db.selectFrom('user_import_jobs').select(['source', 'created', 'failed']).where('project_id', '=', project.id).orderBy('created_at').execute();
    expect(jobs.map((job) => ({ ...job, created: Number(job.created), failed: Number(job.failed) }))).toEqual([
      { source: 'cli', created: 2, failed: 2 },
      { source: 'cli', created: 2, failed: 2 },
    ]);
  });

  it('exits 0 when every line is imported', async () => {
    const result = await importCli('--project', project.project_key, file('clean.json', JSON.stringify([{ email: uniqueEmail('cli-clean') }])));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('done: 1 lines read, 1 users created, 0 failed');
  });

  it('says in one line what is wrong instead of a stack trace', async () => {
    const users = file('one.ndjson', JSON.stringify({ email: uniqueEmail('cli-one') }) + '\n');
    const cases: Array<{ args: string[]; code: number; says: string }> = [
      { args: [users], code: 2, says: 'Usage: npm run import -- --project PROJECT_KEY' },
      { args: ['--project', project.project_key, '--format', 'okta', users], code: 2, says: 'Usage:' },
      { args: ['--project', project.project_key, '--colour', users], code: 2, says: "Unknown option '--colour'" },
      { args: ['--project', 'pk_nothing_here', users], code: 1, says: 'No project with the key pk_nothing_here' },
      { args: ['--project', project.project_key, path.join(files, 'missing.ndjson')], code: 1, says: `Cannot read ${path.join(files, 'missing.ndjson')}` },
      { args: ['--project', project.project_key, files], code: 1, says: `Cannot read ${files}` },
      { args: ['--project', project.project_key, file('users.csv', 'email\nsomeone@example.com\n')], code: 2, says: 'a native import reads NDJSON or a JSON array' },
      { args: ['--project', project.project_key, '--format', 'firebase', '--firebase-params', file('params.json', '{ nope'), users], code: 1, says: 'must be JSON' },
      { args: ['--project', project.project_key, '--format', 'firebase', '--firebase-params', file('weak.json', '{"signer_key": "a", "rounds": 0, "mem_cost": 14}'), users], code: 1, says: 'weak.json: rounds: Too small' },
    ];
    const results = await Promise.all(cases.map(({ args }) => importCli(...args)));
    cases.forEach(({ args, code, says }, i) => {
      expect({ args, code: results[i]!.code }).toEqual({ args, code });
      expect(results[i]!.stderr, args.join(' ')).toContain(says);
      expect(results[i]!.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    });
  });
});

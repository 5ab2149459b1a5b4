// npm run bench: drives the real server with autocannon on loopback and prints requests/s and p99
// for login, refresh (the platform's, and an end user's with and without organization and custom
// claims), me, the public API's profile, a bare route inside our app and a bare Fastify route in its own
// process (the ceiling), the raw bcrypt rate, me's p99 during a login flood, memory over a one-minute run,
// and a 100,000-user import (its time and the server's memory).
// Figures are ratios against the bare routes measured in the same run.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import { HASHING_CONCURRENCY } from '../server/lib/passwords.js';

// BENCH_PORT: the first of the three ports the run listens on, for two runs on one machine.
const PORT = Number(process.env.BENCH_PORT ?? 3917);
const BASE = `http://127.0.0.1:${PORT}`;
const COST = Number(process.env.BCRYPT_COST ?? 12);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PASSWORD = 'Bench-Password-42';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-bench-'));

const children: ChildProcess[] = [];
// A failed run must not leave its servers behind.
process.once('exit', () => children.forEach((child) => child.kill('SIGTERM')));

function start(file: string, port: number, env: NodeJS.ProcessEnv = {}) {
  const child = fork(path.join(import.meta.dirname, file), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise<typeof child>((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}
// BENCH_DATABASE_URL: a PostgreSQL server (postgres://user@host:port/any-database) to run on instead of
// a SQLite file; the run makes a database of its own there and drops it at the end.
const postgres = process.env.BENCH_DATABASE_URL ? await createBenchDatabase(process.env.BENCH_DATABASE_URL) : null;
const serverEnv = {
  DATA_DIR: dataDir,
  RATE_LIMITS: 'off',
  LOG_LEVEL: 'warn',
  BCRYPT_COST: String(COST),
  APP_URL: BASE,
  ...(postgres && { DATABASE_URL: postgres.url }),
};
const server = await start('server.ts', PORT, serverEnv);
const ceiling = await start('bare-server.ts', PORT + 1);

async function post(pathname: string, body: unknown, token?: string) {
  const res = await fetch(`${BASE}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

const summary = (r: autocannon.Result) => ({ rps: Math.round(r.requests.average), p99_ms: r.latency.p99, errors: r.errors + r.non2xx });

/** CPU time (user + system, µs) of a process and its children (cluster workers), from Linux's /proc; null elsewhere. */
function cpuMicros(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) * 10_000;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return children.reduce((sum, child) => sum + (cpuMicros(child) ?? 0), own);
  } catch {
    return null;
  }
}

/** CPU time (µs) of every PostgreSQL server process on this machine (it shares the cores); null elsewhere. */
function postgresCpuMicros(): number | null {
  try {
    let total = 0;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    }
    return total;
  } catch {
    return null;
  }
}

/** A phase with the serving processes' CPU time per request, which the noise moves far less than requests/s. */
async function phase(target: ChildProcess, options: autocannon.Options) {
  const before = cpuMicros(target.pid!);
  const databaseBefore = postgres ? postgresCpuMicros() : null;
  const result = await run(options);
  const after = cpuMicros(target.pid!);
  const databaseAfter = postgres ? postgresCpuMicros() : null;
  const requests = Math.max(1, result.requests.total);
  const cpu_us = before === null || after === null ? null : Math.round((after - before) / requests);
  const db_cpu_us = databaseBefore === null || databaseAfter === null ? null : Math.round((databaseAfter - databaseBefore) / requests);
  return { ...summary(result), cpu_us, ...(postgres && { db_cpu_us }) };
}

async function createBenchDatabase(serverUrl: string) {
  const { default: pg } = await import('pg');
  const name = `authplatform_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

const email = 'bench@example.com';
await post('/api/v1/auth/signup', { email, password: PASSWORD });

// A project with an API key and a signed-in end user, for the public API (creating projects needs a
// verified address: the link is in the outbox, as the local demo writes it without SMTP).
async function verifyFromOutbox() {
  const outbox = path.join(dataDir, 'outbox');
  // The mail may be listed before it is fully written: wait for its link, not just its file.
  const link = () => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    const mail = files.length ? fs.readFileSync(path.join(outbox, files[0]!), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=') : '';
    return /verify-email\?token=([\w-]+)/.exec(mail)?.[1];
  };
  let verificationToken = link();
  for (let i = 0; i < 100 && !verificationToken; i++) {
    await new Promise((r) => setTimeout(r, 100));
    verificationToken = link();
  }
  if (!verificationToken) throw new Error('bench: no verification mail in the outbox');
  await post('/api/v1/auth/verify-email', { token: verificationToken });
}
// Verifying ends the sessions opened before it (pre-registration): sign in afterwards.
await verifyFromOutbox();
const token: string = (await post('/api/v1/auth/login', { email, password: PASSWORD })).body.access_token;
const loginBody = JSON.stringify({ email, password: PASSWORD });
const project = (await post('/api/v1/projects', { name: 'Bench' }, token)).body;
const apiKey: string = (await post(`/api/v1/projects/${project.id}/api-keys`, { name: 'bench' }, token)).body.secret;
const publicHeaders = { 'content-type': 'application/json', 'x-api-key': apiKey };
await fetch(`${BASE}/public/api/v1/auth/signup`, { method: 'POST', headers: publicHeaders, body: JSON.stringify({ email: 'end-user@example.com', password: PASSWORD }) });
const endUser = await fetch(`${BASE}/public/api/v1/auth/login`, { method: 'POST', headers: publicHeaders, body: JSON.stringify({ email: 'end-user@example.com', password: PASSWORD }) });
const endUserToken: string = ((await endUser.json()) as { access_token: string }).access_token;

// Raw bcrypt compare rate at the configured cost, with as many compares in parallel as the server allows.
const hash = await bcrypt.hash(PASSWORD, COST);
const poolSize = HASHING_CONCURRENCY;
let compares = 0;
// bcrypt runs on this process's thread pool, so the process's CPU time over the loop is theirs.
const bcryptCpuBefore = process.cpuUsage();
const bcryptDeadline = Date.now() + 5000;
await Promise.all(
  Array.from({ length: poolSize }, async () => {
    while (Date.now() < bcryptDeadline) {
      await bcrypt.compare(PASSWORD, hash);
      compares += 1;
    }
  }),
);
const bcryptRate = compares / 5;
const bcryptCpu = process.cpuUsage(bcryptCpuBefore);
/** CPU µs of one raw compare: what a login cannot cost less than, whatever else runs on the machine. */
const bcryptCpuUs = Math.round((bcryptCpu.user + bcryptCpu.system) / Math.max(1, compares));

const bareProcess = await phase(ceiling, { url: `http://127.0.0.1:${PORT + 1}/hello`, connections: 10, duration: SECONDS });
const bare = await phase(server, { url: `${BASE}/__bare`, connections: 10, duration: SECONDS });
const me = await phase(server, { url: `${BASE}/api/v1/auth/me`, connections: 10, duration: SECONDS, headers: { authorization: `Bearer ${token}` } });
const publicProfile = await phase(server, {
  url: `${BASE}/public/api/v1/profile`,
  connections: 10,
  duration: SECONDS,
  headers: { 'x-api-key': apiKey, authorization: `Bearer ${endUserToken}` },
});
const loginRun = await phase(server, { url: `${BASE}/api/v1/auth/login`, method: 'POST', connections: 8, duration: SECONDS, headers: { 'content-type': 'application/json' }, body: loginBody });

// A pool of live refresh tokens: each request takes one and puts its successor back, so no token is
// ever presented twice (autocannon resets per-connection context between requests).
const REFRESH_CONNECTIONS = 10;
function refreshPhase(pathname: string, headers: Record<string, string>, pool: string[]) {
  return phase(server, {
    url: BASE,
    connections: REFRESH_CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: pathname,
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ refresh_token: pool.shift() }) }),
        onResponse: (status, body) => {
          if (status === 200) pool.push(JSON.parse(body).refresh_token);
        },
      },
    ],
  });
}
const pool: string[] = [];
for (let i = 0; i < REFRESH_CONNECTIONS * 2; i++) pool.push((await post('/api/v1/auth/login', { email, password: PASSWORD })).body.refresh_token);
const refresh = await refreshPhase('/api/v1/auth/refresh', {}, pool);

// An end user's refresh on the public API, plain and with what organizations add to the access token
// (the active organization's claims with its permissions, public metadata, and a custom-claims
// template rendered on each refresh), on two projects of this server, back to back.
async function publicCall<T = { access_token: string; refresh_token: string }>(method: string, pathname: string, key: string, body: unknown, bearer?: string): Promise<T> {
  const res = await fetch(`${BASE}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`bench: ${method} ${pathname} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
async function endUserPool(key: string, userEmail: string, organizationId: string | null) {
  const tokens: string[] = [];
  for (let i = 0; i < REFRESH_CONNECTIONS * 2; i++) {
    const signedIn = await publicCall('POST', '/public/api/v1/auth/login', key, { email: userEmail, password: PASSWORD });
    const pair = organizationId ? await publicCall('POST', '/public/api/v1/auth/switch-organization', key, { organization_id: organizationId }, signedIn.access_token) : signedIn;
    tokens.push(pair.refresh_token);
  }
  return tokens;
}
const plainPool = await endUserPool(apiKey, 'end-user@example.com', null);
const b2b = (await post('/api/v1/projects', { name: 'Bench B2B' }, token)).body;
const b2bKey: string = (await post(`/api/v1/projects/${b2b.id}/api-keys`, { name: 'bench' }, token)).body.secret;
await publicCall('POST', '/public/api/v1/auth/signup', b2bKey, { email: 'member@example.com', password: PASSWORD });
const memberId = (await publicCall<{ user: { id: string } }>('POST', '/public/api/v1/auth/login', b2bKey, { email: 'member@example.com', password: PASSWORD })).user.id;
await publicCall('PATCH', `/public/api/v1/users/${memberId}/metadata`, b2bKey, { public_metadata: { plan: 'pro', seats: 25 } });
await post(`/api/v1/projects/${b2b.id}/roles`, { key: 'org:billing', name: 'Billing', permissions: ['invoices:read', 'invoices:write'] }, token);
const organization = await publicCall<{ id: string }>('POST', '/public/api/v1/organizations', b2bKey, { name: 'Acme', created_by: memberId, public_metadata: { tier: 'enterprise' } });
await fetch(`${BASE}/api/v1/projects/${b2b.id}/organization-settings`, {
  method: 'PATCH',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ custom_claims: { plan: '{{ user.public_metadata.plan }}', tenant: '{{ org.slug }}', tier: '{{ org.public_metadata.tier }}', greeting: 'Hello {{ user.email }}' } }),
});
const claimsPool = await endUserPool(b2bKey, 'member@example.com', organization.id);
const publicRefresh = await refreshPhase('/public/api/v1/auth/refresh', { 'x-api-key': apiKey }, plainPool);
const claimsRefresh = await refreshPhase('/public/api/v1/auth/refresh', { 'x-api-key': b2bKey }, claimsPool);

// me while logins saturate the hashing pool: the event loop must stay responsive.
const [meDuringFlood] = await Promise.all([
  run({ url: `${BASE}/api/v1/auth/me`, connections: 4, duration: SECONDS, headers: { authorization: `Bearer ${token}` } }).then(summary),
  run({ url: `${BASE}/api/v1/auth/login`, method: 'POST', connections: 16, duration: SECONDS, headers: { 'content-type': 'application/json' }, body: loginBody }),
]);

// Memory over a one-minute mixed run.
const memory = async () => (await (await fetch(`${BASE}/__memory`)).json()) as NodeJS.MemoryUsage;
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const soak = run({ url: `${BASE}/api/v1/auth/me`, connections: 8, duration: soakSeconds, headers: { authorization: `Bearer ${token}` } });
await new Promise((r) => setTimeout(r, 10_000));
const early = await memory();
await soak;
const late = await memory();

// BENCH_IMPORT_USERS (100,000): an import of that many users, NDJSON streamed from a generator (never whole in this
// process either), half with an imported bcrypt hash, all with an external id and metadata; its upload and total time,
// and the server's heap after GC (sampled every 500 ms while it runs) and RSS, against the same before it.
const IMPORT_USERS = Number(process.env.BENCH_IMPORT_USERS ?? 100_000);
const importProject = (await post('/api/v1/projects', { name: 'Bench import' }, token)).body;
async function* importLines() {
  for (let i = 0; i < IMPORT_USERS; i += 1000) {
    let chunk = '';
    for (let j = i; j < Math.min(IMPORT_USERS, i + 1000); j++) {
      chunk += `${JSON.stringify({
        email: `user-${j}@import.bench`,
        email_verified: true,
        first_name: 'Imported',
        last_name: `User ${j}`,
        external_id: `legacy-${j}`,
        public_metadata: { plan: j % 3 ? 'free' : 'pro' },
        ...(j % 2 === 0 && { password: '$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' }),
      })}\n`;
    }
    yield Buffer.from(chunk);
  }
}
const importBefore = await memory();
const importStarted = performance.now();
const importAnswer = await fetch(`${BASE}/api/v1/projects/${importProject.id}/users/import`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
  body: Readable.toWeb(Readable.from(importLines())) as ReadableStream,
  duplex: 'half',
} as RequestInit);
if (importAnswer.status !== 202) throw new Error(`bench: the import answered ${importAnswer.status}: ${await importAnswer.text()}`);
const importUploadMs = performance.now() - importStarted;
const { job_id: importJobId } = (await importAnswer.json()) as { job_id: string };
let importJob: { state: string; lines_read: number; created: number; failed: number };
let importPeak = importBefore;
for (;;) {
  const sample = await memory();
  if (sample.heapUsed > importPeak.heapUsed) importPeak = { ...importPeak, heapUsed: sample.heapUsed };
  if (sample.rss > importPeak.rss) importPeak = { ...importPeak, rss: sample.rss };
  importJob = await (await fetch(`${BASE}/api/v1/projects/${importProject.id}/users/import/${importJobId}`, { headers: { authorization: `Bearer ${token}` } })).json();
  if (importJob.state !== 'running') break;
  await new Promise((r) => setTimeout(r, 500));
}
const importMs = performance.now() - importStarted;
const importAfter = await memory();
if (importJob.state !== 'done' || importJob.created !== IMPORT_USERS) throw new Error(`bench: the import ended ${JSON.stringify(importJob)}`);

// BENCH_WORKERS=N: me again on this server, then on a second server with WORKERS=N on the same
// database (same keys, so the same token), back to back. The load generator shares the machine's cores.
const benchWorkers = Number(process.env.BENCH_WORKERS ?? 1);
let scaling: { oneWorker: Awaited<ReturnType<typeof phase>>; workers: Awaited<ReturnType<typeof phase>> } | null = null;
if (benchWorkers > 1) {
  const oneWorker = await phase(server, { url: `${BASE}/api/v1/auth/me`, connections: 10, duration: SECONDS, headers: { authorization: `Bearer ${token}` } });
  const clustered = await start('server.ts', PORT + 2, { ...serverEnv, WORKERS: String(benchWorkers) });
  const workers = await phase(clustered, {
    url: `http://127.0.0.1:${PORT + 2}/api/v1/auth/me`,
    connections: 10,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  clustered.kill('SIGTERM');
  scaling = { oneWorker, workers };
}

server.kill('SIGTERM');
ceiling.kill('SIGTERM');
await Promise.all([server, ceiling].map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))));
await postgres?.drop();
fs.rmSync(dataDir, { recursive: true, force: true });

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;
console.log(`\nAuthPlatform benchmark (bcrypt cost ${COST}, ${SECONDS}s per phase, ${postgres ? 'PostgreSQL (db_cpu_us: its server processes)' : 'SQLite'}, loopback)\n`);
console.table({
  'bare Fastify process': bareProcess,
  'bare route in our app': bare,
  me,
  'public profile': publicProfile,
  login: loginRun,
  refresh,
  'public refresh': publicRefresh,
  'public refresh with org + custom claims': claimsRefresh,
  'me during login flood': meDuringFlood,
  ...(scaling && { 'me again, 1 worker': scaling.oneWorker, [`me, ${benchWorkers} workers`]: scaling.workers }),
});
for (const [name, result] of Object.entries({ me, 'public profile': publicProfile, refresh, 'public refresh': publicRefresh, 'public refresh with claims': claimsRefresh, login: loginRun })) {
  if (result.errors) console.warn(`WARNING: ${name} had ${result.errors} failed requests; its figure is not a measurement`);
}
console.log(`raw bcrypt compares/s (${poolSize} in parallel): ${bcryptRate.toFixed(1)}`);
console.log(`me / bare Fastify process: ${pct(me.rps, bareProcess.rps)} (target ≥ ${postgres ? 40 : 50}%); me / bare route in our app: ${pct(me.rps, bare.rps)}`);
console.log(`public profile (API key + end-user token) / bare Fastify process: ${pct(publicProfile.rps, bareProcess.rps)} (target ≥ ${postgres ? 30 : 35}%)`);
console.log(`refresh / bare Fastify process: ${pct(refresh.rps, bareProcess.rps)} (target ≥ 15%)`);
console.log(
  `public refresh with organization + custom claims / without: ${pct(claimsRefresh.rps, publicRefresh.rps)} of the refreshes/s${claimsRefresh.cpu_us !== null && publicRefresh.cpu_us !== null ? `, ${pct(claimsRefresh.cpu_us, publicRefresh.cpu_us)} of the CPU per refresh (${claimsRefresh.cpu_us} µs against ${publicRefresh.cpu_us})` : ''}`,
);
console.log(`login / raw bcrypt: ${pct(loginRun.rps, bcryptRate)} (target ≥ 95%)`);
if (loginRun.cpu_us !== null) {
  // The same ratio in CPU time, which other processes on the machine do not move: a compare's CPU over a login's.
  console.log(`raw bcrypt CPU per compare: ${bcryptCpuUs} µs; login CPU per login: ${loginRun.cpu_us} µs; bcrypt / login CPU: ${pct(bcryptCpuUs, loginRun.cpu_us)}`);
}
console.log(`me p99 during login flood: ${meDuringFlood.p99_ms} ms (target < 20 ms)`);
if (scaling) {
  console.log(
    `me with ${benchWorkers} workers / with 1: ${pct(scaling.workers.rps, scaling.oneWorker.rps)}; / bare Fastify process: ${pct(scaling.workers.rps, bareProcess.rps)} (load generator on the same cores)`,
  );
}
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
console.log(`heap after GC at 10 s: ${mib(early.heapUsed)}, at ${soakSeconds} s: ${mib(late.heapUsed)} (${pct(late.heapUsed, early.heapUsed)}); RSS ${mib(early.rss)} → ${mib(late.rss)}`);
console.log(
  `import of ${IMPORT_USERS.toLocaleString('en')} users (NDJSON): upload ${(importUploadMs / 1000).toFixed(1)} s, done in ${(importMs / 1000).toFixed(1)} s (${Math.round(IMPORT_USERS / (importMs / 1000))} users/s); heap after GC ${mib(importBefore.heapUsed)} → peak ${mib(importPeak.heapUsed)} → ${mib(importAfter.heapUsed)}; RSS ${mib(importBefore.rss)} → peak ${mib(importPeak.rss)} → ${mib(importAfter.rss)}`,
);

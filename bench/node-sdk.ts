// npm run bench:node (and at the end of npm run bench): @authplatform/node against the real server in this process
// (a SQLite file): requireAuth's cost per request against a bare route of the same Fastify app (autocannon, same
// run), the verification itself (a remembered token, and a full ES256 check), how long a revocation takes to reach
// the middleware (p50/p99 over 100 sign-outs, REVOCATION_POLL_MS as configured, 500 ms by default), and every
// package's size minified + gzipped (esbuild; with its dependencies bundled, and its own code alone; React excluded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import Fastify from 'fastify';
import { createAuthPlatform, createVerifier } from '../packages/node/src/index.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { connectDatabase } from '../server/db/connect.js';
import { migrateToLatest } from '../server/db/migrate.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PASSWORD = 'Bench-Password-42';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-bench-node-'));
const { SMTP_URL: _smtp, DATABASE_URL: _database, ...env } = process.env;
const config = loadConfig({ ...env, DATA_DIR: dataDir, RATE_LIMITS: 'off', LOG_LEVEL: 'warn', BCRYPT_COST: '4', APP_URL: 'http://127.0.0.1' }, { allowWeakHashing: true });
const { db, dialect } = connectDatabase(config.database);
await migrateToLatest(db);
const { app, deps } = await buildApp({ config, db, dialect });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function call(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${pathname}`, { method, headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

// A verified developer (the link is in the outbox), a project, its key and an end user.
await call('POST', '/api/v1/auth/signup', { email: 'bench@example.com', password: PASSWORD });
let link: string | undefined;
for (let i = 0; i < 100 && !link; i++) {
  const outbox = path.join(dataDir, 'outbox');
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
  const mail = files.length ? fs.readFileSync(path.join(outbox, files[0]!), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=') : '';
  link = /verify-email\?token=([\w-]+)/.exec(mail)?.[1];
  if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
}
await call('POST', '/api/v1/auth/verify-email', { token: link });
const developer = (await call('POST', '/api/v1/auth/login', { email: 'bench@example.com', password: PASSWORD })).body.access_token as string;
const project = (await call('POST', '/api/v1/projects', { name: 'Bench' }, { authorization: `Bearer ${developer}` })).body as { id: string; project_key: string };
const apiKey = (await call('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'bench' }, { authorization: `Bearer ${developer}` })).body.secret as string;
const endUserHeaders = { 'x-api-key': apiKey };
await call('POST', '/public/api/v1/auth/signup', { email: 'end-user@example.com', password: PASSWORD }, endUserHeaders);
const logIn = async () => (await call('POST', '/public/api/v1/auth/login', { email: 'end-user@example.com', password: PASSWORD }, endUserHeaders)).body.access_token as string;

const issuer = `${config.appUrl}/projects/${project.project_key}`;
const auth = createAuthPlatform({ url: base, issuer, projectKey: project.project_key, apiKey });
await auth.start();

// 1. requireAuth against a bare route of the same app.
const api = Fastify();
api.get('/bare', async () => ({ ok: true }));
api.get('/protected', { preHandler: auth.requireAuth() }, async () => ({ ok: true }));
const apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
const token = await logIn();
const run = (url: string) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, duration: SECONDS, connections: 10, headers: { authorization: `Bearer ${token}` } }, (error, result) => (error ? reject(error) : resolve(result))),
  );
// Warmed up first; the bare route is measured before and after, and the mean taken.
await run(`${apiUrl}/bare`);
await run(`${apiUrl}/protected`);
const bareBefore = await run(`${apiUrl}/bare`);
const protectedRoute = await run(`${apiUrl}/protected`);
const bareAfter = await run(`${apiUrl}/bare`);
const bare = { ...bareAfter, requests: { ...bareAfter.requests, average: (bareBefore.requests.average + bareAfter.requests.average) / 2 }, latency: { ...bareAfter.latency, p99: Math.max(bareBefore.latency.p99, bareAfter.latency.p99) } };
const perRequestUs = (result: autocannon.Result) => 1e6 / result.requests.average;

// 2. The verification alone: a remembered token, and a full ES256 check every time (a cache of one, two tokens in turn).
const timeUs = async (n: number, fn: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < 200; i++) await fn(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / n;
};
const remembered = await timeUs(100_000, () => auth.authenticate(token));
const fullVerifier = createVerifier({ url: base, issuer, projectKey: project.project_key, cacheSize: 1 });
const tokens = [token, await logIn()];
const fullCheck = await timeUs(5_000, (i) => fullVerifier.verify(tokens[i % 2]!));

// 3. Revocation propagation: sign 100 sessions out, one after the other; each until the middleware's feed has it.
const propagation: number[] = [];
for (let i = 0; i < 100; i++) {
  const access = await logIn();
  const sid = (JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
  // At a random point of the server's poll, so the samples spread over its whole interval.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * config.revocationPollMs));
  const start = performance.now();
  await call('POST', '/public/api/v1/auth/logout', {}, { ...endUserHeaders, authorization: `Bearer ${access}` });
  while (!auth.feed!.isRevoked(sid)) await new Promise((resolve) => setImmediate(resolve));
  propagation.push(performance.now() - start);
}
propagation.sort((a, b) => a - b);
const percentile = (p: number) => propagation[Math.min(propagation.length - 1, Math.ceil((p / 100) * propagation.length) - 1)]!;

// 4. Each package's size, minified and gzipped: with its dependencies bundled (what an app ships), and its own code
// alone. React itself is never counted (a peer the app has anyway).
const PACKAGES = [
  { name: '@authplatform/js', dir: 'js', platform: 'browser', dependencies: ['oauth4webapi'] },
  { name: '@authplatform/react', dir: 'react', platform: 'browser', dependencies: ['@authplatform/js', 'oauth4webapi'] },
  { name: '@authplatform/node', dir: 'node', platform: 'node', dependencies: ['jose'] },
  { name: '@authplatform/api', dir: 'api', platform: 'neutral', dependencies: ['jose', 'openapi-fetch'] },
] as const;
const REACT = ['react', 'react-dom', 'react/jsx-runtime'];
const sizeOf = async (dir: string, platform: 'browser' | 'node' | 'neutral', external: string[]) => {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, `../packages/${dir}/src/index.ts`)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    external: [...REACT, ...external],
    tsconfig: path.join(import.meta.dirname, '../tsconfig.json'),
  });
  return gzipSync(out.outputFiles[0]!.contents).length;
};
const sizes: Record<string, { with_dependencies: number; own_code: number }> = {};
for (const pkg of PACKAGES) {
  sizes[pkg.name] = { with_dependencies: await sizeOf(pkg.dir, pkg.platform, []), own_code: await sizeOf(pkg.dir, pkg.platform, [...pkg.dependencies]) };
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
console.log(
  JSON.stringify(
    {
      middleware: {
        bare: { rps: Math.round(bare.requests.average), p99_ms: bare.latency.p99, us_per_request: round(perRequestUs(bare)) },
        require_auth: { rps: Math.round(protectedRoute.requests.average), p99_ms: protectedRoute.latency.p99, us_per_request: round(perRequestUs(protectedRoute)), errors: protectedRoute.non2xx + protectedRoute.errors },
        rps_ratio_to_bare: round(protectedRoute.requests.average / bare.requests.average, 3),
        added_us_per_request: round(perRequestUs(protectedRoute) - perRequestUs(bare)),
      },
      verification_us: { remembered_token: round(remembered, 2), full_es256_check: round(fullCheck), ratio: round(fullCheck / remembered) },
      revocation_propagation_ms: { p50: round(percentile(50)), p99: round(percentile(99)), max: round(propagation.at(-1)!), poll_ms: config.revocationPollMs, samples: propagation.length },
      package_size_min_gzip_bytes: sizes,
    },
    null,
    2,
  ),
);

await auth.close();
await api.close();
deps.revocationStreams.close();
await app.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });

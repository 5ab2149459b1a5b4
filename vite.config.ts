import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { tcpAnswers } from './tests/helpers/tcp-probe.js';

/** The API suite runs on PostgreSQL too whenever a server answers (TEST_POSTGRES_URL, default 127.0.0.1:5432). */
const withPostgres =
  process.env.TEST_POSTGRES !== '0' && (await tcpAnswers(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 5432));
if (!withPostgres && process.argv.some((arg) => arg.includes('vitest'))) {
  console.warn('PostgreSQL is not reachable: the API suite runs on SQLite only.');
}

/**
 * Bounds on a server test and on its beforeAll/afterAll, not waits (each ends when its work does). Some hooks start a
 * redis-server and two apps on fresh databases: at a load average above 20 on two cores that took longer than 30 s,
 * and the PostgreSQL outage tests (connections cut, a partition) longer than 20 s.
 */
const SERVER_TEST_TIMEOUT_MS = 60_000;
const SERVER_HOOK_TIMEOUT_MS = 90_000;

/** The packages import each other by name (packages/README.md); tests run them from source. */
const packageAliases = Object.fromEntries(
  ['js', 'react', 'node', 'api'].map((name) => [`@authplatform/${name}`, fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))]),
);

const serverOrigin = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;
const proxied = [
  '/trpc',
  '/api',
  '/public',
  '/health',
  '/ready',
  '/metrics',
  '/.well-known',
  // A project's hosted pages are client routes; their browser API and OpenID Connect endpoints are the server's.
  '^/hosted/[^/]+/(api/|authorize|logout)',
  '^/projects/[^/]+/(oauth|\\.well-known)/',
];

export default defineConfig({
  root: 'client',
  plugins: [react()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverOrigin, changeOrigin: false }])),
  },
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. The API tests mostly wait on
    // PostgreSQL, SMTP and their servers' timers (a CPU profile of eight API files in one worker: 62 % idle), so one
    // worker more than the cores fills that time: on two cores, 3 workers ran the whole suite in 370 s against 420 s
    // for 2 with the same CPU (669-677 CPU-s), and 4 workers were slower again (more CPU per worker, 753 CPU-s).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        resolve: { alias: packageAliases },
        test: {
          name: 'server',
          root: '.',
          // Every API test builds its own app, database and mail catcher, and the server keeps no state in its
          // modules, so the files of a worker share one module graph instead of importing the server again each
          // (7m35s to 3m55s for server + server-postgres, one run on two cores). The client tests stay isolated:
          // their module mocks and jsdom globals would leak between files.
          isolate: false,
          include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'packages/*/tests/**/*.test.ts'],
          exclude: ['tests/api/**/*.postgres.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/database-template.setup.ts'],
          testTimeout: SERVER_TEST_TIMEOUT_MS,
          hookTimeout: SERVER_HOOK_TIMEOUT_MS,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'server-postgres',
                root: '.',
                isolate: false,
                include: ['tests/api/**/*.test.ts'],
                environment: 'node',
                env: { TEST_DATABASE: 'postgres' },
                globalSetup: ['tests/helpers/database-template.setup.ts'],
                testTimeout: SERVER_TEST_TIMEOUT_MS,
                hookTimeout: SERVER_HOOK_TIMEOUT_MS,
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        resolve: { alias: packageAliases },
        test: {
          name: 'client',
          root: '.',
          include: ['tests/client/**/*.test.tsx', 'packages/*/tests/**/*.test.tsx'],
          environment: 'jsdom',
          // Worker threads start and tear down a file's environment with less work than child processes: the client
          // files took 275 CPU-s instead of 301 on two cores, and every test passes the same.
          pool: 'threads',
          setupFiles: ['tests/client/setup.ts'],
          // Above tests/client/setup.ts's asyncUtilTimeout (30 s), so a missing element fails on its own wait
          // (naming what was expected) rather than on the test's clock; a test renders several screens, each
          // of which can take seconds beside another test run on two cores.
          testTimeout: 120_000,
        },
      },
    ],
  },
});

import path from 'node:path';
// esbuild is the compiler tsx runs the server with (a dependency of tsx): the bundle is the same code tsx would run.
import { build } from 'esbuild';
import { E2E } from './env';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles server/main.ts (its own code; packages stay imports of node_modules) into E2E.serverBundle. Each e2e
 * server then starts with plain node instead of compiling the same few hundred files under tsx: once per run
 * rather than once per server, and no compiler in the servers' processes while the tests run.
 */
export async function buildServerBundle(): Promise<void> {
  await build({
    entryPoints: [path.join(root, 'server/main.ts')],
    outfile: E2E.serverBundle,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

/** The command that starts a server from the bundle (stack traces point into the TypeScript sources). */
export const serverCommand = (): [string, string[]] => [process.execPath, ['--enable-source-maps', E2E.serverBundle]];

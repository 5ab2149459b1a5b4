// The benchmark's server: the real app on a throwaway database, plus a bare route inside it. With
// WORKERS=N it runs as server/main.ts does: this process migrates and forks N workers sharing the port.
import cluster from 'node:cluster';
import { buildApp } from '../server/app.js';
import { configFromPrimary, runWorkers } from '../server/cluster.js';
import { loadConfig, type Config } from '../server/config.js';
import { connectDatabase } from '../server/db/connect.js';
import { migrateToLatest } from '../server/db/migrate.js';

async function serve(config: Config) {
  const { db, dialect } = connectDatabase(config.database);
  if (cluster.isPrimary) await migrateToLatest(db);
  const { app } = await buildApp({ config, db, dialect });
  app.get('/__bare', async () => ({ ok: true }));
  // Collect first, so growth means retained memory rather than garbage not yet collected.
  app.get('/__memory', async () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage();
  });
  await app.listen({ port: config.port, host: '127.0.0.1' });
  process.send?.('ready');
  // A clean exit (rather than dying on the signal) lets `--cpu-prof` write its profile.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

const fromPrimary = configFromPrimary();
if (fromPrimary) {
  await serve(fromPrimary);
} else {
  const config = loadConfig();
  if (config.workers === 1) {
    await serve(config);
  } else {
    const { db } = connectDatabase(config.database);
    await migrateToLatest(db);
    await db.destroy();
    let listening = 0;
    cluster.on('listening', () => {
      if (++listening === config.workers) process.send?.('ready');
    });
    runWorkers(config);
  }
}

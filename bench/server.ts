// The benchmark's server process: the real app on a throwaway database, plus a bare route as the ceiling.
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { connectDatabase } from '../server/db/connect.js';
import { migrateToLatest } from '../server/db/migrate.js';

const config = loadConfig();
const { db, dialect } = connectDatabase(config.database);
await migrateToLatest(db);
const { app } = await buildApp({ config, db, dialect });
app.get('/__bare', async () => ({ ok: true }));
// Collect first, so growth means retained memory rather than garbage not yet collected.
app.get('/__memory', async () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
});
// Server CPU time, so a phase can report microseconds per request (far steadier than requests/s on a shared machine).
app.get('/__cpu', async () => process.cpuUsage());
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('ready');
// A clean exit (rather than dying on the signal) lets `--cpu-prof` write its profile.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

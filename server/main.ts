import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { buildApp } from './app.js';
import { configFromPrimary, runWorkers } from './cluster.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { connectDatabase, type Db, type Dialect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { loadOrCreateMasterKey } from './lib/secret-box.js';
import { loadOrCreateSigningKey } from './lib/signing-keys.js';
import { promoteUsersByEmail } from './modules/users/users.repo.js';

async function main(): Promise<void> {
  const fromPrimary = configFromPrimary();
  if (fromPrimary) return serve(fromPrimary, connectDatabase(fromPrimary.database));

  const config = loadConfig();
  const database = connectDatabase(config.database);
  await migrateToLatest(database.db);
  await promoteUsersByEmail(database.db, config.adminEmails);
  if (config.workers === 1) return serve(config, database);

  await database.db.destroy();
  // What each process would otherwise create on its own, once for all.
  loadOrCreateSigningKey({ pem: config.jwtPrivateKey, dataDir: config.dataDir });
  loadOrCreateMasterKey({ base64: config.masterKey, dataDir: config.dataDir });
  const captcha = config.captcha.provider === 'altcha' && !config.captcha.secret ? { ...config.captcha, secret: randomBytes(32).toString('hex') } : config.captcha;
  runWorkers({ ...config, captcha });
}

async function serve(config: Config, { db, dialect }: { db: Db; dialect: Dialect }): Promise<void> {
  const { app } = await buildApp({ config, db, dialect });

  let closing: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    closing ??= (async () => {
      app.log.info({ signal }, 'shutting down');
      await app.close();
      await db.destroy();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
  const worker = cluster.isWorker ? ` (worker ${cluster.worker!.id} of ${config.workers})` : '';
  app.log.info(`AuthPlatform ready on http://${config.host}:${config.port}${worker} (${where}; mail ${config.smtpUrl ? 'via SMTP' : 'to the outbox folder'})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});

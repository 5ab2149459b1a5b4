import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { connectDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { promoteUsersByEmail } from './modules/users/users.repo.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = connectDatabase(config.database);
  await migrateToLatest(db);
  await promoteUsersByEmail(db, config.adminEmails);
  const { app } = await buildApp({ config, db, dialect });

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
  app.log.info(`AuthPlatform ready on http://${config.host}:${config.port} (${where}; mail ${config.smtpUrl ? 'via SMTP' : 'to the outbox folder'})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});

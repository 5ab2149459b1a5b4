import { ConfigError, loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';

try {
  const config = loadConfig();
  const { db } = connectDatabase(config.database);
  const result = await migrateToLatest(db);
  const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  await db.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
}

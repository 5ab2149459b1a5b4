// npm run backup -- FILE
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, backUp } from './backup-archive.js';

const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0) {
  console.error('Usage: npm run backup -- FILE');
  process.exit(2);
}
try {
  await backUp(loadConfig(), file, (line) => console.log(line));
} catch (error) {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof BackupError) console.error(`Backup failed: ${error.message}`);
  else console.error(error);
  process.exit(1);
}

// npm run admin -- promote EMAIL | demote EMAIL | list
import { ConfigError, loadConfig } from '../config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../errors.js';
import { systemClock } from '../lib/clock.js';
import { listAdmins, setRoleByEmail } from '../modules/users/users.service.js';
import { formatAdminList } from './admin-list.js';

const USAGE = 'Usage: npm run admin -- promote EMAIL | demote EMAIL | list';

async function run(args: string[]): Promise<number> {
  const [command, email] = args;
  if (!command || !['promote', 'demote', 'list'].includes(command) || (command !== 'list' && !email)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const { db } = connectDatabase(config.database);
  try {
    await migrateToLatest(db);
    const deps = { db, clock: systemClock };
    if (command === 'list') {
      console.log(formatAdminList(await listAdmins(deps), config.adminEmails));
      return 0;
    }
    if (command === 'demote' && config.adminEmails.includes(email!.toLowerCase())) {
      console.error(`${email} is listed in ADMIN_EMAILS and would be promoted again at the next start; remove it there first.`);
      return 1;
    }
    const user = await setRoleByEmail(deps, email!, command === 'promote' ? 'admin' : 'user');
    const inert = user.role === 'admin' && !user.is_verified ? ' The role takes effect once the e-mail address is verified.' : '';
    console.log(`${user.email} is now ${user.role === 'admin' ? 'an admin' : 'a regular user'}.${inert}`);
    return 0;
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof AppError) console.error(error.detail);
    else console.error(error);
    process.exit(1);
  });

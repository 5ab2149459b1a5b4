import { sql, type Insertable } from 'kysely';
import type { Db, Dialect } from '../../server/db/connect.js';
import type { LoginAttemptsTable } from '../../server/db/schema.js';

/** A browser's User-Agent as long as real ones get, so an export's rows weigh what real rows do. */
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86 (seeded for export tests)';

/**
 * `count` failed sign-ins of the platform's accounts, inserted in bulk (a thousand rows a statement,
 * in one transaction): seconds on SQLite and PostgreSQL, where signing in 50,000 times would take minutes.
 * Row `i` is `<tag>.<i>@bulk.example`, one second apart and ending a second ago, so a higher number is
 * newer (and all are recent: retention would delete attempts older than 90 days while a test reads them).
 */
export async function seedLoginAttempts({ db, dialect }: { db: Db; dialect: Dialect }, count: number, tag = 'seed'): Promise<{ oldest: string; newest: string }> {
  const from = Date.now() - count * 1000;
  const rows: Insertable<LoginAttemptsTable>[] = Array.from({ length: count }, (_, i) => ({
    id: `${tag}-${String(i).padStart(8, '0')}`,
    project_id: null,
    email: `${tag}.${i}@bulk.example`,
    user_id: null,
    ip_address: `198.51.100.${i % 250}`,
    is_vpn: 0,
    is_proxy: 0,
    success: 0,
    failure_reason: 'invalid_credentials',
    country_code: 'US',
    device_fingerprint: `${tag}-device-${i % 1000}`,
    user_agent: USER_AGENT,
    created_at: new Date(from + i * 1000).toISOString(),
    method: null,
  }));
  await db.transaction().execute(async (tx) => {
    for (let start = 0; start < rows.length; start += 1000) {
      await tx.insertInto('login_attempts').values(rows.slice(start, start + 1000)).execute();
    }
  });
  // As autovacuum would after such an insert: without statistics PostgreSQL's planner takes the table
  // for a few dozen rows and sorts it whole instead of reading an index in order.
  if (dialect === 'postgres') await sql`analyze login_attempts`.execute(db);
  return { oldest: rows[0]!.created_at, newest: rows.at(-1)!.created_at };
}

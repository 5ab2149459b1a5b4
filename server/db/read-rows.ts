import type { Compilable } from 'kysely';
import { readConnectionOf, type Db } from './connect.js';

/**
 * The rows of a read-only query. On a SQLite file it runs on the read connection: it does not queue
 * behind Kysely's one connection (writes, transactions in progress) nor hold it up, and sees what is
 * committed. Elsewhere (PostgreSQL, in-memory SQLite, inside a transaction) it goes through Kysely.
 */
export async function readRows<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  const reader = db.isTransaction ? undefined : readConnectionOf(db);
  if (reader) return reader.prepare(compiled.sql).all(...compiled.parameters) as R[];
  return (await db.executeQuery(compiled)).rows;
}

import { sql } from 'kysely';
import type { Db, Dialect } from './connect.js';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one, so a repo function
 * that must be atomic on its own (a refresh-token rotation) joins a larger unit of work (a sign-in)
 * instead of opening a second transaction, which Kysely refuses.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  const callbacks: Array<() => void> = [];
  const result = await db.transaction().execute((trx) => {
    committed.set(trx, callbacks);
    return work(trx);
  });
  for (const callback of callbacks) callback();
  return result;
}

const committed = new WeakMap<Db, Array<() => void>>();

/**
 * Runs `callback` once the unit of work `db` belongs to has committed (never if it rolls back), or
 * right away outside one. For nudges that must not see the change early (the mail dispatcher); a
 * transaction not opened by inTransaction runs it right away, which costs at most a wasted look.
 */
export function afterCommit(db: Db, callback: () => void): void {
  const callbacks = db.isTransaction ? committed.get(db) : undefined;
  if (callbacks) callbacks.push(callback);
  else callback();
}

/**
 * A service's unit of work: `work` gets the same dependencies with `db` bound to one transaction,
 * so every service and repo it calls writes through it.
 *
 * On SQLite the transaction holds the only connection until it ends: inside `work`, use the
 * given deps' `db` only, and never wait on anything but the database (hashing, mail, Redis belong
 * before or after).
 */
export function withTransaction<D extends { db: Db }, T>(deps: D, work: (tx: D) => Promise<T>): Promise<T> {
  return inTransaction(deps.db, (trx) => work({ ...deps, db: trx }));
}

/**
 * Inside a transaction: holds off every other transaction that takes the same key until this one
 * ends, so a count and the insert it allows are one step across connections and instances. On
 * PostgreSQL a transaction-scoped advisory lock; on SQLite nothing to do, every write transaction
 * already holds the one writer (`begin immediate`).
 */
export async function lockUntilCommit(db: Db, dialect: Dialect, key: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

import { sql } from 'kysely';
import type { Db, Dialect } from './connect.js';
import { EffectQueue, kyselyStatements, registerUnit, unitOf, unitWith, type Effect, type Publisher, type Unit } from './unit-of-work.js';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one, so a repo function
 * that must be atomic on its own (a refresh-token rotation) joins a larger unit of work (a sign-in)
 * instead of opening a second transaction, which Kysely refuses. The transaction is a unit of work
 * (unitOf): its effects run once it commits, never if it rolls back.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return openUnit(db, null, (trx) => work(trx));
}

async function openUnit<T>(db: Db, publisher: Publisher | null, work: (trx: Db, unit: Unit) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    const unit = unitOf(db);
    if (publisher) publisherOf.get(unit)?.(publisher);
    return work(db, unit);
  }
  const queue = new EffectQueue(publisher);
  const result = await db.transaction().execute(async (trx) => {
    const unit = unitWith(kyselyStatements(db, trx), queue);
    registerUnit(trx, unit);
    publisherOf.set(unit, (joining) => (queue.publisher ??= joining));
    const value = await work(trx, unit);
    queue.checkPublishable();
    return value;
  });
  if (!queue.empty) await queue.run();
  return result;
}

/** How a unit opened without invalidations (inTransaction) gets them from a withTransaction joining it. */
const publisherOf = new WeakMap<Unit, (publisher: Publisher) => void>();

/**
 * Runs `effect` once the unit of work `db` belongs to has committed (never if it rolls back), or
 * right away outside one. For nudges that must not see the change early (the mail dispatcher).
 */
export function afterCommit(db: Db, effect: Effect): void {
  unitOf(db).afterCommit(effect);
}

/**
 * For a repo write that changes what instances cache (API keys' lookups, project settings): every
 * instance drops its copies once the unit of work `db` belongs to commits, before the change answers.
 * The write must be made in a unit opened by withTransaction (whose deps bring the invalidations).
 */
export function invalidateOnCommit(db: Db, topic: Parameters<Unit['invalidate']>[0]): void {
  unitOf(db).invalidate(topic);
}

/** A service's unit of work: the same dependencies with `db` bound to its transaction, and the `unit` itself. */
export type Tx<D> = D & { unit: Unit };

/**
 * A service's unit of work: `work` gets the same dependencies with `db` bound to one transaction,
 * so every service and repo it calls writes through it, and `unit` (unit-of-work.ts): its prepared
 * statements, and its effects once committed (`afterCommit`, and the invalidations its repo writes
 * register, published through `deps.invalidations`). Joins the caller's unit when `deps.db` is one.
 *
 * On SQLite the transaction holds the only connection until it ends: inside `work`, use the
 * given deps' `db` only, and never wait on anything but the database (hashing, mail, Redis belong
 * before or after: as effects).
 */
export function withTransaction<D extends { db: Db; invalidations?: Publisher }, T>(deps: D, work: (tx: Tx<D>) => Promise<T>): Promise<T> {
  return openUnit(deps.db, deps.invalidations ?? null, (trx, unit) => work({ ...deps, db: trx, unit }));
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

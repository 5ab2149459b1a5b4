import type { Db, WriteConnection } from './connect.js';

/** The most transactions committed together; any more wait for the next commit. */
export const MAX_GROUP = 64;

interface Queued<U> {
  work: (unit: U) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Group<U> {
  queue: Queued<U>[];
  scheduled: boolean;
}

const groups = new WeakMap<Db, Group<never>>();

/**
 * Runs `work` as if in a transaction of its own on SQLite's writer, committed together with the
 * others started in the same turn of the event loop: one `begin immediate`, each transaction's work
 * in a savepoint of its own, one `commit`. A commit is the largest part of a short write transaction
 * (the WAL write), so a group costs far less per transaction than each alone.
 *
 * Each transaction ends exactly as it would alone: the transactions run one after the other in the
 * order they were started (each sees the ones before it, as it would have after their commits); one
 * whose work throws is rolled back to its savepoint and rejects with its error, the others go on;
 * and none is answered before the commit that holds it has returned. When SQLite rolls back the
 * whole transaction on a failure (`or rollback`, a full disk, an I/O error), the transaction that
 * failed rejects and the others run again in a new group, so `work` must read and write only through
 * the unit (it may run more than once). When `begin` or `commit` itself fails, every transaction of
 * the group rejects with that error, as each would have alone.
 */
export function groupCommit<U, T>(db: Db, writer: WriteConnection, unit: U, work: (unit: U) => Promise<T>): Promise<T> {
  let group = groups.get(db) as Group<U> | undefined;
  if (!group) groups.set(db, (group = { queue: [], scheduled: false }) as Group<never>);
  const queued = group;
  return new Promise<T>((resolve, reject) => {
    queued.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    schedule(db, writer, unit, queued);
  });
}

function schedule<U>(db: Db, writer: WriteConnection, unit: U, group: Group<U>): void {
  if (group.scheduled) return;
  group.scheduled = true;
  setImmediate(() => {
    group.scheduled = false;
    const batch = group.queue.splice(0, MAX_GROUP);
    if (group.queue.length > 0) schedule(db, writer, unit, group);
    void flush(db, writer, unit, batch);
  });
}

type Settle = () => void;

async function flush<U>(db: Db, writer: WriteConnection, unit: U, batch: Queued<U>[]): Promise<void> {
  let settles: Settle[];
  try {
    // Kysely's connection lock: no Kysely transaction is open on the writer meanwhile.
    settles = await db.connection().execute(async () => {
      let todo = batch;
      for (;;) {
        const attempt = await commitTogether(writer, unit, todo);
        if ('settles' in attempt) return attempt.settles;
        attempt.lost.reject(attempt.error);
        todo = todo.filter((item) => item !== attempt.lost);
        if (todo.length === 0) return [];
      }
    });
  } catch (error) {
    for (const item of batch) item.reject(error);
    return;
  }
  for (const settle of settles) settle();
}

type Attempt<U> = { settles: Settle[] } | { lost: Queued<U>; error: unknown };

const ROLLED_BACK = 'The transaction was rolled back by the database';

async function commitTogether<U>(writer: WriteConnection, unit: U, todo: Queued<U>[]): Promise<Attempt<U>> {
  const done: { item: Queued<U>; failed: boolean; settle: Settle }[] = [];
  writer.prepare('begin immediate').run();
  try {
    for (const item of todo) {
      writer.prepare('savepoint grouped').run();
      try {
        const value = await item.work(unit);
        if (!writer.raw.inTransaction) return { lost: item, error: new Error(ROLLED_BACK) };
        writer.prepare('release grouped').run();
        done.push({ item, failed: false, settle: () => item.resolve(value) });
      } catch (error) {
        if (!writer.raw.inTransaction) return { lost: item, error };
        writer.prepare('rollback to grouped').run();
        writer.prepare('release grouped').run();
        done.push({ item, failed: true, settle: () => item.reject(error) });
      }
    }
  } catch (error) {
    if (writer.raw.inTransaction) writer.prepare('rollback').run();
    throw error;
  }
  try {
    writer.prepare('commit').run();
  } catch (error) {
    // Nothing was written: the transactions whose own work failed keep their error, the others get the commit's.
    if (writer.raw.inTransaction) writer.prepare('rollback').run();
    return { settles: done.map((entry) => (entry.failed ? entry.settle : () => entry.item.reject(error))) };
  }
  return { settles: done.map((entry) => entry.settle) };
}

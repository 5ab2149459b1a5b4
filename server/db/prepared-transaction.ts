import { writeConnectionOf, type Db, type WriteConnection } from './connect.js';
import { groupCommit } from './group-commit.js';
import { inTransaction } from './transaction.js';
import { EffectQueue, unitOf, unitWith, type Statements, type Unit } from './unit-of-work.js';

/** The unit of work of a prepared transaction: its statements, and its effects once committed. */
export type PreparedUnit = Unit;

function sqliteStatements(db: Db, writer: WriteConnection): Statements {
  return {
    first(statement, ...args) {
      const { query, bind } = statement.compiled(db);
      return Promise.resolve(writer.prepare(query.sql).get(bind(args)) as never);
    },
    all(statement, ...args) {
      const { query, bind } = statement.compiled(db);
      return Promise.resolve(writer.prepare(query.sql).all(bind(args)) as never);
    },
    run(statement, ...args) {
      const { query, bind } = statement.compiled(db);
      return Promise.resolve(writer.prepare(query.sql).run(bind(args)).changes);
    },
  };
}

const writerStatements = new WeakMap<Db, Statements>();

/**
 * One transaction of prepared statements (prepareStatement), for a hot write path (a refresh).
 *
 * On SQLite the statements run synchronously on Kysely's own connection, taken through
 * `db.connection()` so that no Kysely transaction is open on it meanwhile: none of Kysely's
 * per-statement building, compiling, mutex and promise chain. The transactions started in one turn of
 * the event loop are committed together (groupCommit), each ending as it would alone. `work` must
 * await nothing but the unit's statements, which answer at once, and may run more than once (when
 * SQLite rolls back a whole group): only the effects of the run that committed go out. On PostgreSQL
 * (or inside the caller's transaction) it is a Kysely transaction running the compiled statements.
 * Throwing rolls the transaction's work back, and drops its effects.
 */
export async function preparedTransaction<T>(db: Db, work: (unit: PreparedUnit) => Promise<T>): Promise<T> {
  const writer = writeConnectionOf(db);
  if (!writer) return inTransaction(db, (trx) => work(unitOf(trx)));
  let statements = writerStatements.get(db);
  if (!statements) writerStatements.set(db, (statements = sqliteStatements(db, writer)));
  let committed: EffectQueue | undefined;
  const value = await groupCommit(db, writer, statements, async (on) => {
    // Each run gets its own effects: a run rolled back with its group leaves none behind.
    const queue = (committed = new EffectQueue(null));
    const result = await work(unitWith(on, queue));
    queue.checkPublishable();
    return result;
  });
  if (committed && !committed.empty) await committed.run();
  return value;
}

import { writeConnectionOf, type Db, type WriteConnection } from './connect.js';
import type { Bindable, PreparedStatement } from './prepared-statement.js';
import { groupCommit } from './group-commit.js';
import { inTransaction } from './transaction.js';

/** The statements of one prepared transaction. */
export interface PreparedUnit {
  /** The first row the statement answers, if any. */
  first<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R | undefined>;
  /** Every row the statement answers. */
  all<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R[]>;
  /** Runs a write; answers how many rows it changed. */
  run<A extends Bindable[]>(statement: PreparedStatement<A, unknown>, ...args: A): Promise<number>;
}

function sqliteUnit(db: Db, writer: WriteConnection): PreparedUnit {
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

function kyselyUnit(root: Db, trx: Db): PreparedUnit {
  return {
    async first(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return (await trx.executeQuery({ ...query, parameters: bind(args) })).rows[0] as never;
    },
    async all(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return (await trx.executeQuery({ ...query, parameters: bind(args) })).rows as never;
    },
    async run(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return Number((await trx.executeQuery({ ...query, parameters: bind(args) })).numAffectedRows ?? 0);
    },
  };
}

/**
 * One transaction of prepared statements (prepareStatement), for a hot write path (a refresh).
 *
 * On SQLite the statements run synchronously on Kysely's own connection, taken through
 * `db.connection()` so that no Kysely transaction is open on it meanwhile: none of Kysely's
 * per-statement building, compiling, mutex and promise chain. The transactions started in one turn of
 * the event loop are committed together (groupCommit), each ending as it would alone. `work` must
 * await nothing but the unit's statements, which answer at once, and may run more than once (when
 * SQLite rolls back a whole group). On PostgreSQL (or inside the caller's transaction) it is a Kysely
 * transaction running the compiled statements. Throwing rolls the transaction's work back.
 */
export function preparedTransaction<T>(db: Db, work: (unit: PreparedUnit) => Promise<T>): Promise<T> {
  const writer = writeConnectionOf(db);
  if (!writer) return inTransaction(db, (trx) => work(kyselyUnit(db.isTransaction ? trx : db, trx)));
  return groupCommit(db, writer, sqliteUnit(db, writer), work);
}

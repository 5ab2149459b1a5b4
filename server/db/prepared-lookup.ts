import type { Compilable } from 'kysely';
import type { Statement } from 'better-sqlite3';
import { readConnectionOf, type Db, type ReadConnection } from './connect.js';
import { prepareStatement } from './prepared-statement.js';

interface RowReader {
  statement: Statement;
  toObject: (values: unknown[]) => Record<string, unknown>;
}
const rowReaders = new WeakMap<ReadConnection, Map<string, RowReader>>();

/**
 * One row by a statement of the read connection. better-sqlite3 builds each row object key by key,
 * which for a wide row (a user has some thirty columns) costs more than the query; the row is read
 * as an array instead and made into an object by a function compiled once for the statement's columns.
 */
function readRow(reader: ReadConnection, sql: string, parameters: unknown[]): Record<string, unknown> | undefined {
  let readers = rowReaders.get(reader);
  if (!readers) rowReaders.set(reader, (readers = new Map()));
  let found = readers.get(sql);
  if (!found) {
    const statement = reader.prepare(sql).raw(true);
    const names = statement.columns().map((column) => column.name);
    const toObject = new Function('values', `return { ${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')} };`);
    found = { statement, toObject: toObject as RowReader['toObject'] };
    readers.set(sql, found);
  }
  const values = found.statement.get(parameters) as unknown[] | undefined;
  return values && found.toObject(values);
}

/**
 * A single-row query on the request path (the session behind an access token, the project behind
 * an API key), compiled once per database (prepareStatement). On a SQLite file it runs on the
 * read connection (readConnectionOf); inside a transaction it runs on the transaction, so a unit
 * of work sees its own writes. Arguments must be strings.
 */
export function preparedLookup<A extends string[], R>(build: (db: Db, ...args: A) => Compilable<R>): (db: Db, ...args: A) => Promise<R | undefined> {
  const statement = prepareStatement(build);
  return async (db, ...args) => {
    if (db.isTransaction) return (await db.executeQuery(build(db, ...args).compile())).rows[0];
    const { query, bind } = statement.compiled(db);
    const parameters = bind(args);
    const reader = readConnectionOf(db);
    if (reader) return readRow(reader, query.sql, parameters) as R | undefined;
    return (await db.executeQuery<R>({ ...query, parameters })).rows[0];
  };
}

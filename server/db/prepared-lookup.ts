import type { Compilable, CompiledQuery } from 'kysely';
import type { Statement } from 'better-sqlite3';
import { localWritesOf, lookupChangesOf, readConnectionOf, type Db, type LocalWrites, type ReadConnection } from './connect.js';
import { readsOnlyWatched, type LookupChanges } from './lookup-changes.js';
import { prepareStatement } from './prepared-statement.js';

interface RowReader {
  statement: Statement;
  toObject: (values: unknown[]) => Record<string, unknown>;
  /** Rows read since the database last changed (null: none found), by their parameters. */
  rows: Map<string, unknown[] | null>;
  /** The reader's generation `rows` belong to. */
  generation: number;
}
interface ReaderState {
  readers: Map<string, RowReader>;
  /** `PRAGMA data_version`: moves whenever another connection (the writer, another process) commits. */
  dataVersion: Statement;
  version: unknown;
  generation: number;
  /** This process's writes to the file, and how many of them the last check of the version followed. */
  writes: LocalWrites;
  writesSeen: number;
  /** The version was checked in this turn of the event loop. */
  checkedThisTurn: boolean;
}
const readerStates = new WeakMap<ReadConnection, ReaderState>();
/** Past this many remembered rows per statement, the statement starts over (a bound on memory, not a policy). */
const MAX_REMEMBERED_ROWS = 10_000;

function stateOf(reader: ReadConnection): ReaderState {
  let state = readerStates.get(reader);
  if (!state) {
    state = {
      readers: new Map(),
      dataVersion: reader.prepare('pragma data_version').pluck(),
      version: undefined,
      generation: 0,
      writes: localWritesOf(reader),
      writesSeen: -1,
      checkedThisTurn: false,
    };
    readerStates.set(reader, state);
  }
  return state;
}

/**
 * Whether the file changed since the remembered rows were read. `PRAGMA data_version` moves on every
 * commit of any other connection to the file (this process's writer, other processes). It costs a
 * read transaction, so it is asked once per turn of the event loop, and again after any write of this
 * process: this process's own commit is seen by its next read, another process's by the next turn.
 * The requests answered within one turn arrived together, before any of them was answered, so
 * answering them as of the turn's start is as if they had arrived a moment earlier.
 */
function refresh(state: ReaderState): void {
  if (state.checkedThisTurn && state.writesSeen === state.writes.count) return;
  state.writesSeen = state.writes.count;
  const version = state.dataVersion.get();
  if (version !== state.version) {
    state.version = version;
    state.generation += 1;
  }
  if (!state.checkedThisTurn) {
    state.checkedThisTurn = true;
    setImmediate(() => (state.checkedThisTurn = false));
  }
}

/**
 * One row by a statement of the read connection. better-sqlite3 builds each row object key by key,
 * which for a wide row (a user has some thirty columns) costs more than the query; the row is read
 * as an array instead and made into an object by a function compiled once for the statement's columns.
 *
 * A row read since the file last changed (see refresh) is answered again without reading it, so what
 * is remembered is what a read would find. Each answer is a fresh object.
 */
function readRow(reader: ReadConnection, sql: string, parameters: unknown[]): Record<string, unknown> | undefined {
  const state = stateOf(reader);
  refresh(state);
  let found = state.readers.get(sql);
  if (!found) {
    const statement = reader.prepare(sql).raw(true);
    const names = statement.columns().map((column) => column.name);
    const toObject = new Function('values', `return { ${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')} };`);
    found = { statement, toObject: toObject as RowReader['toObject'], rows: new Map(), generation: state.generation };
    state.readers.set(sql, found);
  }
  if (found.generation !== state.generation || found.rows.size >= MAX_REMEMBERED_ROWS) {
    found.rows.clear();
    found.generation = state.generation;
  }
  const key = parameters.join('\u0000');
  let values = found.rows.get(key);
  if (values === undefined) {
    values = (found.statement.get(parameters) as unknown[] | undefined) ?? null;
    found.rows.set(key, values);
  }
  return values === null ? undefined : found.toObject(values);
}

/** PostgreSQL's remembered rows of one statement, by parameters, and the generation they belong to. */
interface RememberedRows {
  rows: Map<string, Record<string, unknown> | null>;
  generation: number;
}

/**
 * One row from PostgreSQL, answered again while nothing it read from can have changed (see
 * LookupChanges). A read that overlapped a change is answered but not remembered: its row may be from
 * before the change. Each answer is a fresh object.
 */
async function readPostgresRow(db: Db, changes: LookupChanges, remembered: RememberedRows, query: CompiledQuery, parameters: unknown[]) {
  if (remembered.generation !== changes.generation || remembered.rows.size >= MAX_REMEMBERED_ROWS) {
    remembered.rows.clear();
    remembered.generation = changes.generation;
  }
  const key = parameters.join('\u0000');
  const known = remembered.rows.get(key);
  if (known !== undefined) return known === null ? undefined : { ...known };
  const startedAt = changes.generation;
  const row = (await db.executeQuery<Record<string, unknown>>({ ...query, parameters })).rows[0];
  if (changes.listening && changes.generation === startedAt && remembered.generation === startedAt) remembered.rows.set(key, row ? { ...row } : null);
  return row;
}

/**
 * A single-row query on the request path (the session behind an access token, the project behind
 * an API key), compiled once per database (prepareStatement). On a SQLite file it runs on the
 * read connection (readConnectionOf); inside a transaction it runs on the transaction, so a unit
 * of work sees its own writes. Arguments must be strings, and the statement must not depend on
 * anything but them and the database (no clock: compare times with the row's columns instead).
 * On PostgreSQL its rows are remembered only if it reads nothing but the tables whose changes are
 * watched (lookup-changes.ts), and only while they are.
 */
export function preparedLookup<A extends string[], R>(build: (db: Db, ...args: A) => Compilable<R>): (db: Db, ...args: A) => Promise<R | undefined> {
  const statement = prepareStatement(build);
  const remembered = new WeakMap<LookupChanges, RememberedRows>();
  const rememberable = new Map<string, boolean>();
  return async (db, ...args) => {
    if (db.isTransaction) return (await db.executeQuery(build(db, ...args).compile())).rows[0];
    const { query, bind } = statement.compiled(db);
    const parameters = bind(args);
    const reader = readConnectionOf(db);
    if (reader) return readRow(reader, query.sql, parameters) as R | undefined;
    const changes = lookupChangesOf(db);
    let watched = rememberable.get(query.sql);
    if (watched === undefined) rememberable.set(query.sql, (watched = readsOnlyWatched(query.sql)));
    if (changes?.listening && watched) {
      let rows = remembered.get(changes);
      if (!rows) remembered.set(changes, (rows = { rows: new Map(), generation: changes.generation }));
      return (await readPostgresRow(db, changes, rows, query, parameters)) as R | undefined;
    }
    return (await db.executeQuery<R>({ ...query, parameters })).rows[0];
  };
}

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { trackWrites, type LookupChanges } from './lookup-changes.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = DatabaseTarget['kind'];

// PostgreSQL int8 (count(*)) would come back as a string; counts here stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openSqlite(file: string): SQLite.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, so keep the compiled
 * ones (keyed by SQL text, bounded) and skip SQLite's parser on hot paths like the session lookup.
 * `onWrite` is told after each statement that writes or ends a transaction runs (see LocalWrites).
 */
function withStatementCache(database: SQLite.Database, max = 500, onClose?: () => void, onWrite?: () => void) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      database.close();
      onClose?.();
    },
    prepare(text: string) {
      // Kysely opens transactions with a plain (deferred) `begin`. With several processes on one file
      // (WORKERS), a deferred transaction that read first cannot take the write lock once another
      // process has committed (SQLITE_BUSY, which busy_timeout does not wait out); `begin immediate`
      // takes the write lock up front and waits for it.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = cache.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (onWrite && (!statement.readonly || ENDS_TRANSACTION.test(sql))) reportWrites(statement, onWrite);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/** SQLite counts transaction control as read-only (the statements it ends are what write). */
const ENDS_TRANSACTION = /^\s*(commit|end|release|rollback)\b/i;

/** Makes each way of running `statement` tell `onWrite` once it has run (or failed). */
function reportWrites(statement: SQLite.Statement, onWrite: () => void): void {
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    Object.defineProperty(statement, method, {
      value: (...args: unknown[]) => {
        try {
          return original.apply(statement, args);
        } finally {
          onWrite();
        }
      },
    });
  }
}

/**
 * How many writing statements this process has run on a SQLite file's writer connection. The read
 * connection's remembered rows (prepared-lookup.ts) are checked against `PRAGMA data_version` once
 * per turn of the event loop, and again whenever this moves, so this process's own commits are seen
 * by its very next read, as other processes' are by the next turn's.
 */
export interface LocalWrites {
  count: number;
}

export interface ConnectOptions {
  /**
   * PostgreSQL closed an idle pooled connection (a restart, a failover, an administrator). The pool
   * drops it and opens a new one when needed; without a listener the error would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

const warnIdleConnectionError = (error: Error) => console.warn(`PostgreSQL closed an idle connection; it will be replaced: ${error.message}`);

/**
 * How long a query waits for a pooled connection, whether the pool is busy or PostgreSQL does not
 * answer: past it the query fails (503, db/unavailable.ts), so a request never hangs on the database.
 */
export const POOL_CONNECTION_TIMEOUT_MS = 2_000;

export function connectDatabase(target: DatabaseTarget, options: ConnectOptions = {}): { db: Db; dialect: Dialect } {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS, keepAlive: true });
    pool.on('error', options.onIdleConnectionError ?? warnIdleConnectionError);
    // pg-pool listens for errors only while a connection is idle in the pool. One lent out (a query
    // just answered, a transaction between statements) that PostgreSQL closes would emit an error
    // nobody handles, which ends the process; its query fails anyway, and the pool drops it when it
    // comes back (no longer queryable).
    const changes: LookupChanges = { databaseUrl: target.url, generation: 0, listening: false, lastPayload: '', announce: null };
    pool.on('connect', (client) => {
      client.on('error', ignoreLentConnectionError);
      trackWrites(client, changes);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    lookupChanges.set(db, changes);
    return { db, dialect: 'postgres' };
  }
  // The writer first: it creates the file (and its directory) and puts it in WAL mode. An in-memory
  // database exists once per connection, so it cannot have a second one.
  const writer = openSqlite(target.file);
  const reader = target.file === ':memory:' ? null : withStatementCache(openReadConnection(target.file));
  const writes: LocalWrites = { count: 0 };
  const database = withStatementCache(writer, 500, () => reader?.close(), () => (writes.count += 1));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  if (reader) {
    readConnections.set(db, reader);
    localWrites.set(reader, writes);
  }
  writeConnections.set(db, { prepare: database.prepare, raw: writer });
  return { db, dialect: 'sqlite' };
}

export interface ReadConnection {
  prepare(sql: string): SQLite.Statement;
}

/** The SQLite connection Kysely writes through, with its statement cache. Use it only while holding Kysely's connection. */
export interface WriteConnection extends ReadConnection {
  raw: SQLite.Database;
}

const pools = new WeakMap<Db, pg.Pool>();
const readConnections = new WeakMap<Db, ReadConnection>();
const localWrites = new WeakMap<ReadConnection, LocalWrites>();
const writeConnections = new WeakMap<Db, WriteConnection>();
const lookupChanges = new WeakMap<Db, LookupChanges>();

/** What a PostgreSQL database's remembered lookups are checked against (lookup-changes.ts); none for SQLite or a transaction. */
export function lookupChangesOf(db: Db): LookupChanges | undefined {
  return lookupChanges.get(db);
}

/**
 * A second connection to the same SQLite file, for reads only (`query_only`). Kysely serialises
 * every query of the one connection it has behind a mutex, transactions included, which costs more
 * than the point lookups made on every request; this connection answers them synchronously without
 * waiting for that mutex, and (WAL) sees exactly what is committed: never a transaction in progress.
 */
function openReadConnection(file: string): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('query_only = ON');
  return sqlite;
}

/** The read-only connection of a SQLite file database; none for PostgreSQL, in-memory SQLite, or a transaction. */
export function readConnectionOf(db: Db): ReadConnection | undefined {
  return readConnections.get(db);
}

/** The writes this process made to the file a read connection reads (a fresh count for one opened elsewhere). */
export function localWritesOf(reader: ReadConnection): LocalWrites {
  let writes = localWrites.get(reader);
  if (!writes) localWrites.set(reader, (writes = { count: 0 }));
  return writes;
}

/** The connection Kysely writes through on SQLite (file or in-memory); none for PostgreSQL or a transaction. */
export function writeConnectionOf(db: Db): WriteConnection | undefined {
  return writeConnections.get(db);
}

export interface PoolStats {
  /** Connections open, idle or lent out. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/**
 * Reads the connection pool of a PostgreSQL database as it is now; null for SQLite, which has no
 * pool (one writer connection, and one read connection for a file).
 */
export function poolStatsReader(db: Db): (() => PoolStats) | null {
  const pool = pools.get(db);
  return pool ? () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) : null;
}

function ignoreLentConnectionError(): void {}

/** One round trip to the database; throws when it does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

/** better-sqlite3 copies this many pages per step at most: asking for as many copies the file in one. */
const ALL_PAGES = 0x7fffffff;

/**
 * A consistent copy of a SQLite file that other processes (the server, its workers) go on writing:
 * SQLite's online backup API, every page in one step, so the copy is the database as of one read
 * transaction (in WAL mode a reader holds up no writer). Copied page by page instead, each write by
 * another connection between two steps would start the copy over, and under a steady write load it
 * might never end. The copy is left in rollback-journal mode: one self-contained file.
 */
export async function copySqliteOnline(source: string, destination: string): Promise<void> {
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    database.pragma('query_only = ON');
    await database.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    database.close();
  }
  const copy = new SQLite(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** What `PRAGMA integrity_check` finds wrong with a SQLite file: nothing when it is sound. */
export function integrityProblems(file: string): string[] {
  const database = new SQLite(file, { fileMustExist: true, readonly: true });
  try {
    const rows = database.pragma('integrity_check') as Array<{ integrity_check: string }>;
    return rows.map((row) => row.integrity_check).filter((row) => row !== 'ok');
  } finally {
    database.close();
  }
}

/** A SQLite file (a backup's copy) opened read-only, to be read through the repos like the server's. */
export function openReadOnly(file: string): Db {
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file, { fileMustExist: true, readonly: true }) }) });
}

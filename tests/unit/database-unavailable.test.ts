import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/db/unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('takes a connection the database closed or could not make, a pool that waited too long, and a lock held past busy_timeout', () => {
    for (const error of [
      new SQLite.SqliteError('database is locked', 'SQLITE_BUSY'),
      new SQLite.SqliteError('database is locked', 'SQLITE_BUSY_SNAPSHOT'),
      new SQLite.SqliteError('database table is locked', 'SQLITE_LOCKED'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
  });

  it('leaves everything else to be a 500: broken constraints, bad SQL, bugs', () => {
    for (const error of [
      new SQLite.SqliteError('UNIQUE constraint failed: users.email', 'SQLITE_CONSTRAINT_UNIQUE'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
      withCode('canceling statement due to statement timeout', '57014'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'Connection terminated unexpectedly',
      null,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './connect.js';

/** What a prepared statement's arguments may be: each is bound to the query as it is. */
export type Bindable = string | number | null;

export interface PreparedStatement<A extends Bindable[], R> {
  build: (db: Db, ...args: A) => Compilable<R>;
  /** The query compiled once for this database, and the parameters for one call's values. */
  compiled(db: Db): { query: CompiledQuery<R>; bind: (args: A) => unknown[] };
}

const PLACEHOLDER = '\u0000argument:';

/**
 * A query built with Kysely once per database and then run with each call's values, since building
 * and compiling a Kysely query costs more than running a point query. Each argument is swapped for
 * a placeholder string to compile, so each must be bound to the query as it is (not computed on).
 */
export function prepareStatement<A extends Bindable[], R>(build: (db: Db, ...args: A) => Compilable<R>): PreparedStatement<A, R> {
  const cache = new WeakMap<Db, { query: CompiledQuery<R>; bind: (args: A) => unknown[] }>();
  const compile = (db: Db) => {
    const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `${PLACEHOLDER}${i}`) as A;
    const query = build(db, ...placeholders).compile();
    const sources = query.parameters.map((value) => (typeof value === 'string' && value.startsWith(PLACEHOLDER) ? Number(value.slice(PLACEHOLDER.length)) : -1));
    if (placeholders.some((_, i) => !sources.includes(i))) throw new Error('prepareStatement: each argument must be bound to the query as it is');
    const bind = (args: A) => sources.map((source, i) => (source === -1 ? query.parameters[i] : args[source]));
    const entry = { query, bind };
    cache.set(db, entry);
    return entry;
  };
  return { build, compiled: (db) => cache.get(db) ?? compile(db) };
}

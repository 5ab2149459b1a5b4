import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';
import { readRows } from './read-rows.js';

/** Where the next chunk of a list starts: the last row read's values of the order's columns. */
export type Cursor = readonly unknown[];

/**
 * A list read in chunks, in a descending order that ends in a unique column: each chunk is one short
 * query that resumes after the last row of the one before (keyset pagination), so no connection,
 * transaction or offset is held between chunks, and each row is read once however long the reading takes.
 */
export interface KeysetRead<Row> {
  /** The matching rows, counted up to `atMost` (it stops there, so a huge table costs no more than that). */
  count(atMost: number): Promise<number>;
  /** Up to `limit` rows after `cursor` (null: from the first). */
  page(cursor: Cursor | null, limit: number): Promise<Row[]>;
  cursorOf(row: Row): Cursor;
}

/**
 * `matching` is the filtered list without order or limit. `order` maps each key of its rows that
 * orders it to the column it comes from, first to last, all descending; the last must be unique. The
 * first should be served by an index (a range on it is what each chunk asks), and no order column
 * should change once written (a row whose place moved during the reading could be skipped or read twice).
 */
export function keysetRead<Row extends Record<string, unknown>>(db: Db, matching: SelectQueryBuilder<Database, any, Row>, order: Record<string, string>): KeysetRead<Row> {
  const keys = Object.keys(order);
  const columns = Object.values(order);
  return {
    async count(atMost) {
      const capped = matching.clearSelect().select(sql<number>`1`.as('one')).limit(atMost).as('matching');
      const [row] = await readRows(db, db.selectFrom(capped).select((eb) => eb.fn.countAll<number>().as('n')));
      return Number(row?.n ?? 0);
    },
    page(cursor, limit) {
      let query = cursor ? matching.where(after(columns, cursor)) : matching;
      for (const column of columns) query = query.orderBy(column as never, 'desc');
      return readRows(db, query.limit(limit));
    },
    cursorOf: (row) => keys.map((key) => row[key]),
  };
}

/**
 * The rows after `cursor` in the order: `c0 <= v0 and (c0 < v0 or c1 < v1 or (c1 = v1 and …))`, a
 * range on the first column (which an index serves) narrowed by the others.
 */
function after(columns: string[], cursor: Cursor) {
  return (eb: ExpressionBuilder<any, any>) => {
    const [first, ...rest] = columns.map((column, i) => ({ column, value: cursor[i] }));
    const later = rest.reduceRight<ReturnType<typeof eb.and> | null>(
      (tail, { column, value }) => (tail ? eb.or([eb(column, '<', value), eb.and([eb(column, '=', value), tail])]) : eb(column, '<', value)),
      null,
    );
    const moreOfFirst = eb(first!.column, '<', first!.value);
    return eb.and([eb(first!.column, '<=', first!.value), later ? eb.or([moreOfFirst, later]) : moreOfFirst]);
  };
}

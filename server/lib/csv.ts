import { stringify } from 'csv-stringify/sync';

/** An export holds at most this many rows of the filtered list (the newest); `truncated` says when there were more. */
export const EXPORT_MAX_ROWS = 50_000;

/** The paging an export reads its list with: the first EXPORT_MAX_ROWS rows. */
export const EXPORT_PAGE = { page: 1, per_page: EXPORT_MAX_ROWS };

export interface CsvExport {
  csv: string;
  rows: number;
  truncated: boolean;
}

/** CSV with a header row; a cell that a spreadsheet would run as a formula (=, +, -, @…) is quoted as text. */
export function toCsv<T extends Record<string, unknown>>(items: T[], columns: (keyof T & string)[], total: number): CsvExport {
  const csv = stringify(items, { header: true, columns, escape_formulas: true, cast: { boolean: (value) => (value ? 'true' : 'false') } });
  return { csv, rows: items.length, truncated: total > items.length };
}

import { stringify, type Stringifier } from 'csv-stringify';

/** An export holds at most this many rows of the filtered list (the newest); `truncated` says when there were more. */
export const EXPORT_MAX_ROWS = 50_000;

/**
 * CSV with a header row (also when no row follows), written as records arrive; a cell that a
 * spreadsheet would run as a formula (=, +, -, @…) is quoted as text.
 */
export function csvWriter(columns: string[]): Stringifier {
  return stringify({ header: true, columns, escape_formulas: true, cast: { boolean: (value) => (value ? 'true' : 'false') } });
}

/**
 * The one CSV writer (RFC 4180 quoting by papaparse's `unparse`; this is the only papaparse
 * importer): every table and chart the page exports as CSV, and the CLI's `summary.csv`.
 *
 * - Cells holding a comma, a double quote, a line break or leading/trailing spaces are quoted;
 *   quotes inside are doubled.
 * - Formula injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`, a tab
 *   or a carriage return gets a leading `'` (and is quoted), so a spreadsheet shows it as text
 *   instead of running it — model output can end up in cells. Numbers and booleans are written as
 *   they are (a negative number stays a number).
 * - `null` / `undefined` are empty cells. Lines end with `\n`, the last one too.
 */
import Papa from 'papaparse';

/** One cell: text, a number (written with `String(n)`), a boolean, or empty. */
export type CsvCell = string | number | boolean | null | undefined;

/** A table to write: the header row and the data rows (each as long as the header). */
export interface CsvTable {
  header: readonly string[];
  rows: readonly (readonly CsvCell[])[];
}

/** Text cells a spreadsheet would read as a formula (OWASP's list; the whole cell, any line). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `table` as CSV text. @throws Error when a row's length differs from the header's */
export function toCsv(table: CsvTable): string {
  table.rows.forEach((row, i) => {
    if (row.length !== table.header.length) throw new Error(`CSV row ${i + 1} has ${row.length} cells, the header ${table.header.length}.`);
  });
  const text = Papa.unparse([[...table.header], ...table.rows.map((row) => [...row])], { newline: '\n', escapeFormulae: FORMULA_START });
  return `${text}\n`;
}

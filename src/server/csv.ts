/**
 * CSV for spreadsheets (the staff's filtered exports and `npm run data -- export`), written by
 * `csv-stringify` (the maintained writer of the `csv` project, whose `csv-parse` reads our imports):
 * every cell quoted, quotes doubled, CRLF line ends, a UTF-8 BOM so Excel shows accents. Our one
 * addition is the formula guard below, applied to every cell before the writer sees it.
 */
import { stringify } from 'csv-stringify/sync';

type CsvValue = string | number | boolean | null;

/** Leading characters Excel and LibreOffice read as the start of a formula (or that hide one). */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

/** The text of a cell with a leading = + - @ (or tab/CR) neutralised by a `'`, so a spreadsheet never runs it. */
export function formulaSafe(value: CsvValue): string {
  const text = value === null ? '' : String(value);
  return FORMULA_LEAD.test(text) ? `'${text}` : text;
}

/**
 * Undoes {@link formulaSafe} on a cell read back from one of our exports: a `'` followed by a
 * formula lead is dropped (the value is stored as text and never evaluated by us).
 */
export function unFormulaSafe(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

const OPTIONS = { quoted: true, quoted_empty: true, record_delimiter: 'windows' } as const;

/** One CSV cell, quoted and formula-safe. */
export function csvCell(value: CsvValue): string {
  return stringify([[formulaSafe(value)]], { ...OPTIONS, record_delimiter: '' }).replace(/\r?\n$/, '');
}

/** A whole CSV document: UTF-8 BOM (so Excel shows accents), CRLF line ends. */
export function toCsv(header: string[], rows: Array<Array<CsvValue>>): string {
  return `\uFEFF${stringify(
    [header, ...rows].map((row) => row.map(formulaSafe)),
    OPTIONS,
  )}`;
}

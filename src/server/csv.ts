/**
 * CSV for spreadsheets (the staff's filtered export and `npm run data -- export`).
 */

/** A CSV cell: quoted, and a leading = + - @ (or tab/CR) neutralised so Excel never runs it as a formula. */
export function csvCell(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A whole CSV document: UTF-8 BOM (so Excel shows accents), CRLF line ends. */
export function toCsv(header: string[], rows: Array<Array<string | number | boolean | null>>): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

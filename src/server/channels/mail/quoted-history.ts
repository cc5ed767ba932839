/**
 * Where the quoted history of a reply begins, in the forms our customers' clients write it and that
 * email-reply-parser misses or only finds after a blank line (issue 41): Outlook's separator
 * ('-----Mensaje original-----', '-----Original Message-----', '----- Original Nachricht -----',
 * '-----Ursprüngliche Nachricht-----'), Outlook's header block ('De: … Enviado: … Para: … Asunto: …',
 * 'From: … Sent: … To: … Subject: …', 'Von: … Gesendet: … An: … Betreff: …') and the attribution line
 * of Gmail, Apple Mail and Thunderbird ('El lun, 7 dic 2026 a las 10:00, Nombre <correo> escribió:',
 * 'On … wrote:', 'Am … schrieb …:'), possibly wrapped over two lines.
 *
 * email-reply-parser takes no patterns of its own through its API (its list is a module-wide singleton
 * the package does not export), so the cut is made here, before it. It is conservative: a header block
 * needs its subject line and another header after the sender's, an attribution line a time (10:00)
 * or a date in figures (07.12.2026);
 * a line of the customer's own that merely starts with 'De:' cuts nothing.
 */

const SEPARATOR =
  /^\s*-{2,}\s*(?:mensaje original|original message|original nachricht|ursprüngliche nachricht)\s*-{2,}\s*$/i;

/** The sender's line of a header block ('De:', 'From:', 'Von:'), bold markers of a converted HTML allowed. */
const BLOCK_SENDER = /^\s*\*?(?:de|from|von)\s?:\*?\s*\S/i;
const BLOCK_FIELD =
  /^\s*\*?(enviado el|enviado|fecha|para|cc|cco|asunto|sent|date|to|bcc|subject|gesendet|datum|an|betreff)\s?:\*?/i;
const SUBJECT_FIELDS = new Set(['asunto', 'subject', 'betreff']);
/** Lines a header block may span before its blank line. */
const BLOCK_LINES = 12;

/** A time (10:00) or a date in figures (07.12.2026, 7/12/26): what a client's attribution line carries. */
const WHEN = String.raw`(?:\d{1,2}:\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})`;
/** An attribution ('El … escribió:', 'On … wrote:', 'Am … schrieb …:') with a time or a date in figures. */
const ATTRIBUTION = [
  new RegExp(String.raw`^\s*El\s.*${WHEN}.*\sescribió\s?:\s*$`),
  new RegExp(String.raw`^\s*On\s.*${WHEN}.*\swrote\s?:\s*$`),
  new RegExp(String.raw`^\s*Am\s.*${WHEN}.*\sschrieb(?:\s.*)?:\s*$`),
];
const ATTRIBUTION_START = /^\s*(?:El|On|Am)\s.*\d/;
const MAX_ATTRIBUTION = 400;

/** Whether the lines from `index` are a header block: a sender, then a subject and one more field. */
export function startsHeaderBlock(lines: readonly string[], index: number): boolean {
  if (!BLOCK_SENDER.test(lines[index]!)) return false;
  const fields = new Set<string>();
  for (let next = index + 1; next < Math.min(lines.length, index + BLOCK_LINES); next += 1) {
    const line = lines[next]!;
    if (!line.trim()) break;
    const field = BLOCK_FIELD.exec(line)?.[1]?.toLowerCase();
    if (field) fields.add(field);
  }
  return [...fields].some((field) => SUBJECT_FIELDS.has(field)) && fields.size >= 2;
}

function isAttribution(line: string): boolean {
  return line.length <= MAX_ATTRIBUTION && ATTRIBUTION.some((pattern) => pattern.test(line));
}

/** The index of the line where the quoted history begins, or -1. */
export function quotedHistoryStart(lines: readonly string[]): number {
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (SEPARATOR.test(line) || startsHeaderBlock(lines, index) || isAttribution(line)) return index;
    // Wrapped by the client over two lines ('…, Nombre (<' / 'correo>) escribió:').
    const next = lines[index + 1];
    if (next !== undefined && next.trim() && ATTRIBUTION_START.test(line) && isAttribution(`${line} ${next}`))
      return index;
  }
  return -1;
}

/** Lines only of a rule ('________', '-----') or empty, which a client puts above its quoted history. */
const RULE_OR_BLANK = /^\s*(?:_{5,}|-{5,})?\s*$/;

/** The text above its quoted history (all of it when none is found), with the rule above it dropped. */
export function cutQuotedHistory(text: string): string {
  const lines = text.split('\n');
  const start = quotedHistoryStart(lines);
  if (start < 0) return text;
  let end = start;
  while (end > 0 && RULE_OR_BLANK.test(lines[end - 1]!)) end -= 1;
  return lines.slice(0, end).join('\n');
}

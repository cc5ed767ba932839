/**
 * The words of the staff search (issue 22, docs/decisions/0016): how a text becomes index terms and a
 * query becomes the terms to look for, and how the words that matched are marked in a shown text.
 *
 * A word is a run of letters and digits, and has up to two terms, so that accents and case never matter
 * and a word's family is found from any of its forms:
 * - its stem once lower-cased and stripped of its diacritics ('Facturación' → 'facturacion'; 'imprime',
 *   'imprimir' → 'imprim'): what a word typed without accents, as on most phones, is looked up by;
 * - the stem of the word as written, then stripped of its diacritics, when that differs: Snowball's
 *   Spanish suffixes carry their accents, so only the accented 'facturación' and 'configuración' lose
 *   theirs ('factur', 'configur': found by 'factura', 'facturar', 'configurar' and back). A word ending
 *   in '-cion' or '-sion' is read with the accent Spanish always writes there ('facturacion' as
 *   'facturación'): customers often type without accents, and their words must find the same family.
 * The Spanish Snowball stemmer is `@orama/stemmers`'. PostgreSQL indexes the same two forms (migration
 * 0038): its `es_unaccent` configuration (unaccent, then the Snowball `spanish_stem`) and its own
 * `spanish` one, so both engines find the same records.
 *
 * Identifiers: a run of digits joined by `-`, `.` or `/` ('1-31-24675-7', the '20261127-1234' of a
 * number) is also indexed as one word of its digits ('131246757'), and a query names it by that word
 * alone, so an RNC typed with or without dashes finds it written either way.
 */
import { stemmer } from '@orama/stemmers/spanish';
import { escapeHtml } from '../domain/html.ts';

const WORD = /[\p{L}\p{N}]+/gu;
const DIGIT_RUN = /\d+(?:[-./]\d+)+/g;

/** Lower case without accents (as `normalizeForSearch`, for one word). */
function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

// Terms of the words seen, bounded: the same words recur in every conversation.
const cachedTerms = new Map<string, string[]>();
const TERM_CACHE_SIZE = 50_000;

/**
 * A word as Spanish writes it, for the stemmer: lower case, and the accent of a final '-ción' or '-sión'
 * put back when it was typed without it (such words always carry it; the plural '-ciones' never does).
 */
export function writtenForm(word: string): string {
  return word.toLowerCase().replace(/(?<=\p{L})([cs])ion$/u, '$1ión');
}

/**
 * The index terms of one word (cached by the word as written): the stem of its folded form, then the
 * folded stem of the word as written when different ('facturación' → ['facturacion', 'factur']).
 */
export function termsOf(word: string): string[] {
  let terms = cachedTerms.get(word);
  if (terms === undefined) {
    const folded = fold(word);
    // Digits are not words of a language: kept whole.
    if (/^\d+$/.test(folded)) terms = [folded];
    else {
      const stem = stemmer(folded);
      const asWritten = fold(stemmer(writtenForm(word)));
      terms = asWritten === stem ? [stem] : [stem, asWritten];
    }
    if (cachedTerms.size >= TERM_CACHE_SIZE) cachedTerms.clear();
    cachedTerms.set(word, terms);
  }
  return terms;
}

/** The digits of each run of digits joined by separators ('INC-20261127-1234' → ['202611271234']). */
function compactNumbers(text: string): string[] {
  return Array.from(text.matchAll(DIGIT_RUN), ([run]) => run.replace(/\D/g, ''));
}

/**
 * What the SQLite index stores for a text (the `search_terms` function of src/server/db/sqlite.ts,
 * called by migration 0030's triggers): its terms, separated by spaces, plus the compact form of
 * every run of digits.
 */
export function indexTerms(text: string | null | undefined): string {
  if (!text) return '';
  const terms = Array.from(text.matchAll(WORD), ([word]) => termsOf(word)).flat();
  terms.push(...compactNumbers(text));
  return terms.join(' ');
}

/** The longest query read, and the most words looked for. */
export const QUERY_MAX_LENGTH = 200;
const QUERY_MAX_WORDS = 12;

/**
 * The words of a query, lower-cased with their accents (the second term of {@link termsOf} needs them),
 * in order, without repeats (accents aside): a run of digits joined by separators counts as one word of its digits.
 * Each is then looked for by its terms (SQLite, the help centre) or by PostgreSQL's two configurations.
 */
export function queryWords(query: string): string[] {
  const text = query.slice(0, QUERY_MAX_LENGTH);
  const words: string[] = [];
  const seen = new Set<string>();
  // A repeat is the same word with or without its accents: the first spelling typed is kept.
  const add = (word: string) => {
    const folded = fold(word);
    if (word && !seen.has(folded) && words.length < QUERY_MAX_WORDS) {
      seen.add(folded);
      words.push(word);
    }
  };
  for (const chunk of text.split(/\s+/)) {
    // A digit run with separators becomes its digits; the rest of the chunk splits into words.
    const rest = chunk.replace(DIGIT_RUN, (run) => ` ${run.replace(/\D/g, '')} `);
    for (const [word] of rest.matchAll(WORD)) add(word.toLowerCase());
  }
  return words;
}

/** A word as the help centre compares it with its list of common words: lower case, no accents. */
export const foldWord = fold;

/** The FTS5 query of these words: every one required, by any of its terms (`("a" OR "a2") AND "b"`); terms are letters and digits only. */
export function ftsQuery(words: string[]): string {
  return words
    .map(
      (word) =>
        `(${termsOf(word)
          .map((term) => `"${term}"`)
          .join(' OR ')})`,
    )
    .join(' AND ');
}

const escaped = (text: string) => escapeHtml(text, 'numeric');

/** A shown text's tokens: digit runs with their separators whole, else words. */
const TOKEN = /\d+(?:[-./]\d+)+|[\p{L}\p{N}]+/gu;

/** Whether a token of a shown text is one of the query's words (by a term; a digit run by its digits or a part). */
function matcher(words: string[]): (token: string) => boolean {
  const wanted = new Set(words.flatMap(termsOf));
  return (token) =>
    /^\d+(?:[-./]\d+)+$/.test(token)
      ? wanted.has(token.replace(/\D/g, '')) || token.split(/[-./]/).some((part) => wanted.has(part))
      : termsOf(token).some((term) => wanted.has(term));
}

/**
 * A text as HTML with the query's words marked: everything escaped, each matching word in `<mark>`.
 * Long texts are cut to about `width` characters around the first match ('…' where cut).
 */
export function highlight(text: string, words: string[], width = 240): string {
  const matches = matcher(words);
  let shown = text;
  let before = '';
  let after = '';
  if (text.length > width) {
    let first = -1;
    for (const found of text.matchAll(TOKEN)) {
      if (matches(found[0])) {
        first = found.index;
        break;
      }
    }
    const start = first < 0 ? 0 : Math.max(0, first - Math.floor(width / 3));
    // Cut at word boundaries.
    const from = start === 0 ? 0 : text.indexOf(' ', start) + 1 || start;
    const end = Math.min(text.length, from + width);
    const to =
      end === text.length ? end : text.lastIndexOf(' ', end) > from ? text.lastIndexOf(' ', end) : end;
    shown = text.slice(from, to);
    before = from > 0 ? '… ' : '';
    after = to < text.length ? ' …' : '';
  }
  let html = '';
  let last = 0;
  for (const found of shown.matchAll(TOKEN)) {
    html += escaped(shown.slice(last, found.index));
    html += matches(found[0]) ? `<mark>${escaped(found[0])}</mark>` : escaped(found[0]);
    last = found.index + found[0].length;
  }
  html += escaped(shown.slice(last));
  return `${before}${html}${after}`;
}

/** How many of a text's words are the query's (to pick which entry of a conversation to show). */
export function countMatches(text: string, words: string[]): number {
  const matches = matcher(words);
  let total = 0;
  for (const [token] of text.matchAll(TOKEN)) if (matches(token)) total++;
  return total;
}

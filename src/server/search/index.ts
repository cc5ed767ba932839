/**
 * One search for the staff area (issue 22, docs/decisions/0016): `/admin/buscar?q=…` over incidents
 * (with their whole conversation), contact messages and clients, grouped by kind, best first, the
 * matching words marked; and the match condition the incident list's text filter and the contact
 * inbox's search use. The index is migration 0030's, kept by triggers; the words are src/server/search-terms.ts's.
 *
 * Each kind is asked for its newest {@link CANDIDATES} matches (an index walk that stops there: FTS5
 * reads its lists newest rowid first, PostgreSQL walks the primary key or reads the GIN index, whichever
 * its planner finds cheaper), which are then ranked by relevance (identifiers above names above texts above
 * the conversation, then newest first) and the best shown. A word in every record thus costs 200 rows,
 * not 100,000; a rarer one returns all its matches, ranked.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { INCIDENT_ENTRY_LABELS, SEARCH_KINDS, type SearchKind } from '../../domain/search.ts';
import { adminClientPath, incidentPath, ROUTES } from '../../routes.ts';
import { isPostgres } from '../db/index.ts';
import type { Db } from '../db/index.ts';
import {
  countMatches,
  ftsQuery,
  highlight,
  indexTerms,
  queryWords,
  termsOf,
  writtenForm,
} from '../search-terms.ts';

export type { SearchKind };

/** Matches ranked per kind: the newest this many. */
export const CANDIDATES = 200;
/** Results shown per kind. */
export const SHOWN_PER_KIND = 10;

/**
 * PostgreSQL's match of these words: every one required, each by either of the two forms migration 0038
 * indexes (`es_unaccent`: folded, then stemmed; `spanish`: stemmed as written, {@link writtenForm}), as
 * {@link termsOf} for SQLite.
 */
function tsMatch(words: string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`document @@ (${sql.join(
    words.map((word) => {
      const folded = sql`to_tsquery('es_unaccent', ${`'${word}'`})`;
      // Most words have one form (identifiers, digits, most stems): ask for it once. At 100,000 incidents,
      // on indexes not yet rebuilt, an incident number's queries took 15.1 ms with both forms asked for
      // and 7.8 ms with one (npm run bench:admin); the rest of that cost was the indexes' bloat, which
      // migration 0038 now rebuilds away.
      return termsOf(word).length > 1
        ? sql`(${folded} || to_tsquery('spanish', ${`'${writtenForm(word)}'`}))`
        : folded;
    }),
    sql` && `,
  )})`;
}

const TABLES: Record<SearchKind, { table: string }> = {
  incidents: { table: 'search_incidents' },
  messages: { table: 'search_messages' },
  clients: { table: 'search_clients' },
};

/**
 * `column in (ids of the records of this kind that hold every word)`: the incident list's text filter
 * and the inbox's search. A query without a word (only punctuation) matches nothing.
 */
export function searchCondition(
  db: Db,
  kind: Exclude<SearchKind, 'clients'>,
  column: string,
  query: string,
): RawBuilder<SqlBool> {
  const words = queryWords(query);
  if (!words.length) return sql<SqlBool>`1 = 0`;
  const table = sql.table(TABLES[kind].table);
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} in (select id from ${table} where ${tsMatch(words)})`
    : sql<SqlBool>`${sql.ref(column)} in (select rowid from ${table} where ${table} match ${ftsQuery(words)})`;
}

/**
 * `(the ids of the newest CANDIDATES matches of a kind)`, for `id in …`: the records are read with their
 * candidacy in one round trip.
 */
function candidateIds(db: Db, kind: SearchKind, words: string[]): RawBuilder<number> {
  const table = sql.table(TABLES[kind].table);
  return isPostgres(db)
    ? sql<number>`(select id from ${table} where ${tsMatch(words)}
        order by id desc limit ${CANDIDATES})`
    : sql<number>`(select rowid from ${table} where ${table} match ${ftsQuery(words)}
        order by rowid desc limit ${CANDIDATES})`;
}

/**
 * The digits a query names a phone number by, when it is one as a person types it ('+1 809 555 0101',
 * '8095550101', '809-555-0101', '(809) 555-0101'): only digits, spaces, '+', '-', '.', '(' and ')', with
 * 7 to 15 digits. A Dominican (NANP) number typed with its country code also stands without it, so that
 * either form finds a number stored the other way. Null for any other query.
 */
export function phoneDigits(query: string): string[] | null {
  const text = query.trim();
  if (!/^[\d\s+().-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  return digits.length === 11 && digits.startsWith('1') ? [digits, digits.slice(1)] : [digits];
}

/** An incident's phone as digits: its WhatsApp number (stored as digits), or the phone typed on the form. */
const PHONE_DIGITS = sql`replace(replace(replace(replace(replace(replace(telefono, ' ', ''), '-', ''), '+', ''), '(', ''), ')', ''), '.', '')`;

/**
 * The newest CANDIDATES incidents whose phone ends with the typed number (issue 37: a WhatsApp
 * customer is known by their number first). The words' index holds a phone only as the text it was
 * typed in, so the search would need every group of digits, in the same grouping; this reads the
 * incidents' own columns instead: a scan, for a query shaped like a phone only.
 */
function phoneCandidateIds(alternatives: string[]): RawBuilder<number> {
  const matches = sql.join(
    alternatives.map(
      (digits) =>
        sql`(channel_address like ${`%${digits}`} or (telefono <> '' and ${PHONE_DIGITS} like ${`%${digits}`}))`,
    ),
    sql` or `,
  );
  return sql<number>`(select id from incidents where ${matches} order by id desc limit ${CANDIDATES})`;
}

/**
 * Relevance, the same on both engines: 3 when every word is in the identifiers (number, e-mail, RNC),
 * 2 in identifiers and names, 1 with the main text too (problem, message), 0 when the conversation or
 * a note was needed. Read from the candidates' own fields: FTS5's bm25 first counts every row holding
 * each word, which for common words read whole index lists (11–20 ms of CPU at 100,000 incidents,
 * however few the candidates).
 */
function relevance(words: string[], fields: [ident: string, name: string, text: string]): number {
  let needed = words.map(termsOf);
  const numbers = words.some((word) => /^\d+$/.test(word));
  for (const [index, field] of fields.entries()) {
    const found = new Set<string>();
    for (const [word] of field.matchAll(WORDS)) for (const term of termsOf(word)) found.add(term);
    // A digit run written with separators (an RNC with dashes) counts by its digits too.
    if (numbers)
      for (const term of indexTerms(field.match(DIGIT_RUNS)?.join(' ') ?? '').split(' ')) found.add(term);
    needed = needed.filter((terms) => !terms.some((term) => found.has(term)));
    if (!needed.length) return 3 - index;
  }
  return 0;
}

const WORDS = /[\p{L}\p{N}]+/gu;
const DIGIT_RUNS = /\d+(?:[-./]\d+)+/g;

/** Candidates ranked: by relevance, then newest first (the higher id). */
function ranked<T extends { id: number }>(
  rows: T[],
  words: string[],
  fields: (row: T) => [string, string, string],
): T[] {
  return rows
    .map((row) => ({ row, score: relevance(words, fields(row)) }))
    .sort((a, b) => b.score - a.score || b.row.id - a.row.id)
    .map(({ row }) => row);
}

/** A highlighted line of a result: a label ('Problema', 'Nota interna'…) and escaped HTML with `<mark>`. */
export interface SearchSnippet {
  label: string;
  html: string;
}

export interface SearchHit {
  id: number;
  href: string;
  /** Escaped HTML, the matching words marked. */
  titleHtml: string;
  /** Escaped HTML: the identifiers (number, e-mail, RNC), the matching words marked. */
  detailHtml: string;
  /** ISO 8601 UTC: when it was opened, sent or registered. */
  date: string;
  /** A state or a mark ('Registrado', 'Pendiente', 'Archivado'…), or null. */
  badge: string | null;
  snippet: SearchSnippet | null;
}

export interface SearchGroup {
  kind: SearchKind;
  /** How many matched, up to CANDIDATES (`capped`: at least that many). */
  total: number;
  capped: boolean;
  hits: SearchHit[];
}

export interface SearchResults {
  query: string;
  /** The words looked for (lower case); empty when the query has none. */
  words: string[];
  groups: SearchGroup[];
}

/** The text among these that holds the most query words (the first on a tie), or null when none does. */
function bestSnippet(texts: SearchSnippet[], words: string[]): SearchSnippet | null {
  let best: { text: SearchSnippet; count: number } | null = null;
  for (const text of texts) {
    const count = countMatches(text.html, words);
    if (count > (best?.count ?? 0)) best = { text, count };
  }
  return best ? { label: best.text.label, html: highlight(best.text.html, words) } : null;
}

const join = (...parts: string[]) => parts.filter(Boolean).join(' · ');

/** A phone as the ranking reads it: as typed, and as its digits ('+1 809-555-0101 18095550101 8095550101'). */
function phoneField(telefono: string): string {
  const digits = telefono.replace(/\D/g, '');
  return `${telefono} ${digits} ${digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : ''}`;
}

async function incidentHits(
  db: Db,
  ids: RawBuilder<number>,
  words: string[],
  shown: number,
  phone: string[] | null = null,
): Promise<Found> {
  const candidates = await db
    .selectFrom('incidents')
    .select(['id', 'numeroIncidencia', 'nombre', 'email', 'rnc', 'telefono', 'problema', 'estado', 'fecha'])
    .where((eb) =>
      phone ? eb.or([eb('id', 'in', ids), eb('id', 'in', phoneCandidateIds(phone))]) : eb('id', 'in', ids),
    )
    .execute();
  // A phone is an identifier when the query is one (as its digits: phoneDigits).
  const best = ranked(candidates, phone ? [...words, phone[0]!] : words, (row) => [
    `${row.numeroIncidencia} ${row.email} ${row.rnc}${phone ? ` ${phoneField(row.telefono)}` : ''}`,
    row.nombre,
    row.problema,
  ]).slice(0, shown);
  if (!best.length) return { total: 0, hits: [] };
  const entries = await db
    .selectFrom('incidentEntries')
    .select(['incidentId', 'kind', 'body'])
    .where(
      'incidentId',
      'in',
      best.map((row) => row.id),
    )
    .orderBy('id')
    .execute();
  const hits = best.map((incident): SearchHit => {
    // Raw texts here; bestSnippet highlights the one it picks.
    const texts: SearchSnippet[] = [
      { label: 'Problema', html: incident.problema },
      ...entries
        .filter((entry) => entry.incidentId === incident.id)
        .map((entry) => ({ label: INCIDENT_ENTRY_LABELS[entry.kind], html: entry.body })),
    ];
    return {
      id: incident.id,
      href: incidentPath(incident.numeroIncidencia),
      titleHtml: join(highlight(incident.numeroIncidencia, words), highlight(incident.nombre, words)),
      detailHtml: join(
        highlight(incident.email, words),
        phone && incident.telefono ? highlight(incident.telefono, words) : '',
        incident.rnc ? `RNC ${highlight(incident.rnc, words)}` : '',
      ),
      date: incident.fecha,
      badge: incident.estado,
      snippet: bestSnippet(texts, words),
    };
  });
  return { total: candidates.length, hits };
}

async function messageHits(
  db: Db,
  ids: RawBuilder<number>,
  words: string[],
  shown: number,
  query: string,
): Promise<Found> {
  const messages = await db
    .selectFrom('contactMessages')
    .select(['id', 'name', 'email', 'message', 'createdAt', 'handledAt'])
    .where('id', 'in', ids)
    .execute();
  const best = ranked(
    messages.map((row) => ({ ...row, id: Number(row.id) })),
    words,
    (row) => [row.email, row.name, row.message],
  ).slice(0, shown);
  const hits = best.map((message): SearchHit => {
    const estado = message.handledAt ? 'atendidos' : 'pendientes';
    const params = new URLSearchParams({ q: query });
    if (estado === 'atendidos') params.set('estado', estado);
    return {
      id: Number(message.id),
      href: `${ROUTES.adminMessages}?${params.toString()}#mensaje-${message.id}`,
      titleHtml: highlight(message.name, words),
      detailHtml: highlight(message.email, words),
      date: message.createdAt,
      badge: message.handledAt ? 'Atendido' : 'Pendiente',
      snippet: { label: 'Mensaje', html: highlight(message.message, words) },
    };
  });
  return { total: messages.length, hits };
}

async function clientHits(db: Db, ids: RawBuilder<number>, words: string[], shown: number): Promise<Found> {
  const clients = await db
    .selectFrom('clients')
    .select(['id', 'razonSocial', 'nombreRepresentante', 'email', 'rnc', 'fechaRegistro', 'archivedAt'])
    .where('id', 'in', ids)
    .execute();
  // A client's main text is its notes, read for the shown ones only: its relevance stops at the names.
  const best = ranked(clients, words, (row) => [
    `${row.email} ${row.rnc}`,
    `${row.razonSocial} ${row.nombreRepresentante}`,
    '',
  ]).slice(0, shown);
  if (!best.length) return { total: 0, hits: [] };
  const notes = await db
    .selectFrom('clientEvents')
    .select(['clientId', 'detail'])
    .where(
      'clientId',
      'in',
      best.map((row) => row.id),
    )
    .where('kind', '=', 'note')
    .orderBy('id')
    .execute();
  const hits = best.map((client): SearchHit => ({
    id: client.id,
    href: adminClientPath(client.id),
    titleHtml: join(highlight(client.razonSocial, words), highlight(client.nombreRepresentante, words)),
    detailHtml: join(highlight(client.email, words), client.rnc ? `RNC ${highlight(client.rnc, words)}` : ''),
    date: client.fechaRegistro,
    badge: client.archivedAt ? 'Archivado' : null,
    snippet: bestSnippet(
      notes
        .filter((note) => note.clientId === client.id && note.detail)
        .map((note) => ({ label: 'Nota', html: note.detail! })),
      words,
    ),
  }));
  return { total: clients.length, hits };
}

/** A kind's candidates counted (up to CANDIDATES) and its best shown. */
interface Found {
  total: number;
  hits: SearchHit[];
}

/** `/admin/buscar?q=…`: every kind's best matches, grouped, in the order incidents, messages, clients. */
export async function searchEverything(
  db: Db,
  query: string,
  shown = SHOWN_PER_KIND,
): Promise<SearchResults> {
  const words = queryWords(query);
  if (!words.length) return { query, words, groups: [] };
  const phone = phoneDigits(query);
  const kinds = SEARCH_KINDS;
  const found = await Promise.all(
    kinds.map((kind) => {
      const ids = candidateIds(db, kind, words);
      if (kind === 'incidents') return incidentHits(db, ids, words, shown, phone);
      if (kind === 'messages') return messageHits(db, ids, words, shown, query);
      return clientHits(db, ids, words, shown);
    }),
  );
  return {
    query,
    words,
    groups: kinds.map((kind, index) => ({
      kind,
      total: found[index]!.total,
      capped: found[index]!.total >= CANDIDATES,
      hits: found[index]!.hits,
    })),
  };
}

export { foldWord, indexTerms, queryWords, termsOf } from '../search-terms.ts';

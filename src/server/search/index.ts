/**
 * One search for the staff area (issue 22, docs/decisions/0016): `/admin/buscar?q=…` over incidents
 * (with their whole conversation), contact messages and clients, grouped by kind, best first, the
 * matching words marked; and the match condition the incident list's text filter and the contact
 * inbox's search use. The index is migration 0030's, kept by triggers; the words are src/server/search/terms.ts's.
 *
 * Each kind is asked for its newest {@link CANDIDATES} matches (an index walk that stops there: FTS5
 * reads its lists newest rowid first, PostgreSQL walks the primary key or reads the GIN index, whichever
 * its planner finds cheaper), which are then ranked by relevance (FTS5's bm25, PostgreSQL's ts_rank, with
 * identifiers above names above texts) and the best shown. A word in every record thus costs 500 rows,
 * not 100,000; a rarer one returns all its matches, ranked.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { INCIDENT_ENTRY_LABELS, SEARCH_KINDS, type SearchKind } from '../../domain/search.ts';
import { adminClientPath, incidentPath, ROUTES } from '../../routes.ts';
import { isPostgres } from '../db/engine.ts';
import type { Db } from '../db/index.ts';
import { countMatches, ftsQuery, highlight, queryWords, tsQuery } from './terms.ts';

export type { SearchKind };

/** Matches ranked per kind: the newest this many. */
export const CANDIDATES = 500;
/** Results shown per kind. */
export const SHOWN_PER_KIND = 10;

const TABLES: Record<SearchKind, { table: string; weights: number[] }> = {
  // bm25 column weights: identifiers, names, the main text, the conversation.
  incidents: { table: 'search_incidents', weights: [10, 5, 2, 1] },
  messages: { table: 'search_messages', weights: [10, 5, 2] },
  clients: { table: 'search_clients', weights: [10, 5, 2] },
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
    ? sql<SqlBool>`${sql.ref(column)} in (select id from ${table} where document @@ to_tsquery('es_unaccent', ${tsQuery(words)}))`
    : sql<SqlBool>`${sql.ref(column)} in (select rowid from ${table} where ${table} match ${ftsQuery(words)})`;
}

/** The newest CANDIDATES matches of a kind with their relevance (higher is better). */
async function candidates(db: Db, kind: SearchKind, words: string[]): Promise<{ id: number; score: number }[]> {
  const { table, weights } = TABLES[kind];
  const rows = isPostgres(db)
    ? await sql<{ id: number; score: number }>`with matches as (
        select id, document from ${sql.table(table)}
        where document @@ to_tsquery('es_unaccent', ${tsQuery(words)})
        order by id desc limit ${CANDIDATES})
      select id, ts_rank(document, to_tsquery('es_unaccent', ${tsQuery(words)})) as score from matches`.execute(db)
    : await sql<{ id: number; score: number }>`select rowid as id, -bm25(${sql.table(table)}, ${sql.raw(weights.join(', '))}) as score
        from ${sql.table(table)} where ${sql.table(table)} match ${ftsQuery(words)}
        order by rowid desc limit ${CANDIDATES}`.execute(db);
  return rows.rows
    .map((row) => ({ id: Number(row.id), score: Number(row.score) }))
    .sort((a, b) => b.score - a.score || b.id - a.id);
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
  /** The words looked for (folded); empty when the query has none. */
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

function order<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function incidentHits(db: Db, ids: number[], words: string[]): Promise<SearchHit[]> {
  if (!ids.length) return [];
  const [incidents, entries] = await Promise.all([
    db
      .selectFrom('incidents')
      .select(['id', 'numeroIncidencia', 'nombre', 'email', 'rnc', 'problema', 'estado', 'fecha'])
      .where('id', 'in', ids)
      .execute(),
    db
      .selectFrom('incidentEntries')
      .select(['incidentId', 'kind', 'body'])
      .where('incidentId', 'in', ids)
      .orderBy('id')
      .execute(),
  ]);
  return order(ids, incidents).map((incident) => {
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
      detailHtml: join(highlight(incident.email, words), incident.rnc ? `RNC ${highlight(incident.rnc, words)}` : ''),
      date: incident.fecha,
      badge: incident.estado,
      snippet: bestSnippet(texts, words),
    };
  });
}

async function messageHits(db: Db, ids: number[], words: string[], query: string): Promise<SearchHit[]> {
  if (!ids.length) return [];
  const messages = await db
    .selectFrom('contactMessages')
    .select(['id', 'name', 'email', 'message', 'createdAt', 'handledAt'])
    .where('id', 'in', ids)
    .execute();
  return order(ids, messages).map((message) => {
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
}

async function clientHits(db: Db, ids: number[], words: string[]): Promise<SearchHit[]> {
  if (!ids.length) return [];
  const [clients, notes] = await Promise.all([
    db
      .selectFrom('clients')
      .select(['id', 'razonSocial', 'nombreRepresentante', 'email', 'rnc', 'fechaRegistro', 'archivedAt'])
      .where('id', 'in', ids)
      .execute(),
    db
      .selectFrom('clientEvents')
      .select(['clientId', 'detail'])
      .where('clientId', 'in', ids)
      .where('kind', '=', 'note')
      .orderBy('id')
      .execute(),
  ]);
  return order(ids, clients).map((client) => ({
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
}

/** `/admin/buscar?q=…`: every kind's best matches, grouped, in the order incidents, messages, clients. */
export async function searchEverything(db: Db, query: string, shown = SHOWN_PER_KIND): Promise<SearchResults> {
  const words = queryWords(query);
  if (!words.length) return { query, words, groups: [] };
  const kinds = SEARCH_KINDS;
  const matched = await Promise.all(kinds.map((kind) => candidates(db, kind, words)));
  const hits = await Promise.all(
    kinds.map((kind, index) => {
      const ids = matched[index]!.slice(0, shown).map((row) => row.id);
      if (kind === 'incidents') return incidentHits(db, ids, words);
      if (kind === 'messages') return messageHits(db, ids, words, query);
      return clientHits(db, ids, words);
    }),
  );
  return {
    query,
    words,
    groups: kinds.map((kind, index) => ({
      kind,
      total: matched[index]!.length,
      capped: matched[index]!.length >= CANDIDATES,
      hits: hits[index]!,
    })),
  };
}

/**
 * The staff incident list: the filtered, paginated page (filtering and paging in the database, on the
 * normalised `*_norm` columns that db/rows.ts derives; see docs/decisions/0007) and the counts per state.
 */
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  countsPerState,
  type IncidentOrigin,
  type IncidentPriority,
  type IncidentRecord,
  type IncidentState,
} from '../../domain/incidents.ts';
import { isPostgres } from '../db/index.ts';
import type { Db } from '../db/index.ts';
import { LIKE_WILDCARDS, likeContains } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import { searchCondition } from '../search/index.ts';
import { normalizeForSearch } from '../text.ts';
import { loadHistories } from './history.ts';
import { endOfLocalDay, loadResponseTimes } from './clock.ts';
import type { IncidentFilters } from './query.ts';

export const PAGE_SIZE = 20;

/** Who is looking: the staff account 'Asignadas a mí' means (Better Auth's user id). */
export interface IncidentViewer {
  staffId: string;
}

/** When the list is looked at, for 'Vencidas' and 'Vencen hoy' (issue 22): now, and the end of today in the clock's zone (ISO). */
interface DeadlineBounds {
  now: string;
  endOfDay: string;
}

type TextFilter = { column: 'numero_incidencia' | 'nombre_norm' | 'rnc_norm'; term: string };

/** The text filters in normalised form (lower case, no accents), empty ones dropped. */
function textFilters(filters: IncidentFilters): TextFilter[] {
  const result: TextFilter[] = [];
  for (const [column, raw] of [
    ['numero_incidencia', filters.numero],
    ['nombre_norm', filters.nombre],
    ['rnc_norm', filters.rnc],
  ] as const) {
    const term = raw ? normalizeForSearch(raw) : '';
    if (term) result.push({ column, term });
  }
  return result;
}

/**
 * `column like '%term%'` on a table alias; the number is compared in lower case (it is ASCII).
 * `opaque` hides the column from PostgreSQL's planner (`(column || '')`), so that it filters rows
 * it reads in date order instead of fetching every match of a common term from the trigram index.
 */
function likeCondition(table: string, { column, term }: TextFilter, opaque = false) {
  const ref = sql.ref(`${table}.${column}`);
  const value = column === 'numero_incidencia' ? sql`lower(${ref})` : ref;
  return likeContains(opaque ? sql`(${value} || '')` : value, term);
}

/**
 * PostgreSQL's trigram lookup of a text filter. Every number starts `inc-yyyymmdd-`, whose trigrams
 * every row shares (reading their lists took 25 ms at 100,000 incidents), so a number is looked up
 * by its last part (`-1001`, 3+ characters) and the whole term is checked on the rows found.
 */
function trigramConditions(filter: TextFilter) {
  const last = filter.term.split('-').at(-1) ?? '';
  if (filter.column !== 'numero_incidencia' || last === filter.term || last.length < 3)
    return [likeCondition('incidents', filter)];
  return [likeCondition('incidents', { ...filter, term: last }), likeCondition('incidents', filter, true)];
}

/**
 * The assignment filter as a condition: both read the (assigned_to, fecha, id) index of migration
 * 0011, or (assigned_to, last_activity_at, id) of 0017 for the sort by activity. 'Asignadas a mí'
 * without a viewer matches nothing (no account has the empty id).
 */
function assignmentCondition(filters: IncidentFilters, viewer?: IncidentViewer) {
  if (filters.asignacion === 'sin-asignar') return sql<SqlBool>`${sql.ref('incidents.assigned_to')} is null`;
  if (filters.asignacion === 'mias')
    return sql<SqlBool>`${sql.ref('incidents.assigned_to')} = ${viewer?.staffId ?? ''}`;
  return null;
}

/**
 * The viewer with the time the list is looked at, when 'Vencidas' or 'Vencen hoy' is asked for (today
 * ends at midnight in the clock's time zone, 'Tiempos de respuesta').
 */
export async function lookingAt(
  db: Db,
  filters: IncidentFilters,
  viewer: IncidentViewer | undefined,
  now: Date = new Date(),
): Promise<(IncidentViewer & Partial<DeadlineBounds>) | undefined> {
  if (!filters.plazo) return viewer;
  const endOfDay =
    filters.plazo === 'hoy' ? endOfLocalDay(now, (await loadResponseTimes(db)).timeZone) : now.toISOString();
  return { staffId: viewer?.staffId ?? '', now: now.toISOString(), endOfDay };
}

/**
 * The conditions that are no substring search (state, priority, assignment, origin: each has an index
 * with the list's orders; 'Vence', from the viewer's time; and the words of 'Texto', `q`, looked up in
 * the search index of issue 22).
 */
function exactConditions(
  filters: IncidentFilters,
  viewer?: IncidentViewer & Partial<DeadlineBounds>,
  db?: Db,
) {
  const conditions = [];
  if (db && filters.q) conditions.push(searchCondition(db, 'incidents', 'incidents.id', filters.q));
  // 'Vence' (`due_at`, set only while the clock runs; migration 0031's index).
  if (filters.plazo && viewer?.now) {
    const due = sql.ref('incidents.due_at');
    conditions.push(
      filters.plazo === 'vencidas'
        ? sql<SqlBool>`${due} <= ${viewer.now}`
        : sql<SqlBool>`${due} > ${viewer.now} and ${due} < ${viewer.endOfDay ?? viewer.now}`,
    );
  }
  if (filters.estado) conditions.push(sql<SqlBool>`${sql.ref('incidents.estado')} = ${filters.estado}`);
  if (filters.origen) conditions.push(sql<SqlBool>`${sql.ref('incidents.origen')} = ${filters.origen}`);
  // (prioridad, fecha, id) and (prioridad, last_activity_at, id), migration 0029.
  if (filters.prioridad)
    conditions.push(sql<SqlBool>`${sql.ref('incidents.prioridad')} = ${filters.prioridad}`);
  const assignment = assignmentCondition(filters, viewer);
  if (assignment) conditions.push(assignment);
  return conditions;
}

/** The filters as conditions on `incidents`; `opaque` as in {@link likeCondition}. */
export function applyFilters<O>(
  query: SelectQueryBuilder<Database, 'incidents', O>,
  filters: IncidentFilters,
  viewer?: IncidentViewer,
  opaque = false,
  db?: Db,
): SelectQueryBuilder<Database, 'incidents', O> {
  let result = query;
  for (const filter of textFilters(filters))
    result = result.where(likeCondition('incidents', filter, opaque));
  for (const condition of exactConditions(filters, viewer, db)) result = result.where(condition);
  return result;
}

/** The column the list is sorted by (newest first, then by id). */
export function sortColumn(filters: IncidentFilters): 'fecha' | 'lastActivityAt' {
  return filters.orden === 'actividad' ? 'lastActivityAt' : 'fecha';
}

/**
 * The page of a text search comes from whichever of three ways is cheap for that term, so that its
 * cost depends on the page and the term's matches, not on the size of the table:
 *
 * 1. SQLite: the column's FTS5 trigram table, asked for at most FTS_PROBE matches (it stops there).
 *    All of them (a rare term: a number, an RNC): sort those few by date. Done.
 * 2. Walk the newest RECENT_WINDOW incidents (of the chosen state) in list order through the
 *    (fecha, id) index, stopping when the page is full: a common term fills it after a few rows.
 * 3. Otherwise every match from the trigram index (SQLite FTS5, PostgreSQL pg_trgm GIN), sorted.
 *    PostgreSQL goes from 2 to 3 directly: its GIN index returns all matches at once anyway.
 */
export const RECENT_WINDOW = 1000;
const FTS_PROBE = 200;

type IdQuery = SelectQueryBuilder<Database, 'incidents', { id: number }>;

/**
 * Ids of one page (plus one, to know whether a next page exists), newest first by the list's sort
 * column (`fecha`, or `last_activity_at` for 'Última actividad'); everything below reads "date" as
 * that column.
 */
async function pageIds(
  db: Db,
  filters: IncidentFilters,
  offset: number,
  limit: number,
  viewer?: IncidentViewer,
): Promise<number[]> {
  const text = textFilters(filters);
  const column = sortColumn(filters);
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  const ordered = (query: IdQuery) =>
    query.orderBy(`incidents.${column}`, 'desc').orderBy('incidents.id', 'desc').limit(limit).offset(offset);
  const filtered = () =>
    applyFilters(db.selectFrom('incidents').select('incidents.id'), filters, viewer, false, db);
  const exact = exactConditions(filters, viewer, db);

  // No text: an index walk that stops at the page, on (date desc, id desc), or on (estado, date…) /
  // (assigned_to, date…) when one of those filters is set.
  if (!text.length) return ids(await ordered(filtered()).execute());

  const sqlite = !isPostgres(db);
  // FTS5 trigram tables answer `like '%term%'` for 3+ characters without LIKE wildcards.
  const indexed = sqlite
    ? text.find(({ term }) => term.length >= 3 && !LIKE_WILDCARDS.test(term))
    : undefined;
  const ftsMatches = (column: string, term: string, cap?: number) =>
    sql<{
      id: number;
    }>`select rowid as id from ${sql.table(`incidents_fts_${column}`)} where ${sql.ref(column)} like ${`%${term}%`}${cap ? sql` limit ${cap}` : sql``}`;

  // 1. A rare term: all its matches, from the index, sorted here.
  if (indexed) {
    const probe = ids((await ftsMatches(indexed.column, indexed.term, FTS_PROBE + 1).execute(db)).rows);
    if (probe.length <= FTS_PROBE)
      return probe.length ? ids(await ordered(filtered().where('incidents.id', 'in', probe)).execute()) : [];
  }

  // 2. The newest RECENT_WINDOW rows, walked in order until the page is full. Rows dated like the
  //    window's oldest are included too, so nothing outside it can come before anything inside.
  //    The window is that of the state and assignment filters (their indexes give it).
  let edgeQuery = db.selectFrom('incidents').select(`incidents.${column} as edge`);
  for (const condition of exact) edgeQuery = edgeQuery.where(condition);
  const edge = await edgeQuery
    .orderBy(`incidents.${column}`, 'desc')
    .orderBy('incidents.id', 'desc')
    .limit(1)
    .offset(RECENT_WINDOW - 1)
    .executeTakeFirst();
  let inWindow = applyFilters(
    db.selectFrom('incidents').select('incidents.id'),
    filters,
    viewer,
    !sqlite,
    db,
  );
  if (edge) inWindow = inWindow.where(`incidents.${column}`, '>=', edge.edge);
  const recent = ids(await ordered(inWindow).execute());
  // A full page, or the window held every incident: that is the answer.
  if (recent.length === limit || !edge) return recent;

  // 3. Every match from the trigram index, sorted.
  if (!sqlite) {
    // Materialised, so PostgreSQL's planner looks the matches up in the pg_trgm index rather than walk
    // the date index hoping to meet them early (here they are all older than the window).
    return ids(
      await db
        .with(
          (cte) => cte('matches').materialized(),
          () => {
            let query = db.selectFrom('incidents').select(['incidents.id', `incidents.${column} as sorted`]);
            for (const condition of [...text.flatMap(trigramConditions), ...exact])
              query = query.where(condition);
            return query;
          },
        )
        .selectFrom('matches')
        .select('matches.id')
        .orderBy('matches.sorted', 'desc')
        .orderBy('matches.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    );
  }
  if (!indexed) return ids(await ordered(filtered()).execute());
  // CROSS JOIN keeps the written join order in SQLite: the index's matches drive, nothing walks the table.
  const where = [
    ...text.filter((filter) => filter !== indexed).map((filter) => likeCondition('incidents', filter)),
    ...exact,
  ];
  const rows = await sql<{
    id: number;
  }>`select incidents.id from (${ftsMatches(indexed.column, indexed.term)}) as matches
    cross join incidents on incidents.id = matches.id
    ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by ${sql.ref(`incidents.${column === 'fecha' ? 'fecha' : 'last_activity_at'}`)} desc, incidents.id desc
    limit ${limit} offset ${offset}`.execute(db);
  return ids(rows.rows);
}

/** A row of the staff list: the incident with its history, who has it and how it stands. */
export interface IncidentListItem extends IncidentRecord {
  /** The assignee's name, else their e-mail; null when nobody is assigned ('Sin asignar'). */
  asignadaA: string | null;
  /** ISO 8601 UTC: 'Última actividad'. */
  ultimaActividad: string;
  /** The visitor answered and no staff reply followed yet: 'Respuesta del cliente'. */
  respuestaDelCliente: boolean;
  /** The support form's or a channel's origin (src/domain/channels.ts). */
  origen: IncidentOrigin;
  /** 'Prioridad' (issue 22). */
  prioridad: IncidentPriority;
  /** 'Vence' (issue 22): the next due time while the clock runs (ISO), else null (paused, resolved). */
  vence: string | null;
}

export interface IncidentPage {
  items: IncidentListItem[];
  page: number;
  pageSize: number;
  hasNext: boolean;
}

/**
 * One page of the filtered list, newest first by creation (fecha, then id), or by last activity with
 * `orden: 'actividad'`. `viewer` is who 'Asignadas a mí' means.
 *
 * Two round trips without a text filter (the page's rows with their assignee's name, then their
 * histories): on a busy server each one waits its turn, so the rows come straight from the index walk.
 * A text search first finds the page's ids (see {@link pageIds}).
 */
export async function listIncidents(
  db: Db,
  filters: IncidentFilters,
  page = 1,
  pageSize = PAGE_SIZE,
  viewer?: IncidentViewer,
  now: Date = new Date(),
): Promise<IncidentPage> {
  const column = sortColumn(filters);
  const looking = await lookingAt(db, filters, viewer, now);
  // The assignee's name from Better Auth's `user` table (its columns need no case mapping).
  let query = db
    .selectFrom('incidents')
    .leftJoin('user', 'user.id', 'incidents.assignedTo')
    .selectAll('incidents')
    .select(['user.name as assigneeName', 'user.email as assigneeEmail'])
    .orderBy(`incidents.${column}`, 'desc')
    .orderBy('incidents.id', 'desc');
  let rows;
  if (textFilters(filters).length) {
    const ids = await pageIds(db, filters, (page - 1) * pageSize, pageSize + 1, looking);
    rows = ids.length ? await query.where('incidents.id', 'in', ids).execute() : [];
  } else {
    for (const condition of exactConditions(filters, looking, db)) query = query.where(condition);
    rows = await query
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize)
      .execute();
  }
  const shown = rows.slice(0, pageSize);
  const histories = await loadHistories(
    db,
    shown.map((row) => row.id),
  );
  const items = shown.map((row): IncidentListItem => {
    const {
      assignedTo,
      assigneeName,
      assigneeEmail,
      lastActivityAt,
      customerWaiting,
      staffNoticePending: _pending,
      resolvedAt: _resolved,
      nombreNorm: _nombre,
      rncNorm: _rnc,
      channel: _channel,
      channelAddress: _channelAddress,
      dueAt,
      clockStarted: _clockStarted,
      clockSince: _clockSince,
      firstReplyAt: _firstReplyAt,
      firstReplyUsedS: _firstReplyUsed,
      resolutionUsedS: _resolutionUsed,
      firstReplyDueAt: _firstReplyDue,
      resolutionDueAt: _resolutionDue,
      firstReplyMet: _firstReplyMet,
      resolutionMet: _resolutionMet,
      clockResolvedAt: _clockResolved,
      ...incident
    } = row;
    return {
      ...incident,
      historial: histories.get(row.id) ?? [],
      // An account since removed still reads as assigned.
      asignadaA: assignedTo ? assigneeName?.trim() || assigneeEmail || 'Cuenta eliminada' : null,
      ultimaActividad: lastActivityAt,
      respuestaDelCliente: Boolean(customerWaiting),
      vence: dueAt ?? null,
    };
  });
  return { items, page, pageSize, hasNext: rows.length > pageSize };
}

export async function countIncidentsByState(db: Db): Promise<Record<IncidentState, number>> {
  // Kept by triggers on `incidents` in the writing transaction (migration 0020): one short read,
  // where counting the states' index ranges cost 5 ms (SQLite) to 13 ms (PostgreSQL) at 100,000.
  const rows = await db.selectFrom('incidentStateCounts').select(['estado', 'total']).execute();
  return countsPerState(rows);
}

/**
 * Clients of the consultancy, as the staff manage them: list with search, creation (normalised
 * phone, non-blocking RNC/cédula check; the action checks the form with src/domain/forms/client.ts)
 * and the welcome-mail flag.
 */
import { sql } from 'kysely';
import { createRequire } from 'node:module';
import {
  CLIENT_FIELDS,
  type ClientEventKind,
  type ClientFieldName,
  type ClientInput,
  type ClientRecord,
  type ProjectState,
} from '../../domain/forms/client.ts';
import type { MeetingEventKind } from '../../domain/forms/meeting.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { likeContains } from '../db/index.ts';
import { clientEditRow, clientRow } from '../db/index.ts';
import type { Client, ClientEvent } from '../db/index.ts';
import { normalizeForSearch } from '../text.ts';

const DO_AREA_CODES = ['809', '829', '849'];

/**
 * `+1 809-555-0142` when the number is a Dominican one written any usual way (10 digits, or 11 with
 * the leading 1); anything else is kept as typed, since the spec sets no format.
 */
export function normalizeDominicanPhone(raw: string): string {
  const trimmed = raw.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length === 10 && DO_AREA_CODES.includes(digits.slice(0, 3)) && /^[\d\s()+.-]+$/.test(trimmed)) {
    return `+1 ${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  }
  return trimmed;
}

let stdnumLibrary: (typeof import('stdnum'))['stdnum'] | undefined;

/**
 * A warning (never a refusal) when the tax id is neither a valid RNC (9 digits, check digit) nor a
 * valid cédula (11 digits, Luhn, with the known legacy exceptions) — per python-stdnum's rules.
 */
export function taxIdWarning(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  // Loaded on first use: the library loads every country's validators (about 0.1 s of CPU at a start).
  stdnumLibrary ??= (createRequire(import.meta.url)('stdnum') as typeof import('stdnum')).stdnum;
  const validators = stdnumLibrary['DO'];
  if (digits.length === 9 && validators?.['rnc']) {
    return validators['rnc'].validate(raw).isValid
      ? null
      : 'El RNC no pasa la verificación del dígito verificador; revísalo.';
  }
  if (digits.length === 11 && validators?.['cedula']) {
    return validators['cedula'].validate(raw).isValid
      ? null
      : 'La cédula no pasa la verificación del dígito verificador; revísala.';
  }
  return 'El RNC debe tener 9 dígitos (o 11 si es una cédula); revísalo.';
}

export async function createClient(
  db: Db,
  input: ClientInput,
  now: Date = new Date(),
  /** Who added it and from where: an audit event is recorded in the same transaction. */
  audit?: AuditActor,
): Promise<{ client: ClientRecord; warnings: string[] }> {
  const telefono = normalizeDominicanPhone(input.telefono);
  const email = input.email.toLowerCase();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('clients')
      .values(
        clientRow({
          razonSocial: input.razonSocial,
          nombreRepresentante: input.nombreRepresentante,
          telefono,
          email,
          rnc: input.rnc,
          tipoProyecto: input.tipoProyecto,
          estadoProyecto: 'pendiente',
          fechaRegistro: now.toISOString(),
          correoBienvenidaEnviado: false,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordClientEvent(trx, inserted.id, 'created', audit, null, now);
    if (audit)
      await recordEvent(
        trx,
        { ...audit, action: 'client.created', subject: inserted.id, detail: inserted.razonSocial },
        now,
      );
    return inserted;
  });
  return { client: toView(row), warnings: clientWarnings(input) };
}

/** A client to store as it stood elsewhere (`npm run data -- import`), staff accounts already mapped to this database's ids. */
export type ImportedClient = Omit<Parameters<typeof clientRow>[0], 'version'> & {
  events: Array<Pick<ClientEvent, 'kind' | 'actorId' | 'actorEmail' | 'detail' | 'createdAt'>>;
};

/**
 * Stores a client with its timeline, in the caller's transaction; null when it is already here (the
 * same company, e-mail and RNC, as the search compares them, registered at the same time: clients have
 * no natural unique key). A timeline without its creation entry gets one, dated as registered; the
 * version is derived from the edits ({@link timelineVersion}).
 */
export async function insertImportedClient(
  trx: Db,
  { events: given, ...fields }: ImportedClient,
): Promise<number | null> {
  const events = given.some((event) => event.kind === 'created')
    ? given
    : [
        {
          kind: 'created' as const,
          actorId: null,
          actorEmail: null,
          detail: null,
          createdAt: fields.fechaRegistro,
        },
        ...given,
      ];
  const row = clientRow({ ...fields, version: timelineVersion(events) });
  const exists = await trx
    .selectFrom('clients')
    .select('id')
    .where('razonSocialNorm', '=', row.razonSocialNorm)
    .where('emailNorm', '=', row.emailNorm)
    .where('rncNorm', '=', row.rncNorm)
    .where('fechaRegistro', '=', row.fechaRegistro)
    .executeTakeFirst();
  if (exists) return null;
  const { id } = await trx.insertInto('clients').values(row).returning('id').executeTakeFirstOrThrow();
  await trx
    .insertInto('clientEvents')
    .values(events.map((event) => ({ clientId: id, ...event })))
    .execute();
  return id;
}

/** The warnings (never refusals) of the add-client and 'Editar' forms. */
export function clientWarnings(input: Pick<ClientInput, 'rnc'>): string[] {
  const warning = taxIdWarning(input.rnc);
  return warning ? [warning] : [];
}

function toView({ razonSocialNorm: _a, emailNorm: _b, rncNorm: _c, ...client }: Client): ClientRecord {
  // SQLite hands booleans back as 0/1; PostgreSQL may hand an integer back as a string.
  return {
    ...client,
    correoBienvenidaEnviado: Boolean(client.correoBienvenidaEnviado),
    version: Number(client.version),
    archivedAt: client.archivedAt ?? null,
  };
}

/** Inserts one timeline entry (`db` may be a transaction). */
async function recordClientEvent(
  db: Db,
  clientId: number,
  kind: ClientEventKind,
  actor: AuditActor | undefined,
  detail: string | null,
  now: Date,
): Promise<void> {
  await db
    .insertInto('clientEvents')
    .values({
      clientId,
      kind,
      actorId: actor?.actorId ?? null,
      actorEmail: actor?.actorEmail ?? null,
      detail,
      createdAt: now.toISOString(),
    })
    .execute();
}

/** Clients per page of the list (`/admin/clientes?pagina=N`). */
export const CLIENT_LIST_LIMIT = 50;

export interface ClientListFilter {
  search?: string | undefined;
  /** Only the clients in this project state. */
  estado?: ProjectState | undefined;
  /** The archived clients instead of the active ones. */
  archived?: boolean | undefined;
  /** At most this many (default {@link CLIENT_LIST_LIMIT}); null: all of them (the CSV export). */
  limit?: number | null | undefined;
  /** Skip this many first (the list's pages). */
  offset?: number | undefined;
}

/**
 * Newest first; `search` matches razonSocial, email or RNC (substring, case and accents ignored).
 * Active clients unless `archived`; a string is the search alone.
 */
export async function listClients(db: Db, filter: string | ClientListFilter = {}): Promise<ClientRecord[]> {
  const {
    search,
    estado,
    archived,
    limit = CLIENT_LIST_LIMIT,
    offset = 0,
  } = typeof filter === 'string' ? { search: filter } : filter;
  let query = db
    .selectFrom('clients')
    .selectAll()
    .where('archivedAt', archived ? 'is not' : 'is', null);
  if (estado) query = query.where('estadoProyecto', '=', estado);
  const term = search ? normalizeForSearch(search).slice(0, 100) : '';
  if (term) {
    const like = (column: string) => likeContains(sql.ref(column), term);
    query = query.where((eb) => eb.or([like('razonSocialNorm'), like('emailNorm'), like('rncNorm')]));
  }
  query = query.orderBy('fechaRegistro', 'desc').orderBy('id', 'desc');
  const rows = await (limit === null ? query : query.limit(limit).offset(offset)).execute();
  return rows.map(toView);
}

export async function getClient(db: Db, id: number): Promise<ClientRecord | null> {
  const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toView(row) : null;
}

/** The client a page's `{id}` names (a positive integer, as typed in the URL); null for anything else or no such client. */
export async function clientFromParam(db: Db, raw: string | undefined): Promise<ClientRecord | null> {
  return /^[1-9]\d{0,8}$/.test(raw ?? '') ? getClient(db, Number(raw)) : null;
}

export async function markWelcomeSent(
  db: Db,
  id: number,
  audit?: AuditActor,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('clients').set({ correoBienvenidaEnviado: true }).where('id', '=', id).execute();
    await recordClientEvent(trx, id, 'welcome', audit, null, now);
    if (audit) await recordEvent(trx, { ...audit, action: 'client.welcome', subject: id }, now);
  });
}

/** One edited field, as the timeline records it. */
export interface ClientFieldChange {
  field: ClientFieldName;
  from: string;
  to: string;
}

export type ClientEditOutcome =
  | { kind: 'saved'; client: ClientRecord; changes: ClientFieldChange[]; warnings: string[] }
  /** Someone saved the client since `version` was loaded: nothing was written. */
  | { kind: 'stale'; current: ClientRecord }
  | { kind: 'not-found' };

/**
 * 'Editar': saves every editable field (phone normalised and e-mail lowercased as at creation, the
 * search columns derived again by `clientEditRow`) when the client is still at `version`, bumps the
 * version, and records one timeline entry per changed field. A save that changes nothing writes nothing.
 */
export async function updateClient(
  db: Db,
  id: number,
  input: ClientInput,
  version: number,
  actor?: AuditActor,
  now: Date = new Date(),
): Promise<ClientEditOutcome> {
  const next: ClientInput = {
    ...input,
    telefono: normalizeDominicanPhone(input.telefono),
    email: input.email.toLowerCase(),
  };
  return db.transaction().execute(async (trx): Promise<ClientEditOutcome> => {
    const row = await trx.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return { kind: 'not-found' };
    const current = toView(row);
    if (current.version !== version) return { kind: 'stale', current };
    const changes = CLIENT_FIELDS.filter(({ name }) => current[name] !== next[name]).map(({ name }) => ({
      field: name,
      from: current[name],
      to: next[name],
    }));
    if (changes.length === 0)
      return { kind: 'saved', client: current, changes, warnings: clientWarnings(next) };
    const updated = await trx
      .updateTable('clients')
      .set({ ...clientEditRow(next), version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('version', '=', version)
      .returningAll()
      .executeTakeFirst();
    // Another save committed between the read and this write.
    if (!updated) return { kind: 'stale', current };
    for (const change of changes)
      await recordClientEvent(trx, id, 'edited', actor, JSON.stringify(change), now);
    if (actor)
      await recordEvent(
        trx,
        {
          ...actor,
          action: 'client.edited',
          subject: id,
          detail: changes.map((change) => change.field).join(', '),
        },
        now,
      );
    return { kind: 'saved', client: toView(updated), changes, warnings: clientWarnings(next) };
  });
}

/**
 * The version a client stands at after this timeline: 1 at creation, + 1 per save of 'Editar'
 * ({@link updateClient}), which records its changed fields at one instant.
 */
export function timelineVersion(events: ReadonlyArray<Pick<ClientEvent, 'kind' | 'createdAt'>>): number {
  return 1 + new Set(events.filter((event) => event.kind === 'edited').map((event) => event.createdAt)).size;
}

/** 'Estado del proyecto': records the change (from, to) in the timeline; null when there is no such client. */
export async function setClientState(
  db: Db,
  id: number,
  estado: ProjectState,
  actor?: AuditActor,
  now: Date = new Date(),
): Promise<ClientRecord | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    if (row.estadoProyecto === estado) return toView(row);
    const updated = await trx
      .updateTable('clients')
      .set({ estadoProyecto: estado })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordClientEvent(
      trx,
      id,
      'state',
      actor,
      JSON.stringify({ from: row.estadoProyecto, to: estado }),
      now,
    );
    if (actor)
      await recordEvent(
        trx,
        { ...actor, action: 'client.state', subject: id, detail: `${row.estadoProyecto} → ${estado}` },
        now,
      );
    return toView(updated);
  });
}

/** 'Agregar nota' (the text already checked by `clientNoteSchema`); false when there is no such client. */
export async function addClientNote(
  db: Db,
  id: number,
  text: string,
  actor?: AuditActor,
  now: Date = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('clients').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    await recordClientEvent(trx, id, 'note', actor, text, now);
    if (actor) await recordEvent(trx, { ...actor, action: 'client.note', subject: id }, now);
    return true;
  });
}

/** 'Archivar' (`archived`) and 'Restaurar': nothing is deleted; null when there is no such client. */
export async function setClientArchived(
  db: Db,
  id: number,
  archived: boolean,
  actor?: AuditActor,
  now: Date = new Date(),
): Promise<ClientRecord | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    if ((row.archivedAt !== null) === archived) return toView(row);
    const updated = await trx
      .updateTable('clients')
      .set({ archivedAt: archived ? now.toISOString() : null })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordClientEvent(trx, id, archived ? 'archived' : 'restored', actor, null, now);
    if (actor)
      await recordEvent(
        trx,
        { ...actor, action: archived ? 'client.archived' : 'client.restored', subject: id },
        now,
      );
    return toView(updated);
  });
}

/** One timeline entry as the client page shows it. */
export interface ClientTimelineEntry {
  id: number;
  /** A client event, or a meeting sent or cancelled (read from client_meetings). */
  kind: ClientEventKind | MeetingEventKind;
  actorEmail: string | null;
  /** Set by the page's view: the actor's name, or their e-mail when the account has none. */
  actorName?: string | null;
  /** ISO 8601 UTC. */
  at: string;
  /** A note's text. */
  note?: string;
  /** A creation by 'Importar CSV'. */
  imported?: boolean;
  /** An edited field, or the state change (no `field`). */
  change?: { field?: ClientFieldName; from: string; to: string };
  /** A meeting: its start (ISO 8601 UTC), duration and place. */
  meeting?: { startsAt: string; durationMinutes: number; place: string };
}

function timelineEntry(event: ClientEvent): ClientTimelineEntry {
  const entry: ClientTimelineEntry = {
    id: event.id,
    kind: event.kind,
    actorEmail: event.actorEmail,
    at: event.createdAt,
  };
  if (event.kind === 'note') entry.note = event.detail ?? '';
  if (event.kind === 'created' && event.detail === 'csv') entry.imported = true;
  if ((event.kind === 'edited' || event.kind === 'state') && event.detail) {
    try {
      entry.change = JSON.parse(event.detail) as ClientTimelineEntry['change'];
    } catch {
      // A detail that is not JSON is shown without its change.
    }
  }
  return entry;
}

export const TIMELINE_LIMIT = 1000;

/** The client's timeline, newest first: its events, and its meetings when sent and when cancelled. */
export async function clientTimeline(db: Db, id: number): Promise<ClientTimelineEntry[]> {
  const rows = await db
    .selectFrom('clientEvents')
    .selectAll()
    .where('clientId', '=', id)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(TIMELINE_LIMIT)
    .execute();
  const meetings = await db
    .selectFrom('clientMeetings')
    .selectAll()
    .where('clientId', '=', id)
    .orderBy('createdAt', 'desc')
    .limit(TIMELINE_LIMIT)
    .execute();
  const entries = rows.map(timelineEntry);
  for (const row of meetings) {
    const meeting = {
      startsAt: row.startsAt,
      durationMinutes: Number(row.durationMinutes),
      place: row.place,
    };
    entries.push({ id: row.id, kind: 'meeting', actorEmail: row.organizerEmail, at: row.createdAt, meeting });
    if (row.cancelledAt)
      entries.push({
        id: row.id,
        kind: 'meeting-cancelled',
        actorEmail: row.cancelledBy,
        at: row.cancelledAt,
        meeting,
      });
  }
  // Stable: entries at the same instant keep their order (events by id, then meetings).
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return entries.slice(0, TIMELINE_LIMIT);
}

/**
 * Support incidents opened by visitors: creation (number, first history entry and the mails in one
 * transaction) and the public follow-up lookup.
 */
import { storeAttachments } from '../attachments/index.ts';
import type { PreparedFile, RefusedFile } from '../attachments/index.ts';
import { randomInt } from 'node:crypto';
import { looksLikeEmail } from '../../domain/email.ts';
import {
  incidentNumber,
  INITIAL_STATE,
  utcDay,
  type HistoryEntry,
  type IncidentFields,
  type IncidentOrigin,
  type IncidentRecord,
} from '../../domain/incidents.ts';
import type { Transaction } from 'kysely';
import type { Database, Incident } from '../db/index.ts';
import type { Db } from '../db/index.ts';
import { incidentRow } from '../db/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { recordLiveEvent } from '../live/index.ts';
import { incidentStaffNoticeMail } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { startingClock } from './clock.ts';
import { IncidentNumbersExhaustedError } from './errors.ts';
import type { NoticeOutcome } from '../channels/index.ts';
import { noticeCustomer } from './customer-notices.ts';
import { loadHistories } from './history.ts';
import { holdNotice, noticeNow, type CustomerMailRefusal } from './notices.ts';
import { FORM_ORIGIN, MAIL_CHANNEL, type ChannelId } from '../../domain/channels.ts';

/** Random part of the number: 1000 to 9999 (spec §9), so 9,000 numbers per UTC day. */
const SUFFIX_MIN = 1000;
const SUFFIX_MAX = 9999;
/** Random draws before falling back to picking among the day's free numbers. */
const RANDOM_TRIES = 25;

/**
 * What became of the visitor's confirmation: queued, no address to send it to, a cap reached, or
 * `complained`: the address reported our mail as spam.
 */
export type CustomerMailOutcome = 'queued' | 'no-email' | 'complained' | CustomerMailRefusal;

export type CreatedIncident = Pick<IncidentRecord, 'id' | 'numeroIncidencia' | 'estado' | 'fecha'> & {
  customerMail: CustomerMailOutcome;
  /** The staff inbox's notice: queued now, or held for the next digest (a flood). */
  staffNotice: 'queued' | 'held';
};

export interface CreateIncidentOptions {
  brand: MailBrand;
  staffInbox: string;
  /** `VISITOR_MAIL_DAILY_CAP` (0: no cap). */
  customerMailDailyCap?: number;
  now?: Date;
  /** A channel's origin ('Correo', src/domain/channels.ts): a channel's message opened it (src/server/channels); default 'Formulario'. */
  origen?: IncidentOrigin;
  /** The channel the customer is reached on (default mail) and their address on it (default the e-mail). */
  channel?: ChannelId;
  channelAddress?: string;
  /** The customer's message that opened it: the confirmation answers it (a mail's `In-Reply-To`). */
  inReplyTo?: string | null;
  /** Files sent with the problem (src/server/attachments); `droppedFiles`: a mail's files not kept. */
  files?: readonly PreparedFile[];
  droppedFiles?: readonly RefusedFile[];
}

/** A notice's outcome as the desk's callers name it ('no-email': nothing to send it to). */
const customerMailOutcome = (outcome: NoticeOutcome): CustomerMailOutcome =>
  outcome === 'no-address' ? 'no-email' : outcome;

/**
 * Creates an incident: a unique number (the database's unique constraint decides; a collision is
 * retried with another random part), state 'Registrado', the server's time, one history entry and
 * the outbox rows (confirmation to the visitor when the e-mail looks valid, notice to the staff inbox),
 * all in one transaction.
 */
export async function createIncident(
  db: Db,
  fields: IncidentFields,
  options: CreateIncidentOptions,
): Promise<CreatedIncident> {
  // The staff inbox's notice (the desk's own mail) and the customer's confirmation (its channel's) wake
  // their workers at the commit.
  return db.transaction().execute((trx) => insertNewIncident(trx, fields, options));
}

/**
 * {@link createIncident} inside the caller's transaction (an incident opened by a mail is stored with
 * the inbound message in one: src/server/channels). The mail workers wake at the caller's commit.
 */
export async function insertNewIncident(
  trx: Transaction<Database>,
  fields: IncidentFields,
  options: CreateIncidentOptions,
): Promise<CreatedIncident> {
  const now = options.now ?? new Date();
  const fecha = now.toISOString();
  const day = utcDay(now);
  const origen = options.origen ?? FORM_ORIGIN;
  // The business-hours clock starts now (issue 22), stored with the row: no second write.
  const clock = await startingClock(trx, fecha, now);

  const insert = (numeroIncidencia: string) =>
    trx
      .insertInto('incidents')
      .values({
        ...incidentRow({ numeroIncidencia, ...fields, estado: INITIAL_STATE, fecha }),
        origen,
        channel: options.channel ?? MAIL_CHANNEL,
        channelAddress: options.channelAddress ?? (fields.email.trim() || null),
        ...clock,
      })
      // A taken number inserts nothing (no error, so the transaction stays usable on PostgreSQL).
      .onConflict((oc) => oc.column('numeroIncidencia').doNothing())
      // The whole row: the confirmation's channel is handed it.
      .returningAll()
      .executeTakeFirst();

  let numeroIncidencia = '';
  let row: Incident | undefined;
  for (let attempt = 0; attempt < RANDOM_TRIES && !row; attempt += 1) {
    numeroIncidencia = incidentNumber(day, randomInt(SUFFIX_MIN, SUFFIX_MAX + 1));
    row = await insert(numeroIncidencia);
  }
  // A crowded day: choose among the numbers still free instead of drawing blindly.
  while (!row) {
    const taken = new Set(
      (
        await trx
          .selectFrom('incidents')
          .select('numeroIncidencia')
          .where('numeroIncidencia', 'like', `INC-${day}-%`)
          .execute()
      ).map((item) => item.numeroIncidencia),
    );
    const free: string[] = [];
    for (let suffix = SUFFIX_MIN; suffix <= SUFFIX_MAX; suffix += 1) {
      const candidate = incidentNumber(day, suffix);
      if (!taken.has(candidate)) free.push(candidate);
    }
    if (free.length === 0) throw new IncidentNumbersExhaustedError(day);
    numeroIncidencia = free[randomInt(free.length)] as string;
    row = await insert(numeroIncidencia);
  }

  await trx
    .insertInto('incidentEvents')
    .values({ incidentId: row.id, estado: INITIAL_STATE, fecha, actor: null })
    .execute();
  if (options.files?.length || options.droppedFiles?.length)
    await storeAttachments(
      trx,
      { incidentId: row.id, entryId: null, files: options.files ?? [], dropped: options.droppedFiles ?? [] },
      now,
    );

  const mailData = { numeroIncidencia, ...fields, estado: INITIAL_STATE, fecha };
  // The e-mail field is free text (spec §5): the staff notice names it only when it looks like one.
  const customerEmail = looksLikeEmail(fields.email) ? fields.email.trim() : null;
  // The confirmation goes back by the incident's channel (src/server/channels/delivery.ts).
  const customerMail = customerMailOutcome(
    await noticeCustomer(
      trx,
      row,
      { kind: 'confirmation', inReplyTo: options.inReplyTo ?? null },
      { brand: options.brand, customerMailDailyCap: options.customerMailDailyCap, now },
    ),
  );
  const staffNotice: CreatedIncident['staffNotice'] = (await noticeNow(trx, now)) ? 'queued' : 'held';
  if (staffNotice === 'queued') {
    await enqueueMail(
      trx,
      {
        kind: 'incident.staff-notice',
        ...incidentStaffNoticeMail(options.brand, options.staffInbox, mailData, customerEmail),
      },
      now,
    );
  } else {
    await holdNotice(trx, row.id);
  }
  await recordLiveEvent(trx, { kind: 'incident.created', incidentId: row.id, numero: numeroIncidencia }, now);
  return { id: row.id, numeroIncidencia, estado: INITIAL_STATE, fecha, customerMail, staffNotice };
}

/**
 * What a look-up by number and e-mail shows: the state and its history, without who made each change,
 * and without the problem text, which only the token in the visitor's mail opens (follow-up.ts).
 */
export type TrackedIncident = Pick<IncidentRecord, 'numeroIncidencia' | 'estado' | 'fecha'> & {
  historial: Array<Pick<HistoryEntry, 'estado' | 'fecha'>>;
};

export async function trackIncident(
  db: Db,
  numeroIncidencia: string,
  email: string,
): Promise<TrackedIncident | null> {
  const wanted = email.trim().toLowerCase();
  if (!wanted) return null;
  const incident = await db
    .selectFrom('incidents')
    .select(['id', 'numeroIncidencia', 'estado', 'fecha', 'email'])
    .where('numeroIncidencia', '=', numeroIncidencia.trim().toUpperCase())
    .executeTakeFirst();
  if (!incident || incident.email.trim().toLowerCase() !== wanted) return null;
  const histories = await loadHistories(db, [incident.id]);
  // The visitor sees when and what, not which staff member made the change.
  const historial = (histories.get(incident.id) ?? []).map(({ estado, fecha }) => ({ estado, fecha }));
  return {
    numeroIncidencia: incident.numeroIncidencia,
    estado: incident.estado,
    fecha: incident.fecha,
    historial,
  };
}

export { IncidentNotFoundError, IncidentNumbersExhaustedError } from './errors.ts';

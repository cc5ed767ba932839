/**
 * The clients of `npm run data` (issue 40: each area moves its own rows): each client with its
 * timeline (staff by e-mail) and the meetings sent to it (their organiser by e-mail, the UID and
 * SEQUENCE their invitations share). Imported by the client form's rules (a `projectState` outside the
 * four is 'pendiente'); the client stored by records.ts' writer, its meetings by the meetings module's.
 */
import {
  CLIENT_EVENT_KINDS,
  clientInputSchema,
  isProjectState,
  type ClientEventKind,
  type ClientRecord,
} from '../../domain/forms/client.ts';
import { MEETING_MAX_MINUTES, MEETING_NOTE_MAX, MEETING_PLACE_MAX } from '../../domain/forms/meeting.ts';
import {
  email,
  nested,
  optionalText,
  RecordRefused,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Outcome,
  type StaffEmails,
  type StaffIds,
} from '../data-records.ts';
import type { ClientMeeting, Db } from '../db/index.ts';
import { insertImportedMeetings, toView as meetingView } from '../meetings/index.ts';
import { insertImportedClient } from './records.ts';

/** One entry of a client's timeline; `detail` as stored (a note's text, or JSON `{ field?, from, to }`). */
export interface ExportedClientEvent {
  kind: ClientEventKind;
  actorEmail: string | null;
  detail: string | null;
  createdAt: string;
}

/** A meeting sent to a client, its organiser by e-mail; the UID and SEQUENCE its invitations share. */
export type ExportedClientMeeting = Pick<
  ClientMeeting,
  | 'organizerEmail'
  | 'organizerName'
  | 'startsAt'
  | 'endsAt'
  | 'durationMinutes'
  | 'place'
  | 'note'
  | 'uid'
  | 'sequence'
  | 'createdAt'
  | 'cancelledAt'
  | 'cancelledBy'
>;

/** `version` is not carried: the import derives it from the timeline's edits, as 'Editar' counts them. */
export type ExportedClient = Omit<ClientRecord, 'id' | 'version'> & {
  events: ExportedClientEvent[];
  meetings: ExportedClientMeeting[];
};

/** Every client, by registration, with its timeline and meetings. */
export async function exportClients(db: Db, staff: StaffEmails): Promise<ExportedClient[]> {
  const clients = await db.selectFrom('clients').selectAll().orderBy('fechaRegistro').orderBy('id').execute();
  const clientEvents = Map.groupBy(
    await db.selectFrom('clientEvents').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.clientId,
  );
  const meetings = Map.groupBy(
    await db.selectFrom('clientMeetings').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.clientId,
  );
  return clients.map((row) => ({
    razonSocial: row.razonSocial,
    nombreRepresentante: row.nombreRepresentante,
    telefono: row.telefono,
    email: row.email,
    rnc: row.rnc,
    tipoProyecto: row.tipoProyecto,
    estadoProyecto: row.estadoProyecto,
    fechaRegistro: row.fechaRegistro,
    correoBienvenidaEnviado: Boolean(row.correoBienvenidaEnviado),
    archivedAt: row.archivedAt ?? null,
    events: (clientEvents.get(row.id) ?? []).map((event) => ({
      kind: event.kind,
      actorEmail: staff.emailOf(event.actorId, event.actorEmail),
      detail: event.detail,
      createdAt: event.createdAt,
    })),
    meetings: (meetings.get(row.id) ?? []).map((meeting) => {
      const { id: _id, clientId: _clientId, ...exported } = meetingView(meeting);
      return exported;
    }),
  }));
}

/** A project state as stored: one of the four, any other value (or none) as 'pendiente'. */
function projectState(value: string) {
  const folded = value.trim().toLowerCase();
  return isProjectState(folded) ? folded : 'pendiente';
}

/** One client of the file (ours, or the original site's `clientes`), in the caller's transaction. */
export async function importClient(
  trx: Db,
  record: Record<string, unknown>,
  staff: StaffIds,
): Promise<Outcome> {
  const razonSocial = text(record.razonSocial, 200).trim();
  const fechaRegistro = toIsoTime(record.fechaRegistro);
  if (!razonSocial) throw new RecordRefused('falta la razón social.');
  if (!fechaRegistro) throw new RecordRefused('la fecha de registro falta o no es una fecha.');
  const clientEmail = email(record.email, clientInputSchema.shape.email, 'el correo');
  const events = nested(record.events, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const kind = CLIENT_EVENT_KINDS.find((known) => known === item.kind);
    if (!createdAt || !kind) return null;
    const actorEmail = email(item.actorEmail, STAFF_EMAIL, 'el correo de quien actuó en la ficha', true);
    return {
      kind,
      actorId: staff(actorEmail),
      actorEmail,
      detail: typeof item.detail === 'string' ? text(item.detail) : null,
      createdAt,
    };
  });
  const meetings = nested(record.meetings, (item) => {
    const startsAt = toIsoTime(item.startsAt);
    const createdAt = toIsoTime(item.createdAt);
    const durationMinutes = Number(item.durationMinutes);
    const uid = optionalText(item.uid, 300);
    if (
      !startsAt ||
      !createdAt ||
      !uid ||
      !Number.isInteger(durationMinutes) ||
      durationMinutes < 1 ||
      durationMinutes > MEETING_MAX_MINUTES
    )
      return null;
    const organizerEmail = email(item.organizerEmail, STAFF_EMAIL, 'el correo de quien organiza una reunión');
    const sequence = Number(item.sequence);
    const cancelledAt = toIsoTime(item.cancelledAt);
    return {
      // organizer_id cannot be null: '' names no account.
      organizerId: staff(organizerEmail) ?? '',
      organizerEmail,
      organizerName: text(item.organizerName, 200),
      startsAt,
      endsAt: toIsoTime(item.endsAt),
      durationMinutes,
      place: text(item.place, MEETING_PLACE_MAX),
      note: text(item.note, MEETING_NOTE_MAX),
      uid,
      sequence: Number.isInteger(sequence) && sequence >= 0 ? sequence : 0,
      createdAt,
      cancelledAt,
      cancelledBy: cancelledAt
        ? email(item.cancelledBy, STAFF_EMAIL, 'el correo de quien canceló una reunión', true)
        : null,
    };
  });
  const id = await insertImportedClient(trx, {
    razonSocial,
    nombreRepresentante: text(record.nombreRepresentante, 200),
    telefono: text(record.telefono, 200),
    email: clientEmail,
    rnc: text(record.rnc, 200).trim(),
    tipoProyecto: text(record.tipoProyecto, 200),
    estadoProyecto: projectState(text(record.estadoProyecto, 200)),
    fechaRegistro,
    correoBienvenidaEnviado: record.correoBienvenidaEnviado === true,
    archivedAt: toIsoTime(record.archivedAt),
    events,
  });
  if (id === null) return 'skipped';
  await insertImportedMeetings(trx, id, meetings);
  return 'imported';
}

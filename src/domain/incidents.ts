/**
 * Incidents as every part of the site speaks of them: the states, the number format and the record
 * the staff area, the mails and the export share. Plain TypeScript with no server import, so that
 * islands and scripts can use it too. Adding a state is one edit here (the list, its tone and its
 * meaning; the compiler asks for the last two) plus a migration, if stored rows need it.
 */
import * as z from 'zod/mini';
import type { AttachmentView } from './attachments.ts';
import { INCIDENT_ORIGINS, type ChannelId, type NoticeDelivery } from './channels.ts';
import { formatNumber } from './numbers.ts';

/**
 * The states in the order the staff choose them; the first is where every incident starts. Any state
 * may follow any other (spec §4), with two moves of their own: the customer's answer sets 'Resuelto'
 * and 'Esperando al cliente' back to 'En Proceso' (src/server/incidents/conversation.ts). 'Esperando al
 * cliente' (issue 22) stops the business-hours clock (src/server/incidents/clock.ts).
 */
export const INCIDENT_STATES = ['Registrado', 'En Proceso', 'Esperando al cliente', 'Resuelto'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

export const INITIAL_STATE: IncidentState = INCIDENT_STATES[0];

/** How far along a state is, for its colour (the staff panels and the public follow-up map tones to styles). */
export type IncidentTone = 'new' | 'active' | 'waiting' | 'done';
export const INCIDENT_STATE_TONE: Record<IncidentState, IncidentTone> = {
  Registrado: 'new',
  'En Proceso': 'active',
  'Esperando al cliente': 'waiting',
  Resuelto: 'done',
};

/** The state in which the clock stops until the customer answers (issue 22). */
export const WAITING_STATE: IncidentState = 'Esperando al cliente';

export function isIncidentState(value: unknown): value is IncidentState {
  return typeof value === 'string' && (INCIDENT_STATES as readonly string[]).includes(value);
}

/** A count per state, every state present (zero when none). */
export function countsPerState(
  rows: Iterable<{ estado: string; total: number | string | bigint }>,
): Record<IncidentState, number> {
  const counts = Object.fromEntries(INCIDENT_STATES.map((state) => [state, 0])) as Record<
    IncidentState,
    number
  >;
  for (const row of rows) if (isIncidentState(row.estado)) counts[row.estado] = Number(row.total);
  return counts;
}

/** 'Prioridad' (issue 22), lowest first; every incident starts (and an older export imports) as 'Normal'. */
export const INCIDENT_PRIORITIES = ['Baja', 'Normal', 'Alta', 'Urgente'] as const;
export type IncidentPriority = (typeof INCIDENT_PRIORITIES)[number];
export const DEFAULT_PRIORITY: IncidentPriority = 'Normal';

/** What the staff are told when a priority is none of the four (a forged form, an old page). */
export const PRIORITY_MESSAGE = 'Elige una prioridad de la lista: Baja, Normal, Alta o Urgente.';

/** The staff's choice of a priority, with the Spanish message of anything else. */
export const incidentPrioritySchema = z.enum(INCIDENT_PRIORITIES, { error: PRIORITY_MESSAGE });

export function isIncidentPriority(value: unknown): value is IncidentPriority {
  return incidentPrioritySchema.safeParse(value).success;
}

/** Where an incident came from: the support form, or a channel's message (src/domain/channels.ts). */
export { INCIDENT_ORIGINS };
export type IncidentOrigin = (typeof INCIDENT_ORIGINS)[number];

export function isIncidentOrigin(value: unknown): value is IncidentOrigin {
  return typeof value === 'string' && (INCIDENT_ORIGINS as readonly string[]).includes(value);
}

/** `INC-yyyymmdd-nnnn`: the UTC day and a random part of 1000 to 9999 (spec §9). */
export const INCIDENT_NUMBER_PATTERN = /^INC-\d{8}-\d{4}$/;

/** `yyyymmdd` of the UTC day. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10).replace(/-/g, '');
}

export function incidentNumber(day: string, suffix: number): string {
  return `INC-${day}-${suffix}`;
}

/** One entry of an incident's history: the state it was given, when (ISO UTC) and by whom. */
export interface HistoryEntry {
  estado: IncidentState;
  fecha: string;
  /** E-mail of the staff member who made the change; null for the creation entry. */
  actor: string | null;
}

/** An incident with its history, as the staff list, the mails and the export see it. */
export interface IncidentRecord {
  id: number;
  numeroIncidencia: string;
  problema: string;
  nombre: string;
  telefono: string;
  email: string;
  rnc: string;
  estado: IncidentState;
  /** When it was opened, ISO 8601 UTC. */
  fecha: string;
  historial: HistoryEntry[];
}

/** What a visitor types into the support form. */
export type IncidentFields = Pick<IncidentRecord, 'problema' | 'nombre' | 'telefono' | 'email' | 'rnc'>;

/** Longest reply, note or answer (issue 11): plain text, lines kept. */
export const ENTRY_MAX_LENGTH = 5000;

/** The Spanish message for a reply, note or answer that cannot be stored, or null when it can. */
export function entryTextProblem(text: string): string | null {
  if (text.trim() === '') return 'Escribe el texto antes de enviarlo.';
  if (text.length > ENTRY_MAX_LENGTH)
    return `El texto admite hasta ${formatNumber(ENTRY_MAX_LENGTH)} caracteres; tiene ${formatNumber(text.length)}.`;
  return null;
}

/** One entry of an incident's timeline as the staff page shows it, oldest first. */
export type TimelineEntry =
  | {
      kind: 'problem';
      fecha: string;
      texto: string;
      autor: string;
      adjuntos?: AttachmentView[];
      /** The channel whose message opened it ('por correo', src/domain/channels.ts). */
      via?: ChannelId;
      /** The stored mail that opened it, for 'Ver original'. */
      original?: number;
      /** Its sender was not the first mailbox of From but a later one, or Reply-To's: 'Remitente incierto'. */
      remitenteIncierto?: boolean;
    }
  | { kind: 'state'; fecha: string; estado: IncidentState; autor: string | null }
  | {
      kind: 'reply' | 'answer' | 'note';
      fecha: string;
      texto: string;
      autor: string | null;
      /** The channel a customer's answer came by ('por correo', src/domain/channels.ts). */
      via?: ChannelId;
      /** Matched only by the number in the subject and the From header: 'Remitente sin verificar'. */
      sinVerificar?: boolean;
      /** An unverified answer not accepted yet: its entry's id, for 'Aceptar como del cliente' (issue 38). */
      porAceptar?: number;
      /** An unverified answer a staff member accepted as the customer's: who (e-mail) and when. */
      aceptada?: { autor: string; fecha: string };
      /** The stored mail it came from, for 'Ver original'. */
      original?: number;
      /** Its files (issue 21, "Attachments"). */
      adjuntos?: AttachmentView[];
      /** A reply a channel sends itself (WhatsApp): its delivery, attempt by attempt (issue 37). */
      entrega?: NoticeDelivery;
    }
  | { kind: 'assignment'; fecha: string; autor: string; asignado: string | null }
  /** 'Prioridad: Normal → Alta' (issue 22). */
  | { kind: 'priority'; fecha: string; autor: string; desde: IncidentPriority; hasta: IncidentPriority }
  /** A staff member accepted an unverified answer (of `respuesta`, its time) as the customer's (issue 38). */
  | { kind: 'accepted'; fecha: string; autor: string; respuesta: string }
  /** A mail to the customer bounced: 'El correo al cliente rebotó'. */
  | { kind: 'bounce'; fecha: string; autor: null }
  /** What other reports said of a mail to the customer (issue 41): delayed, read (a read receipt), reported as spam. */
  | { kind: 'delay'; fecha: string; autor: null }
  | { kind: 'read'; fecha: string; autor: null }
  | { kind: 'complaint'; fecha: string; autor: null }
  /** The customer rated a resolution (issue 22): 1 to 5 and a comment ('' without one). */
  | { kind: 'rating'; fecha: string; autor: null; valor: number; texto: string };

/**
 * The `actor` of the history entry written when the visitor's answer sets a resolved incident back to
 * 'En Proceso' (src/server/incidents/conversation.ts): shown where a staff member's e-mail would be.
 */
export const REOPENED_BY_CUSTOMER = 'reabierta por el cliente';

/**
 * The `actor` of the history entry written when the customer's answer sets an incident 'Esperando al
 * cliente' back to 'En Proceso' (issue 22): the clock runs again.
 */
export const ANSWERED_BY_CUSTOMER = 'respondió el cliente';

/**
 * The 'Reunión' form of the staff area (issue 12): date, start time in Santo Domingo, duration, place
 * or video-call link, and a note. The field rules are a `zod/mini` schema like the other forms; whether
 * the start is already past depends on the clock, so {@link checkMeetingForm} adds that check.
 */
import { TZDate } from '@date-fns/tz';
import * as z from 'zod/mini';
import { TIME_ZONE } from '../dates.ts';
import { firstMessagePerField } from './common.ts';
import { formatNumber } from '../numbers.ts';

/** Longest meeting: 8 hours. */
export const MEETING_MAX_MINUTES = 8 * 60;
export const MEETING_PLACE_MAX = 500;
export const MEETING_NOTE_MAX = 2000;

export const MEETING_MESSAGES = {
  dateRequired: 'Indica la fecha de la reunión.',
  dateInvalid: 'Fecha no válida. Usa el formato aaaa-mm-dd.',
  datePast: 'La fecha ya pasó. Elige hoy o una fecha futura.',
  timeRequired: 'Indica la hora de inicio.',
  timeInvalid: 'Hora no válida. Usa el formato hh:mm (24 horas).',
  timePast: 'Esa hora de hoy ya pasó. Elige una hora futura.',
  durationRequired: 'Indica la duración en minutos.',
  durationInvalid: 'Escribe la duración en minutos, con un número entero.',
  durationZero: 'La duración debe ser de al menos 1 minuto.',
  durationTooLong: `La duración máxima es de 8 horas (${MEETING_MAX_MINUTES} minutos).`,
  placeRequired: 'Indica el lugar o el enlace de la videollamada.',
  placeTooLong: `Máximo ${MEETING_PLACE_MAX} caracteres.`,
  linkNotHttps: 'El enlace de la videollamada debe empezar por https://.',
  linkInvalid: 'El enlace no es una dirección web válida.',
  noteTooLong: `La nota admite como máximo ${formatNumber(MEETING_NOTE_MAX)} caracteres.`,
} as const;

/**
 * A place that looks like a link: a scheme (`http://`, `zoom://`…), `www.`, or a single word with a
 * domain (`meet.google.com/abc`). An address written in words ("Av. Winston Churchill 1099") is a place.
 */
export function looksLikeLink(place: string): boolean {
  const value = place.trim();
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ||
    /^www\./i.test(value) ||
    /^[^\s/@]+\.[a-z]{2,}(?:[/?#:]\S*)?$/i.test(value)
  );
}

/** An https:// link the place is, or null when the place is written in words. */
export function meetingLink(place: string): string | null {
  const value = place.trim();
  if (!/^https:\/\//i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

const trimmed = (required: string) => z.string({ error: required }).check(z.trim(), z.minLength(1, required));

export const meetingInputSchema = /* @__PURE__ */ z.object({
  fecha: /* @__PURE__ */ trimmed(MEETING_MESSAGES.dateRequired).check(
    /* @__PURE__ */ z.refine((value) => isCalendarDate(value), MEETING_MESSAGES.dateInvalid),
  ),
  hora: /* @__PURE__ */ trimmed(MEETING_MESSAGES.timeRequired).check(
    /* @__PURE__ */ z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, MEETING_MESSAGES.timeInvalid),
  ),
  duracion: /* @__PURE__ */ z.pipe(
    /* @__PURE__ */ trimmed(MEETING_MESSAGES.durationRequired).check(
      /* @__PURE__ */ z.regex(/^\d{1,5}$/, MEETING_MESSAGES.durationInvalid),
    ),
    /* @__PURE__ */ z.pipe(
      /* @__PURE__ */ z.transform((value: string) => Number(value)),
      /* @__PURE__ */ z
        .number()
        .check(
          /* @__PURE__ */ z.minimum(1, MEETING_MESSAGES.durationZero),
          /* @__PURE__ */ z.maximum(MEETING_MAX_MINUTES, MEETING_MESSAGES.durationTooLong),
        ),
    ),
  ),
  lugar: /* @__PURE__ */ trimmed(MEETING_MESSAGES.placeRequired).check(
    /* @__PURE__ */ z.maxLength(MEETING_PLACE_MAX, MEETING_MESSAGES.placeTooLong),
    /* @__PURE__ */ z.refine(
      (value) => !looksLikeLink(value) || /^https:\/\//i.test(value),
      MEETING_MESSAGES.linkNotHttps,
    ),
    /* @__PURE__ */ z.refine(
      (value) => !/^https:\/\//i.test(value) || meetingLink(value) !== null,
      MEETING_MESSAGES.linkInvalid,
    ),
  ),
  nota: /* @__PURE__ */ z.pipe(
    /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
    /* @__PURE__ */ z.pipe(
      /* @__PURE__ */ z.transform((value: string | null | undefined) => (value ?? '').trim()),
      /* @__PURE__ */ z
        .string()
        .check(/* @__PURE__ */ z.maxLength(MEETING_NOTE_MAX, MEETING_MESSAGES.noteTooLong)),
    ),
  ),
});

export type MeetingFieldName = 'fecha' | 'hora' | 'duracion' | 'lugar' | 'nota';
export const MEETING_FIELD_NAMES: readonly MeetingFieldName[] = [
  'fecha',
  'hora',
  'duracion',
  'lugar',
  'nota',
];

/** A meeting as the form describes it, checked: the start as a UTC instant. */
export interface MeetingInput {
  /** ISO 8601 UTC. */
  startsAt: string;
  durationMinutes: number;
  place: string;
  note: string;
}

export type MeetingFormCheck =
  { ok: true; meeting: MeetingInput } | { ok: false; errors: Partial<Record<MeetingFieldName, string>> };

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** The instant of a wall-clock date and time in Santo Domingo (`2026-12-01`, `10:30`). */
export function santoDomingoInstant(fecha: string, hora: string): Date {
  const [year, month, day] = fecha.split('-').map(Number) as [number, number, number];
  const [hour, minute] = hora.split(':').map(Number) as [number, number];
  return new Date(new TZDate(year, month - 1, day, hour, minute, TIME_ZONE).getTime());
}

/** Today's date in Santo Domingo, `aaaa-mm-dd` (the form's earliest date). */
export function santoDomingoToday(now: Date = new Date()): string {
  const local = new TZDate(now.getTime(), TIME_ZONE);
  return `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
}

/**
 * Checks the posted form: a Spanish message per field, or the meeting. A start in the past is
 * refused on the date (an earlier day) or on the time (earlier today).
 */
export function checkMeetingForm(
  posted: Partial<Record<MeetingFieldName, unknown>>,
  now: Date = new Date(),
): MeetingFormCheck {
  const parsed = meetingInputSchema.safeParse(posted);
  const errors: Partial<Record<MeetingFieldName, string>> = parsed.success
    ? {}
    : firstMessagePerField<MeetingFieldName>(parsed.error.issues);
  const fecha = typeof posted.fecha === 'string' ? posted.fecha.trim() : '';
  const hora = typeof posted.hora === 'string' ? posted.hora.trim() : '';
  if (!errors.fecha && fecha) {
    if (fecha < santoDomingoToday(now)) errors.fecha = MEETING_MESSAGES.datePast;
    else if (!errors.hora && hora && santoDomingoInstant(fecha, hora).getTime() <= now.getTime())
      errors.hora = MEETING_MESSAGES.timePast;
  }
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const { data } = parsed;
  return {
    ok: true,
    meeting: {
      startsAt: santoDomingoInstant(data.fecha, data.hora).toISOString(),
      durationMinutes: data.duracion,
      place: data.lugar,
      note: data.nota,
    },
  };
}

/** What a client's timeline shows of its meetings (read from the meetings, not from client_events). */
export const MEETING_EVENT_KINDS = ['meeting', 'meeting-cancelled'] as const;
export type MeetingEventKind = (typeof MEETING_EVENT_KINDS)[number];

/** '1 hora 30 minutos', '45 minutos', '2 horas'. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [];
  if (hours) parts.push(`${hours} ${hours === 1 ? 'hora' : 'horas'}`);
  if (rest || !hours) parts.push(`${rest} ${rest === 1 ? 'minuto' : 'minutos'}`);
  return parts.join(' ');
}

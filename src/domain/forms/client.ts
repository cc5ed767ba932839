/**
 * The add-client form of the staff area (spec §5): its fields with their labels, and the rules the
 * server checks again. The staff island renders the fields from here and the page reads the posted
 * values back by the same names. Written with `zod/mini`, like the public forms, so the island stays small.
 */
import * as z from 'zod/mini';
import { formatNumber } from '../numbers.ts';

const REQUIRED = 'Este campo es obligatorio.';

// A form sends an empty field as nothing at all (Astro reads it as null): the same Spanish message.
const required = (max: number) =>
  z
    .string({ error: REQUIRED })
    .check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(max, `Máximo ${formatNumber(max)} caracteres.`));

/**
 * The six required fields, checked again on the server, with a Spanish message per field: the island
 * shows them beside each field, and so does the page when the form was posted without JavaScript.
 * Every call is marked pure: the island needs only the field list below, and so carries no zod.
 */
export const clientInputSchema = /* @__PURE__ */ z.object({
  razonSocial: /* @__PURE__ */ required(200),
  nombreRepresentante: /* @__PURE__ */ required(150),
  telefono: /* @__PURE__ */ required(40),
  email: /* @__PURE__ */ z.pipe(
    /* @__PURE__ */ required(254),
    /* @__PURE__ */ z.email('Correo electrónico no válido.'),
  ),
  rnc: /* @__PURE__ */ required(40),
  tipoProyecto: /* @__PURE__ */ required(120),
});
export type ClientInput = z.output<typeof clientInputSchema>;

export type ClientFieldName = keyof ClientInput;

/** The form's fields in the order shown, with their Spanish labels and input hints. */
export const CLIENT_FIELDS: ReadonlyArray<{
  name: ClientFieldName;
  label: string;
  type: 'text' | 'tel' | 'email';
  autoComplete: string;
}> = [
  { name: 'razonSocial', label: 'Razón social', type: 'text', autoComplete: 'organization' },
  { name: 'nombreRepresentante', label: 'Nombre del representante', type: 'text', autoComplete: 'name' },
  { name: 'telefono', label: 'Teléfono', type: 'tel', autoComplete: 'tel' },
  { name: 'email', label: 'Correo electrónico', type: 'email', autoComplete: 'email' },
  { name: 'rnc', label: 'RNC o cédula', type: 'text', autoComplete: 'off' },
  { name: 'tipoProyecto', label: 'Tipo de proyecto', type: 'text', autoComplete: 'off' },
];

/** 'Estado del proyecto', in the order offered. */
export const PROJECT_STATES = ['pendiente', 'en curso', 'completado', 'pausado'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

/**
 * How a project state is shown (issue 25 §14): capitalised like the incident states. The stored value
 * (and the CSV's) stays the spec's lower-case word.
 */
export const PROJECT_STATE_LABELS: Record<ProjectState, string> = {
  pendiente: 'Pendiente',
  'en curso': 'En curso',
  completado: 'Completado',
  pausado: 'Pausado',
};

/** The label of a state; a value from elsewhere (an old timeline entry) with its first letter capitalised. */
export function projectStateLabel(state: string): string {
  return isProjectState(state) ? PROJECT_STATE_LABELS[state] : state.charAt(0).toUpperCase() + state.slice(1);
}

export function isProjectState(value: unknown): value is ProjectState {
  return typeof value === 'string' && (PROJECT_STATES as readonly string[]).includes(value);
}

/** What a client's timeline records. */
export const CLIENT_EVENT_KINDS = [
  'created',
  'edited',
  'state',
  'welcome',
  'note',
  'archived',
  'restored',
] as const;
export type ClientEventKind = (typeof CLIENT_EVENT_KINDS)[number];

export const NOTE_MAX = 5000;

/** 'Agregar nota': 1 to 5000 characters (blank lines around it trimmed, the lines inside kept). */
export const clientNoteSchema = /* @__PURE__ */ z.object({
  nota: /* @__PURE__ */ z
    .string({ error: 'Escribe la nota.' })
    .check(
      /* @__PURE__ */ z.trim(),
      /* @__PURE__ */ z.minLength(1, 'Escribe la nota.'),
      /* @__PURE__ */ z.maxLength(
        NOTE_MAX,
        `La nota admite como máximo ${formatNumber(NOTE_MAX)} caracteres.`,
      ),
    ),
});

/** What the second of two concurrent edits is told. */
export const STALE_EDIT_MESSAGE =
  'Otro miembro del personal guardó cambios en este cliente. Recarga la página para ver la versión actual.';

/** A client as the staff area shows it (the record without its search columns). */
export interface ClientRecord extends ClientInput {
  id: number;
  estadoProyecto: ProjectState;
  /** Bumped by each edit; the 'Editar' form carries the one it was loaded with. */
  version: number;
  /** ISO 8601 UTC, or null while the client is active. */
  archivedAt: string | null;
  /** ISO 8601 UTC. */
  fechaRegistro: string;
  correoBienvenidaEnviado: boolean;
}

/**
 * 'Respuestas guardadas' (issue 22): the rules of a saved reply and its variables, free of server code.
 * A title is one line of at most {@link SAVED_REPLY_TITLE_MAX} characters; a text at most
 * {@link SAVED_REPLY_BODY_MAX} (the reply box's own limit). A text may use the variables of
 * {@link SAVED_REPLY_VARIABLES}, written in braces; any other `{word}` is refused on save, named.
 */
import { formatNumber } from './numbers.ts';

export const SAVED_REPLY_TITLE_MAX = 120;
export const SAVED_REPLY_BODY_MAX = 5000;
/** The limit as the reply box's help writes it ('5.000'). */
export const SAVED_REPLY_BODY_MAX_TEXT = formatNumber(SAVED_REPLY_BODY_MAX);

/** Each variable and what it is filled with, as Configuración explains it. */
export const SAVED_REPLY_VARIABLES = {
  nombre: 'el nombre del cliente',
  numero: 'el número de la incidencia',
  estado: 'su estado',
  enlace_seguimiento: 'el enlace de seguimiento del cliente',
  mi_nombre: 'tu nombre',
} as const;

export type SavedReplyVariable = keyof typeof SAVED_REPLY_VARIABLES;
export type SavedReplyValues = Record<SavedReplyVariable, string>;

/** `{word}`: a variable, known or not (letters, digits, `_`; no spaces, so `{ }` or JSON-ish text is left alone). */
const VARIABLE = /\{([\p{L}\p{N}_]+)\}/gu;

const isVariable = (name: string): name is SavedReplyVariable => Object.hasOwn(SAVED_REPLY_VARIABLES, name);

const KNOWN_LIST = Object.keys(SAVED_REPLY_VARIABLES)
  .map((name) => `{${name}}`)
  .join(', ');

export const SAVED_REPLY_MESSAGES = {
  titleEmpty: 'Escribe un título.',
  titleLong: `El título admite hasta ${SAVED_REPLY_TITLE_MAX} caracteres.`,
  titleControl: 'El título debe ser una sola línea.',
  titleTaken: 'Ya hay una respuesta guardada con ese título.',
  bodyEmpty: 'Escribe el texto de la respuesta.',
  bodyLong: `El texto admite hasta ${SAVED_REPLY_BODY_MAX_TEXT} caracteres.`,
  unknown: (names: string[]) =>
    `${names.length === 1 ? 'La variable' : 'Las variables'} ${names.map((name) => `{${name}}`).join(', ')} no ${names.length === 1 ? 'existe' : 'existen'}. Puedes usar ${KNOWN_LIST}.`,
  notFound: 'Esa respuesta guardada ya no existe.',
  failed: 'No se pudo guardar la respuesta. Inténtalo de nuevo.',
} as const;

export interface SavedReplyInput {
  title: string;
  body: string;
}

export type SavedReplyErrors = Partial<Record<'titulo' | 'texto', string>>;

/** The title and text as stored: the title trimmed with its spaces folded, the text with `\n` line ends and trimmed. */
export function normalSavedReply(input: SavedReplyInput): SavedReplyInput {
  return {
    title: input.title.trim().replace(/\s+/g, ' '),
    body: input.body.replace(/\r\n?/g, '\n').trim(),
  };
}

/** The variables a text uses that do not exist, each once, in order. */
export function unknownVariables(body: string): string[] {
  const names = [...body.matchAll(VARIABLE)].map((match) => match[1]!).filter((name) => !isVariable(name));
  return [...new Set(names)];
}

/** Why a saved reply cannot be stored, by field (`titulo`, `texto`); empty when it can. */
export function savedReplyProblems(input: SavedReplyInput): SavedReplyErrors {
  const errors: SavedReplyErrors = {};
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(input.title.trim())) errors.titulo = SAVED_REPLY_MESSAGES.titleControl;
  const { title, body } = normalSavedReply(input);
  if (!errors.titulo) {
    if (title === '') errors.titulo = SAVED_REPLY_MESSAGES.titleEmpty;
    else if ([...title].length > SAVED_REPLY_TITLE_MAX) errors.titulo = SAVED_REPLY_MESSAGES.titleLong;
  }
  const unknown = unknownVariables(body);
  if (body === '') errors.texto = SAVED_REPLY_MESSAGES.bodyEmpty;
  else if ([...body].length > SAVED_REPLY_BODY_MAX) errors.texto = SAVED_REPLY_MESSAGES.bodyLong;
  else if (unknown.length) errors.texto = SAVED_REPLY_MESSAGES.unknown(unknown);
  return errors;
}

/** Whether a text uses a variable (the follow-up link is only issued when it does). */
export const usesVariable = (body: string, name: SavedReplyVariable) => body.includes(`{${name}}`);

/** The text with each known variable filled; anything else in braces is left as written. */
export function fillSavedReply(body: string, values: SavedReplyValues): string {
  return body.replace(VARIABLE, (whole, name: string) => (isVariable(name) ? values[name] : whole));
}

/** The reply box's text after inserting `inserted`: appended after what was typed, a blank line between. */
export function appendToReply(typed: string, inserted: string): string {
  const before = typed.replace(/\s+$/, '');
  return before ? `${before}\n\n${inserted}` : inserted;
}

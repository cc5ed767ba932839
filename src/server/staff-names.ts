/**
 * Staff accounts' names (issue 25 §12): 'Nombre' in Configuración and `npm run admin -- create --name`.
 * A name is how staff are shown to each other (the greeting, the timelines, 'Asignar a', the activity
 * log) and to customers (the meeting invitation's organiser); an account without one is shown by its
 * e-mail. Records keep the e-mail they were written with, and are named at display time: a name
 * changed later shows everywhere at once.
 */
import type { Db } from './db/index.ts';

export const STAFF_NAME_MAX = 80;

export const STAFF_NAME_MESSAGES = {
  empty: 'Escribe tu nombre.',
  long: `El nombre admite hasta ${STAFF_NAME_MAX} caracteres.`,
  control: 'El nombre no puede tener saltos de línea ni caracteres de control.',
} as const;

/** The name as stored: trimmed, inner runs of spaces made one. */
export const normalStaffName = (name: string) => name.trim().replace(/\s+/g, ' ');

/** Why a name cannot be saved, or null. Checked before normalising, so a line break is refused, not folded. */
export function staffNameProblem(name: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name.trim())) return STAFF_NAME_MESSAGES.control;
  const normal = normalStaffName(name);
  if (normal === '') return STAFF_NAME_MESSAGES.empty;
  if ([...normal].length > STAFF_NAME_MAX) return STAFF_NAME_MESSAGES.long;
  return null;
}

/** How an account is shown: its name, or its e-mail when it has none. */
export const staffDisplayName = (account: { name?: string | null; email: string }) =>
  account.name?.trim() || account.email;

/** Every account's name by its lower-cased e-mail (accounts without a name are left out). */
export async function staffNames(db: Db): Promise<Map<string, string>> {
  const rows = await db.withoutPlugins().selectFrom('user').select(['email', 'name']).execute();
  return new Map(
    rows.filter((row) => row.name?.trim()).map((row) => [row.email.trim().toLowerCase(), row.name.trim()]),
  );
}

/** The name of whoever a record names by e-mail; the e-mail itself when no account has a name for it. */
export function nameByEmail<T extends string | null>(names: Map<string, string>, email: T): T | string {
  return email === null ? email : (names.get(email.trim().toLowerCase()) ?? email);
}

/** A state history with each change signed by its author's name. */
export const namedHistory = <T extends { actor: string | null }>(
  names: Map<string, string>,
  entries: readonly T[],
): T[] => entries.map((entry) => ({ ...entry, actor: nameByEmail(names, entry.actor) }));

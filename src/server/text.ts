/**
 * Text helpers shared by the server modules.
 */

/** Lower-case, accents removed, whitespace collapsed: what the staff filters compare ("Pérez" ~ "perez"). */
export function normalizeForSearch(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

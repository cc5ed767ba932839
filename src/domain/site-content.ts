/**
 * 'Anuncios' and 'Logos de clientes' (issue 23, "Announcements and logos"): the rules of their forms and
 * the Spanish words the staff pages and the writers share. Free of server code.
 *
 * An announcement is shown by the site's toast from its start day to its end day (both included, days
 * in Santo Domingo; no end day: until it is removed). A logo has a name (its image's text), an image,
 * an optional link, a place on the wall and shown/hidden.
 */

export const ANNOUNCEMENT_LIMITS = { title: 80, message: 240, link: 300 } as const;
export const LOGO_LIMITS = { name: 80, link: 300 } as const;
/** The largest logo file accepted (before it is re-encoded or sanitised). */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** The upload's body limit (the file and the other fields with their multipart framing). */
export const LOGO_BODY_BYTES = LOGO_MAX_BYTES + 64 * 1024;
/** What the file input offers (a hint: the server decides by content). */
export const LOGO_ACCEPT = '.png,.jpg,.jpeg,.webp,.svg,image/png,image/jpeg,image/webp,image/svg+xml';

export const ANNOUNCEMENT_MESSAGES = {
  titleEmpty: 'Escribe un título.',
  titleLong: `El título admite hasta ${ANNOUNCEMENT_LIMITS.title} caracteres.`,
  messageEmpty: 'Escribe el mensaje.',
  messageLong: `El mensaje admite hasta ${ANNOUNCEMENT_LIMITS.message} caracteres.`,
  linkEmpty: 'Escribe el enlace de «Ver más detalles».',
  linkBad: 'El enlace debe ser una dirección del sitio (empieza con /) o una dirección https://.',
  startBad: 'Elige la fecha de inicio.',
  endBad: 'La fecha de fin no es válida.',
  endBefore: 'La fecha de fin no puede ser anterior a la de inicio.',
  stale: 'Otra persona guardó este anuncio mientras lo editabas.',
  notFound: 'Ese anuncio ya no existe.',
  failed: 'No se pudo guardar el anuncio. Inténtalo de nuevo.',
} as const;

export const LOGO_MESSAGES = {
  nameEmpty: 'Escribe el nombre del cliente.',
  nameLong: `El nombre admite hasta ${LOGO_LIMITS.name} caracteres.`,
  linkBad: 'El enlace debe ser una dirección https:// (o déjalo vacío).',
  imageMissing: 'Elige la imagen del logo.',
  imageType: 'La imagen debe ser PNG, JPEG, WebP o SVG.',
  imageLarge: 'La imagen admite hasta 2 MB.',
  imageBroken: 'No se pudo leer la imagen: revisa el archivo.',
  stale: 'Otra persona cambió este logo mientras lo editabas.',
  notFound: 'Ese logo ya no existe.',
  failed: 'No se pudo guardar el logo. Inténtalo de nuevo.',
} as const;

export interface AnnouncementInput {
  title: string;
  message: string;
  link: string;
  /** YYYY-MM-DD (Santo Domingo). */
  startsOn: string;
  /** YYYY-MM-DD (Santo Domingo), included; null: no end. */
  endsOn: string | null;
}

export type AnnouncementFieldName = 'titulo' | 'mensaje' | 'enlace' | 'inicio' | 'fin';

export type FormCheck<T, F extends string> =
  { ok: true; value: T } | { ok: false; errors: Partial<Record<F, string>> };

const oneLine = (value: unknown) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '');

/** A real calendar day written `aaaa-mm-dd`. */
export function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A path of this site (`/producto/tiendao#calculadora`) or an https/http address. */
export function isSiteOrWebLink(value: string): boolean {
  if (/^\/(?!\/)[^\s\\]*$/.test(value)) return true;
  return isWebLink(value);
}

export function isWebLink(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function checkAnnouncementForm(
  posted: Partial<Record<AnnouncementFieldName, unknown>>,
): FormCheck<AnnouncementInput, AnnouncementFieldName> {
  const title = oneLine(posted.titulo);
  const message = oneLine(posted.mensaje);
  const link = typeof posted.enlace === 'string' ? posted.enlace.trim() : '';
  const startsOn = typeof posted.inicio === 'string' ? posted.inicio.trim() : '';
  const endsOn = typeof posted.fin === 'string' ? posted.fin.trim() : '';
  const errors: Partial<Record<AnnouncementFieldName, string>> = {};
  const M = ANNOUNCEMENT_MESSAGES;
  if (!title) errors.titulo = M.titleEmpty;
  else if (title.length > ANNOUNCEMENT_LIMITS.title) errors.titulo = M.titleLong;
  if (!message) errors.mensaje = M.messageEmpty;
  else if (message.length > ANNOUNCEMENT_LIMITS.message) errors.mensaje = M.messageLong;
  if (!link) errors.enlace = M.linkEmpty;
  else if (link.length > ANNOUNCEMENT_LIMITS.link || !isSiteOrWebLink(link)) errors.enlace = M.linkBad;
  if (!isDay(startsOn)) errors.inicio = M.startBad;
  if (endsOn && !isDay(endsOn)) errors.fin = M.endBad;
  else if (endsOn && isDay(startsOn) && endsOn < startsOn) errors.fin = M.endBefore;
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { title, message, link, startsOn, endsOn: endsOn || null } };
}

/** Shown by the toast on `today` (Santo Domingo, aaaa-mm-dd): started, and not ended. */
export function isAnnouncementActive(
  item: Pick<AnnouncementInput, 'startsOn' | 'endsOn'>,
  today: string,
): boolean {
  return item.startsOn <= today && (item.endsOn === null || today <= item.endsOn);
}

export interface LogoInput {
  name: string;
  link: string | null;
  visible: boolean;
}

export type LogoFieldName = 'nombre' | 'enlace' | 'imagen';

export function checkLogoForm(posted: {
  nombre?: unknown;
  enlace?: unknown;
  visible?: unknown;
}): FormCheck<LogoInput, LogoFieldName> {
  const name = oneLine(posted.nombre);
  const link = typeof posted.enlace === 'string' ? posted.enlace.trim() : '';
  const errors: Partial<Record<LogoFieldName, string>> = {};
  if (!name) errors.nombre = LOGO_MESSAGES.nameEmpty;
  else if (name.length > LOGO_LIMITS.name) errors.nombre = LOGO_MESSAGES.nameLong;
  if (link && (link.length > LOGO_LIMITS.link || !isWebLink(link))) errors.enlace = LOGO_MESSAGES.linkBad;
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: { name, link: link || null, visible: posted.visible === 'si' || posted.visible === 'on' },
  };
}

/** A key for a new announcement (`whatsnew-{key}`): from its title, with a random tail so a key is never given twice. */
export function announcementKeyFrom(title: string, random: string): string {
  const base = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${base || 'anuncio'}-${random}`;
}

/**
 * 'Anuncios' and 'Logos de clientes' (issue 23): plain forms posted to their pages. The version the
 * page was rendered at travels with each write: a write on something someone else changed since is
 * refused (409) and writes nothing. Success goes back (303) with `hecho=…`, once this process's public
 * pages show the change (`contentSettled`, as 'Contenido' does).
 *
 * - `announcements.save` (new or edit), `announcements.remove` (from its confirmation step);
 * - `logos.save` (new or edit, with the image: PNG, JPEG, WebP or SVG), `logos.move` ('Subir' or
 *   'Bajar'), `logos.visibility` ('Mostrar' / 'Ocultar'), `logos.order` (the list dragged with
 *   JavaScript, the ids in order), `logos.remove` (from its confirmation step).
 */
import {
  ANNOUNCEMENT_MESSAGES,
  checkAnnouncementForm,
  checkLogoForm,
  LOGO_MESSAGES,
} from '../../domain/site-content.ts';
import { ROUTES } from '../../routes.ts';
import {
  createAnnouncement,
  deleteAnnouncement,
  updateAnnouncement,
  type VersionedOutcome,
} from '../../server/content/index.ts';
import { contentSettled } from '../../server/content/index.ts';
import {
  createClientLogo,
  deleteClientLogo,
  moveClientLogo,
  reorderClientLogos,
  setClientLogoVisible,
  updateClientLogo,
} from '../../server/content/index.ts';
import { prepareLogoImage, type LogoImage } from '../../server/content/index.ts';
import { getDb } from '../../server/db/index.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { staffForm } from './common.ts';

/** What 'Anuncios' says after each write (`?hecho=`). */
export const ANNOUNCEMENTS_DONE = {
  creado: 'Anuncio creado.',
  guardado: 'Anuncio guardado.',
  eliminado: 'Anuncio eliminado.',
} as const;

/** What 'Logos de clientes' says after each write (`?hecho=`). */
export const LOGOS_DONE = {
  creado: 'Logo agregado.',
  guardado: 'Logo guardado.',
  movido: 'Orden actualizado.',
  mostrado: 'El logo se muestra en el sitio.',
  oculto: 'El logo quedó oculto.',
  eliminado: 'Logo eliminado.',
} as const;

const idOf = (form: FormData): number | null => {
  const raw = field(form, 'id');
  return /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
};
const versionOf = (form: FormData): number => {
  const version = Number(field(form, 'version'));
  return Number.isSafeInteger(version) ? version : -1;
};

function savedOrRefused<T>(outcome: VersionedOutcome<T>, messages: { stale: string; notFound: string }): T {
  if (outcome.kind === 'saved') return outcome.value;
  if (outcome.kind === 'stale') refuse('CONFLICT', messages.stale);
  refuse('NOT_FOUND', messages.notFound);
}

async function settledTo(path: string) {
  await contentSettled();
  return seeOtherTo(path);
}

export const saveAnnouncement = staffForm(
  'announcements.save',
  ANNOUNCEMENT_MESSAGES.failed,
  async (form, { actor }) => {
    const checked = checkAnnouncementForm({
      titulo: field(form, 'titulo'),
      mensaje: field(form, 'mensaje'),
      enlace: field(form, 'enlace'),
      inicio: field(form, 'inicio'),
      fin: field(form, 'fin'),
    });
    if (!checked.ok)
      refuse('BAD_REQUEST', 'No se guardó el anuncio: revisa los campos marcados.', checked.errors);
    const id = idOf(form);
    const db = getDb();
    if (id === null) {
      await createAnnouncement(db, checked.value, actor);
      return settledTo(`${ROUTES.adminAnnouncements}?hecho=creado`);
    }
    savedOrRefused(
      await updateAnnouncement(db, id, versionOf(form), checked.value, actor),
      ANNOUNCEMENT_MESSAGES,
    );
    return settledTo(`${ROUTES.adminAnnouncements}?hecho=guardado`);
  },
);

export const removeAnnouncement = staffForm(
  'announcements.remove',
  'No se pudo eliminar el anuncio. Inténtalo de nuevo.',
  async (form, { actor }) => {
    const id = idOf(form);
    if (id === null) refuse('NOT_FOUND', ANNOUNCEMENT_MESSAGES.notFound);
    savedOrRefused(await deleteAnnouncement(getDb(), id, versionOf(form), actor), ANNOUNCEMENT_MESSAGES);
    return settledTo(`${ROUTES.adminAnnouncements}?hecho=eliminado`);
  },
);

/** The image sent with the form, prepared; null when none was chosen. */
async function postedImage(form: FormData): Promise<LogoImage | null> {
  const file = form.get('imagen');
  if (!file || typeof file === 'string' || file.size === 0) return null;
  const prepared = await prepareLogoImage(Buffer.from(await file.arrayBuffer()));
  if (!prepared.ok)
    refuse('BAD_REQUEST', 'No se guardó el logo: revisa los campos marcados.', { imagen: prepared.message });
  return prepared.image;
}

export const saveLogo = staffForm('logos.save', LOGO_MESSAGES.failed, async (form, { actor }) => {
  const checked = checkLogoForm({
    nombre: field(form, 'nombre'),
    enlace: field(form, 'enlace'),
    visible: field(form, 'visible'),
  });
  const id = idOf(form);
  const image = await postedImage(form).catch((error: unknown) => {
    if (!checked.ok) return null;
    throw error;
  });
  const errors: Record<string, string> = checked.ok ? {} : { ...checked.errors };
  if (id === null && !image && !errors.imagen) errors.imagen = LOGO_MESSAGES.imageMissing;
  if (!checked.ok || Object.keys(errors).length)
    refuse('BAD_REQUEST', 'No se guardó el logo: revisa los campos marcados.', errors);
  const db = getDb();
  if (id === null) {
    await createClientLogo(db, checked.value, image!, actor);
    return settledTo(`${ROUTES.adminLogos}?hecho=creado`);
  }
  savedOrRefused(await updateClientLogo(db, id, versionOf(form), checked.value, image, actor), LOGO_MESSAGES);
  return settledTo(`${ROUTES.adminLogos}?hecho=guardado`);
});

export const moveLogo = staffForm('logos.move', LOGO_MESSAGES.failed, async (form, { actor }) => {
  const id = idOf(form);
  const direction = field(form, 'direccion');
  if (id === null) refuse('NOT_FOUND', LOGO_MESSAGES.notFound);
  if (direction !== 'subir' && direction !== 'bajar') refuse('BAD_REQUEST', 'Elige subir o bajar el logo.');
  savedOrRefused(await moveClientLogo(getDb(), id, versionOf(form), direction, actor), LOGO_MESSAGES);
  return settledTo(`${ROUTES.adminLogos}?hecho=movido&logo=${id}#logo-${id}`);
});

export const logoVisibility = staffForm('logos.visibility', LOGO_MESSAGES.failed, async (form, { actor }) => {
  const id = idOf(form);
  if (id === null) refuse('NOT_FOUND', LOGO_MESSAGES.notFound);
  const visible = field(form, 'visible') === 'si';
  savedOrRefused(await setClientLogoVisible(getDb(), id, versionOf(form), visible, actor), LOGO_MESSAGES);
  return settledTo(`${ROUTES.adminLogos}?hecho=${visible ? 'mostrado' : 'oculto'}&logo=${id}#logo-${id}`);
});

export const orderLogos = staffForm('logos.order', LOGO_MESSAGES.failed, async (form, { actor }) => {
  // `id:version` of every logo, in the new order.
  const order = field(form, 'orden')
    .split(',')
    .map((pair) => /^([1-9]\d{0,9}):(\d{1,10})$/.exec(pair))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ id: Number(match[1]), version: Number(match[2]) }));
  if (order.length === 0) refuse('BAD_REQUEST', 'No llegó el orden de los logos.');
  if ((await reorderClientLogos(getDb(), order, actor)) === 'stale')
    refuse(
      'CONFLICT',
      'Otra persona cambió los logos mientras los ordenabas: mira el orden actual e inténtalo de nuevo.',
    );
  return settledTo(`${ROUTES.adminLogos}?hecho=movido`);
});

export const removeLogo = staffForm(
  'logos.remove',
  'No se pudo eliminar el logo. Inténtalo de nuevo.',
  async (form, { actor }) => {
    const id = idOf(form);
    if (id === null) refuse('NOT_FOUND', LOGO_MESSAGES.notFound);
    savedOrRefused(await deleteClientLogo(getDb(), id, versionOf(form), actor), LOGO_MESSAGES);
    return settledTo(`${ROUTES.adminLogos}?hecho=eliminado`);
  },
);

export const announcementActions = { save: saveAnnouncement, remove: removeAnnouncement };
export const logoActions = {
  save: saveLogo,
  move: moveLogo,
  visibility: logoVisibility,
  order: orderLogos,
  remove: removeLogo,
};

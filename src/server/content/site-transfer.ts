/**
 * The announcements and client logos of `npm run data` (issue 23; issue 40: each area moves its own
 * rows), and the one-time content imports done (`content_imports`), so that the target never imports
 * the Markdown articles or the files' announcements and logos again. Imported by the forms' rules; an
 * uploaded logo through the same sanitiser or re-encoder as an upload.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import {
  ANNOUNCEMENT_LIMITS,
  checkAnnouncementForm,
  checkLogoForm,
  LOGO_LIMITS,
} from '../../domain/site-content.ts';
import {
  email,
  RecordRefused,
  refusedWith,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Outcome,
} from '../data-records.ts';
import type { Db } from '../db/index.ts';
import { prepareLogoImage } from './logo-image.ts';
import { CLIENT_ASSETS_DIR, declaredSvgSize } from './site-import.ts';

/** An announcement of 'Anuncios' (issue 23): its key is what visitors' browsers remember it by. */
export interface ExportedAnnouncement {
  key: string;
  title: string;
  message: string;
  link: string;
  startsOn: string;
  endsOn: string | null;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

/** A logo of 'Logos de clientes' (issue 23), in the wall's order; an uploaded image's bytes in base64. */
export interface ExportedClientLogo {
  name: string;
  imageRef: string | null;
  imageType: string;
  imageBase64: string | null;
  link: string | null;
  position: number;
  visible: boolean;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

/** Every announcement, oldest first. */
export async function exportAnnouncements(db: Db): Promise<ExportedAnnouncement[]> {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('createdAt').orderBy('id').execute();
  return rows.map((row) => ({
    key: row.key,
    title: row.title,
    message: row.message,
    link: row.link,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    createdAt: String(row.createdAt),
    createdByEmail: row.createdBy,
    updatedAt: String(row.updatedAt),
    updatedByEmail: row.updatedBy,
  }));
}

/** Every logo, in the wall's order. */
export async function exportClientLogos(db: Db): Promise<ExportedClientLogo[]> {
  const rows = await db.selectFrom('clientLogos').selectAll().orderBy('position').orderBy('id').execute();
  return rows.map((row) => ({
    name: row.name,
    imageRef: row.imageRef,
    imageType: row.imageType,
    imageBase64: row.imageData ? Buffer.from(row.imageData).toString('base64') : null,
    link: row.link,
    position: Number(row.position),
    visible: Boolean(Number(row.visible)),
    createdAt: String(row.createdAt),
    createdByEmail: row.createdBy,
    updatedAt: String(row.updatedAt),
    updatedByEmail: row.updatedBy,
  }));
}

/** The names of the one-time content imports done. */
export async function exportContentImports(db: Db): Promise<string[]> {
  return (await db.selectFrom('contentImports').select('name').orderBy('name').execute()).map(
    (row) => row.name,
  );
}

/**
 * An announcement of 'Anuncios' (issue 23), by the form's rules, with its key (what visitors' browsers
 * remember it by); one whose key is already here is skipped.
 */
export async function importAnnouncement(trx: Db, record: Record<string, unknown>): Promise<Outcome> {
  const key = text(record.key, 200);
  if (!/^[a-z0-9-]{1,80}$/.test(key)) throw new RecordRefused('la clave del anuncio no es válida.');
  const checked = checkAnnouncementForm({
    titulo: text(record.title, ANNOUNCEMENT_LIMITS.title * 4),
    mensaje: text(record.message, ANNOUNCEMENT_LIMITS.message * 4),
    enlace: text(record.link, ANNOUNCEMENT_LIMITS.link * 4),
    inicio: text(record.startsOn, 20),
    fin: record.endsOn == null ? '' : text(record.endsOn, 20),
  });
  if (!checked.ok) throw refusedWith(Object.values(checked.errors)[0] ?? 'el anuncio no es válido.');
  if (await trx.selectFrom('announcements').select('id').where('key', '=', key).executeTakeFirst())
    return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new RecordRefused('la fecha de creación falta o no es una fecha.');
  await trx
    .insertInto('announcements')
    .values({
      key,
      ...checked.value,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo creó', true),
      updatedAt: toIsoTime(record.updatedAt) ?? createdAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .execute();
  return 'imported';
}

/** The file's logos in its order (their places on the wall), for {@link importClientLogo} one by one. */
export const clientLogosInOrder = (records: readonly unknown[]): unknown[] =>
  [...records].sort(
    (a, b) =>
      Number((a as { position?: unknown })?.position ?? 0) -
      Number((b as { position?: unknown })?.position ?? 0),
  );

/**
 * A logo of 'Logos de clientes' (issue 23), by the form's rules; an uploaded image goes through the
 * same sanitiser or re-encoder as an upload (an image of the build must be one of src/assets/clients).
 * Added after the logos already here, in the file's order; one with the same name and image is skipped.
 */
export async function importClientLogo(trx: Db, record: Record<string, unknown>): Promise<Outcome> {
  const checked = checkLogoForm({
    nombre: text(record.name, LOGO_LIMITS.name * 4),
    enlace: text(record.link, LOGO_LIMITS.link * 4),
    visible: record.visible === false ? '' : 'si',
  });
  if (!checked.ok) throw refusedWith(Object.values(checked.errors)[0] ?? 'el logo no es válido.');
  let image: {
    imageRef: string | null;
    imageData: Uint8Array | null;
    imageType: string;
    imageWidth: number;
    imageHeight: number;
    imageHash: string;
  };
  const ref = record.imageRef == null ? null : text(record.imageRef, 200);
  if (ref !== null) {
    const file = /^asset:clients\/([a-z0-9-]+\.svg)$/.exec(ref)?.[1];
    if (!file || !existsSync(`${CLIENT_ASSETS_DIR}${file}`))
      throw new RecordRefused('la imagen no es una de src/assets/clients.');
    const bytes = readFileSync(`${CLIENT_ASSETS_DIR}${file}`);
    const size = declaredSvgSize(bytes.toString('utf8'));
    image = {
      imageRef: ref,
      imageData: null,
      imageType: 'image/svg+xml',
      imageWidth: size.width,
      imageHeight: size.height,
      imageHash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
    };
  } else {
    const prepared = await prepareLogoImage(Buffer.from(text(record.imageBase64, 4 * 1024 * 1024), 'base64'));
    if (!prepared.ok) throw refusedWith(prepared.message);
    const { data, type, width, height, hash } = prepared.image;
    image = {
      imageRef: null,
      imageData: data,
      imageType: type,
      imageWidth: width,
      imageHeight: height,
      imageHash: hash,
    };
  }
  const same = await trx
    .selectFrom('clientLogos')
    .select('id')
    .where('name', '=', checked.value.name)
    .where('imageHash', '=', image.imageHash)
    .executeTakeFirst();
  if (same) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new RecordRefused('la fecha de creación falta o no es una fecha.');
  const last = await trx
    .selectFrom('clientLogos')
    .select(sql<number | null>`max(position)`.as('position'))
    .executeTakeFirst();
  await trx
    .insertInto('clientLogos')
    .values({
      ...checked.value,
      ...image,
      position: Number(last?.position ?? 0) + 1,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo agregó', true),
      updatedAt: toIsoTime(record.updatedAt) ?? createdAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .execute();
  return 'imported';
}

/** The one-time imports the source had done (issue 23): the target never does them again. */
export async function importContentImports(trx: Db, names: unknown): Promise<void> {
  for (const name of Array.isArray(names) ? names : []) {
    if (typeof name !== 'string' || !/^[a-z0-9-]{1,60}$/.test(name)) continue;
    await trx
      .insertInto('contentImports')
      .values({ name, importedAt: new Date().toISOString(), items: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}

/**
 * The client logo wall (issue 23, migration 0036, docs/decisions/0019): the one writer of
 * `client_logos` and the reads of 'Logos de clientes' and the public wall (home page and /clientes).
 * Like the articles, every write checks the version (optimistic concurrency), bumps it, records an
 * audit event and says the content changed once committed.
 *
 * The image: an imported logo names the build's own file (`asset:clients/<file>`, src/lib/
 * client-logos.ts resolves it to the same hashed `/_astro/` file); an uploaded one is kept in the row,
 * sanitised (SVG) or re-encoded (WebP) by src/server/content/logo-image.ts, and served from each
 * process's memory at `/logos/{id}-{hash}.{svg|webp}` (an address that changes with the bytes, so
 * browsers may keep it for a year).
 */
import { sql } from 'kysely';
import type { LogoInput } from '../../domain/site-content.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { LogoImage } from './logo-image.ts';
import { versionedWrite, type VersionedOutcome } from './versioned.ts';
import { contentChanged } from './changes.ts';

/** Where uploaded logos are served from (the memory table of src/server/http/static-files.ts). */
export const LOGO_PATH_PREFIX = '/logos/';

export interface ClientLogo {
  id: number;
  name: string;
  /** `asset:clients/<file>`, or null when the row holds the image. */
  imageRef: string | null;
  imageType: string;
  imageWidth: number;
  imageHeight: number;
  imageHash: string;
  link: string | null;
  position: number;
  visible: boolean;
  version: number;
  updatedAt: string;
  updatedBy: string | null;
}

const COLUMNS = [
  'id',
  'name',
  'imageRef',
  'imageType',
  'imageWidth',
  'imageHeight',
  'imageHash',
  'link',
  'position',
  'visible',
  'version',
  'updatedAt',
  'updatedBy',
] as const;

type LogoRow = { [K in (typeof COLUMNS)[number]]: unknown };

function toLogo(row: LogoRow): ClientLogo {
  return {
    id: Number(row.id),
    name: String(row.name),
    imageRef: (row.imageRef as string | null) ?? null,
    imageType: String(row.imageType),
    imageWidth: Number(row.imageWidth),
    imageHeight: Number(row.imageHeight),
    imageHash: String(row.imageHash),
    link: (row.link as string | null) ?? null,
    position: Number(row.position),
    visible: Boolean(Number(row.visible) || row.visible === true),
    version: Number(row.version),
    updatedAt: String(row.updatedAt),
    updatedBy: (row.updatedBy as string | null) ?? null,
  };
}

/** The address an uploaded logo is served at; null for one the build processed. */
export function uploadedLogoPath(
  logo: Pick<ClientLogo, 'id' | 'imageRef' | 'imageHash' | 'imageType'>,
): string | null {
  if (logo.imageRef) return null;
  return `${LOGO_PATH_PREFIX}${logo.id}-${logo.imageHash}.${logo.imageType === 'image/svg+xml' ? 'svg' : 'webp'}`;
}

/** Every logo in the wall's order. */
export async function listClientLogos(db: Db): Promise<ClientLogo[]> {
  const rows = await db.selectFrom('clientLogos').select(COLUMNS).orderBy('position').orderBy('id').execute();
  return rows.map(toLogo);
}

/** The logos the wall shows, in order. */
export async function shownClientLogos(db: Db): Promise<ClientLogo[]> {
  return (await listClientLogos(db)).filter((logo) => logo.visible);
}

export async function clientLogoById(db: Db, id: number): Promise<ClientLogo | null> {
  const row = await db.selectFrom('clientLogos').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toLogo(row) : null;
}

/** The bytes of the uploaded logos (for the memory table), by address. */
export async function uploadedLogoFiles(
  db: Db,
): Promise<Array<{ path: string; type: string; data: Buffer }>> {
  const rows = await db
    .selectFrom('clientLogos')
    .select(['id', 'imageRef', 'imageHash', 'imageType', 'imageData'])
    .where('imageData', 'is not', null)
    .execute();
  return rows.flatMap((row) => {
    const path = uploadedLogoPath({
      id: Number(row.id),
      imageRef: row.imageRef,
      imageHash: row.imageHash,
      imageType: row.imageType,
    });
    return path && row.imageData ? [{ path, type: row.imageType, data: Buffer.from(row.imageData) }] : [];
  });
}

const imageColumns = (image: LogoImage) => ({
  imageRef: null,
  imageData: image.data,
  imageType: image.type,
  imageWidth: image.width,
  imageHeight: image.height,
  imageHash: image.hash,
});

/** Adds a logo at the end of the wall. */
export async function createClientLogo(
  db: Db,
  input: LogoInput,
  image: LogoImage,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<ClientLogo> {
  const at = now.toISOString();
  const created = await db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('clientLogos')
      .select(sql<number | null>`max(position)`.as('position'))
      .executeTakeFirst();
    const row = await trx
      .insertInto('clientLogos')
      .values({
        name: input.name,
        link: input.link,
        visible: input.visible,
        ...imageColumns(image),
        position: Number(last?.position ?? 0) + 1,
        createdAt: at,
        createdBy: actor?.actorEmail ?? null,
        updatedAt: at,
        updatedBy: actor?.actorEmail ?? null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    if (actor)
      await recordEvent(
        trx,
        { ...actor, action: 'logo.created', subject: Number(row.id), detail: input.name },
        now,
      );
    return toLogo(row);
  });
  contentChanged(db);
  return created;
}

/** One versioned write of a logo (src/server/content/versioned.ts). */
function versioned(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date,
  write: (
    current: ClientLogo,
    trx: Db,
  ) => Promise<{ action: 'logo.edited' | 'logo.moved' | 'logo.deleted'; detail: string } | null>,
): Promise<VersionedOutcome<ClientLogo>> {
  return versionedWrite(db, { table: 'clientLogos', id, version, actor, now, read: clientLogoById, write });
}

/** Saves a logo's fields, and its image when a new one was sent. */
export function updateClientLogo(
  db: Db,
  id: number,
  version: number,
  input: LogoInput,
  image: LogoImage | null,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<ClientLogo>> {
  return versioned(db, id, version, actor, now, async (_current, trx) => {
    await trx
      .updateTable('clientLogos')
      .set({
        name: input.name,
        link: input.link,
        visible: input.visible,
        ...(image ? imageColumns(image) : {}),
      })
      .where('id', '=', id)
      .execute();
    return { action: 'logo.edited', detail: input.name };
  });
}

/** Shows or hides a logo. */
export function setClientLogoVisible(
  db: Db,
  id: number,
  version: number,
  visible: boolean,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<ClientLogo>> {
  return versioned(db, id, version, actor, now, async (current, trx) => {
    await trx.updateTable('clientLogos').set({ visible }).where('id', '=', id).execute();
    return { action: 'logo.edited', detail: `${current.name}: ${visible ? 'visible' : 'oculto'}` };
  });
}

/** Moves a logo one place up ('subir') or down ('bajar'), swapping with its neighbour; at an end it stays. */
export function moveClientLogo(
  db: Db,
  id: number,
  version: number,
  direction: 'subir' | 'bajar',
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<ClientLogo>> {
  return versioned(db, id, version, actor, now, async (current, trx) => {
    const neighbour = await trx
      .selectFrom('clientLogos')
      .select(['id', 'position'])
      .where('position', direction === 'subir' ? '<' : '>', current.position)
      .orderBy('position', direction === 'subir' ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst();
    if (!neighbour) return null;
    await trx
      .updateTable('clientLogos')
      .set({ position: Number(neighbour.position) })
      .where('id', '=', id)
      .execute();
    await trx
      .updateTable('clientLogos')
      .set({ position: current.position, version: sql<number>`version + 1` })
      .where('id', '=', Number(neighbour.id))
      .execute();
    return { action: 'logo.moved', detail: `${current.name}: ${direction === 'subir' ? 'subió' : 'bajó'}` };
  });
}

/**
 * Puts the logos in the order given (the list dragged with JavaScript), each id with the version the
 * page showed: when any of them changed since (or is gone, or the page missed a new one), nothing is
 * written and the answer is 'stale'.
 */
export async function reorderClientLogos(
  db: Db,
  order: ReadonlyArray<{ id: number; version: number }>,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<'saved' | 'stale'> {
  let written = false;
  const outcome = await db
    .transaction()
    .execute(async (trx) => {
      const all = await listClientLogos(trx);
      const seen = new Set(order.map((item) => item.id));
      const current = new Map(all.map((logo) => [logo.id, logo]));
      if (seen.size !== order.length || all.length !== order.length) return 'stale';
      if (order.some((item) => current.get(item.id)?.version !== item.version)) return 'stale';
      for (const [index, { id, version }] of order.entries()) {
        if (current.get(id)!.position === index + 1) continue;
        const moved = await trx
          .updateTable('clientLogos')
          .set({
            position: index + 1,
            version: sql<number>`version + 1`,
            updatedAt: now.toISOString(),
            updatedBy: actor?.actorEmail ?? null,
          })
          .where('id', '=', id)
          .where('version', '=', version)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new StaleOrder();
        written = true;
      }
      if (written && actor)
        await recordEvent(
          trx,
          { ...actor, action: 'logo.moved', subject: null, detail: 'Logos ordenados arrastrándolos' },
          now,
        );
      return 'saved';
    })
    .catch((error: unknown) => {
      if (error instanceof StaleOrder) return 'stale' as const;
      throw error;
    });
  if (written && outcome === 'saved') contentChanged(db);
  return outcome;
}

/** A logo of a dragged order changed between the check and its write: the whole order is rolled back. */
class StaleOrder extends Error {}

export function deleteClientLogo(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<ClientLogo>> {
  return versioned(db, id, version, actor, now, async (current, trx) => {
    await trx.deleteFrom('clientLogos').where('id', '=', id).execute();
    return { action: 'logo.deleted', detail: current.name };
  });
}

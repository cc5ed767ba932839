/**
 * The toast's four announcements (src/content/announcements.ts) and the eighteen client logos
 * (src/content/catalog/clients.ts, images in src/assets/clients) imported into the database once, on
 * the first start after migration 0036 (`npm start`: src/server/startup.ts), like the Markdown
 * articles (markdown-import.ts): each import is marked in `content_imports` in its own transaction,
 * so several processes starting together import once and a later deletion is never undone.
 *
 * The announcements keep their ids as keys (a visitor who closed one does not see it again) and their
 * order (all start on the import day; the newest id comes first, so they are written last to first).
 * The logos keep their names, order and images: `asset:clients/<file>` is the file the build
 * processed (src/lib/client-logos.ts), so the wall's `<img>` are the same bytes at the same address.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ANNOUNCEMENTS, type Announcement as FileAnnouncement } from '../../content/announcements.ts';
import { CLIENTS, type Client } from '../../content/catalog/clients.ts';
import { santoDomingoToday } from '../../domain/forms/meeting.ts';
import type { Db } from '../db/index.ts';
import { contentChanged } from './changes.ts';

export const ANNOUNCEMENTS_IMPORT = 'announcements';
export const LOGOS_IMPORT = 'client-logos';
export const CLIENT_ASSETS_DIR = fileURLToPath(new URL('../../assets/clients/', import.meta.url));

/** The width and height an SVG file declares (as the build reads them for its `<img>`). */
export function declaredSvgSize(svg: string): { width: number; height: number } {
  const open = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number.parseFloat(new RegExp(`\\s${name}="([^"]*)"`).exec(open)?.[1] ?? '');
  const box = new RegExp(`\\sviewBox="([^"]*)"`)
    .exec(open)?.[1]
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const width = attr('width') || box?.[2] || 240;
  const height = attr('height') || box?.[3] || 72;
  return { width: Math.round(width), height: Math.round(height) };
}

/** Imports the announcements once: null when already done, else how many were written. */
export async function importAnnouncements(
  db: Db,
  announcements: readonly FileAnnouncement[] = ANNOUNCEMENTS,
  now: Date = new Date(),
): Promise<number | null> {
  const at = now.toISOString();
  const written = await db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('contentImports')
      .values({ name: ANNOUNCEMENTS_IMPORT, importedAt: at, items: announcements.length })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!marker) return null;
    let count = 0;
    for (const item of [...announcements].reverse()) {
      const taken = await trx
        .selectFrom('announcements')
        .select('id')
        .where('key', '=', item.id)
        .executeTakeFirst();
      if (taken) continue;
      await trx
        .insertInto('announcements')
        .values({
          key: item.id,
          title: item.title,
          message: item.message,
          link: item.link,
          startsOn: santoDomingoToday(now),
          endsOn: null,
          createdAt: at,
          createdBy: null,
          updatedAt: at,
          updatedBy: null,
        })
        .execute();
      count += 1;
    }
    return count;
  });
  if (written) contentChanged(db);
  return written;
}

/** Imports the logos once: null when already done, else how many were written. */
export async function importClientLogos(
  db: Db,
  clients: readonly Client[] = CLIENTS,
  now: Date = new Date(),
  assetsDir: string = CLIENT_ASSETS_DIR,
): Promise<number | null> {
  const at = now.toISOString();
  const rows = clients.map((client, index) => {
    const bytes = readFileSync(`${assetsDir}${client.file}`);
    return {
      name: client.name,
      imageRef: `asset:clients/${client.file}`,
      imageData: null,
      imageType: 'image/svg+xml',
      ...(() => {
        const size = declaredSvgSize(bytes.toString('utf8'));
        return { imageWidth: size.width, imageHeight: size.height };
      })(),
      imageHash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
      link: null,
      position: index + 1,
      visible: true,
      createdAt: at,
      createdBy: null,
      updatedAt: at,
      updatedBy: null,
    };
  });
  const written = await db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('contentImports')
      .values({ name: LOGOS_IMPORT, importedAt: at, items: rows.length })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!marker) return null;
    for (const row of rows) await trx.insertInto('clientLogos').values(row).execute();
    return rows.length;
  });
  if (written) contentChanged(db);
  return written;
}

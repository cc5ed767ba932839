import type { Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * The what's-new announcements and the client logos in the database (issue 23, "Announcements and
 * logos"; docs/decisions/0019), written by staff in 'Anuncios' and 'Logos de clientes'
 * (src/server/content/announcements.ts, client-logos.ts).
 *
 * `announcements.key` is what the toast remembers a seen announcement by (`whatsnew-{key}` in the
 * visitor's local storage): the imported ones keep the ids they had in src/content/announcements.ts,
 * and a key is never given twice. `starts_on` and `ends_on` are days in Santo Domingo (YYYY-MM-DD,
 * both included; no end day: shown until removed).
 *
 * `client_logos`: `image_ref` names an image the build processed (`asset:clients/<file>`, the imported
 * logos keep their exact `<img>`), or null when the row holds the image itself: `image_data`, already
 * re-encoded (WebP) or sanitised (SVG), with its type, size and `image_hash` (the first characters of
 * its SHA-256, which names its address). `position` orders the wall (1 first); `visible` shows or hides.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await idColumn(db, db.schema.createTable('announcements'))
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('starts_on', 'text', (c) => c.notNull())
    .addColumn('ends_on', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();

  await idColumn(db, db.schema.createTable('client_logos'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image_ref', 'text')
    .addColumn('image_data', isPostgres(db) ? 'bytea' : 'blob')
    .addColumn('image_type', 'text', (c) => c.notNull())
    .addColumn('image_width', 'integer', (c) => c.notNull())
    .addColumn('image_height', 'integer', (c) => c.notNull())
    .addColumn('image_hash', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  await db.schema.createIndex('client_logos_position_idx').on('client_logos').column('position').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_logos').ifExists().execute();
  await db.schema.dropTable('announcements').ifExists().execute();
}

import { type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * An article's revisions and its private preview links (issue 23, docs/decisions/0019).
 *
 * `article_revisions`: every save of an article keeps one row with the fields as they were saved (the
 * article's `version` after the save, its state and publication time, who and when). 'Historial' in the
 * editor lists them with a diff against the current text; 'Restaurar' saves a revision's fields again.
 * Deleted with their article.
 *
 * `article_preview_links`: 'Vista previa' links for someone outside (a draft or a scheduled article at
 * its future address with `?vista=<token>`): the token's SHA-256 only (a copy of the database opens no
 * link), who made it, when, and until when it opens (7 days).
 *
 * `article_images` and `article_image_files`: images uploaded into an article's text, each re-encoded
 * (sharp) as AVIF and WebP at the widths the article layout uses; the image's largest width and height,
 * and each file's bytes by width and format. Served at `/blog/imagenes/{id}-{key}-{width}.{avif|webp}`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await idColumn(db, db.schema.createTable('article_revisions'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('cover_image', 'text')
    .addColumn('cover_alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('seo_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seo_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('publish_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema
    .createIndex('article_revisions_article_idx')
    .on('article_revisions')
    .columns(['article_id', 'id'])
    .execute();

  await idColumn(db, db.schema.createTable('article_preview_links'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('article_preview_links_article_idx')
    .on('article_preview_links')
    .column('article_id')
    .execute();

  await idColumn(db, db.schema.createTable('article_images'))
    // Random (16 hex digits): the addresses name it, and no file is served without it.
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema
    .createTable('article_image_files')
    .addColumn('image_id', 'integer', (c) => c.notNull().references('article_images.id').onDelete('cascade'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('article_image_files_pkey', ['image_id', 'width', 'format'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_image_files').ifExists().execute();
  await db.schema.dropTable('article_images').ifExists().execute();
  await db.schema.dropTable('article_preview_links').ifExists().execute();
  await db.schema.dropTable('article_revisions').ifExists().execute();
}

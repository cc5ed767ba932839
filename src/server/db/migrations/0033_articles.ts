import { sql, type Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Articles in the database (issue 23, docs/decisions/0019): the blog's and the help centre's, written
 * by staff in 'Contenido' (src/server/content/). `kind` says where one lives ('blog' at `/blog/{slug}`,
 * 'ayuda' at `/ayuda/{slug}`); a slug is unique within its kind.
 *
 * `state`: 'borrador', 'programado' (public from `publish_at` on, with no request needed) or
 * 'publicado'. `publish_at` is the publication time shown on the page (kept after 'Despublicar', so a
 * republished article keeps its date); null for a draft never published. `version` grows with every
 * save, for the editor's optimistic concurrency. `cover_image` is a reference, not bytes:
 * `asset:blog/<file>` names an illustration the build processed (src/assets/blog), so the imported
 * articles keep their exact `<img>`. `tags` is a JSON array of strings.
 *
 * `article_slugs`: the slugs an article had while it was public, each answered with a 301 to its
 * current address. `content_imports`: the one-time imports done (the Markdown articles on first start).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await idColumn(db, db.schema.createTable('articles'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('blog', 'ayuda')`))
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
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('borrador', 'programado', 'publicado')`),
    )
    .addColumn('publish_at', ts)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addUniqueConstraint('articles_kind_slug_key', ['kind', 'slug'])
    .execute();
  // The public pages read the public articles of a kind, newest first; the scheduler the next due time.
  await db.schema
    .createIndex('articles_kind_state_publish_idx')
    .on('articles')
    .columns(['kind', 'state', 'publish_at'])
    .execute();
  await db.schema
    .createIndex('articles_state_publish_idx')
    .on('articles')
    .columns(['state', 'publish_at'])
    .execute();

  await idColumn(db, db.schema.createTable('article_slugs'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('blog', 'ayuda')`))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('article_slugs_kind_slug_key', ['kind', 'slug'])
    .execute();
  await db.schema.createIndex('article_slugs_article_idx').on('article_slugs').column('article_id').execute();

  await db.schema
    .createTable('content_imports')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('imported_at', ts, (c) => c.notNull())
    .addColumn('items', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('content_imports').ifExists().execute();
  await db.schema.dropTable('article_slugs').ifExists().execute();
  await db.schema.dropTable('articles').ifExists().execute();
}

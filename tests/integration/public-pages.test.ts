/**
 * The pages made from the content (src/server/content/public-pages.ts, docs/decisions/0019) on both
 * engines: rendered into the memory table at start and after every change (a publish, an unpublish, a
 * slug change), a scheduled article put in place at its time with no request and no write, and on
 * PostgreSQL a change made by another process (its NOTIFY) rendered here too. The pages are "fetched"
 * from a stand-in for the site's handler that writes what the database says.
 */
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterEach, expect, it } from 'vitest';
import {
  createArticle,
  publishArticle,
  scheduleArticle,
  unpublishArticle,
  updateArticle,
} from '../../src/server/content/articles.ts';
import { CONTENT_CHANNEL } from '../../src/server/content/changes.ts';
import {
  startPublicPages,
  withCharset,
  type FetchedPage,
  type PublicPages,
} from '../../src/server/content/public-pages.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import type { CachedFile } from '../../src/server/http/static-files.ts';
import type { ArticleInput } from '../../src/domain/articles.ts';
import { describeEachEngine } from '../support/db.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };

const input = (slug: string, title = `Artículo ${slug}`): ArticleInput => ({
  kind: 'blog',
  title,
  slug,
  excerpt: 'Un resumen del artículo.',
  body: 'Texto.',
  coverImage: null,
  coverAlt: '',
  author: '',
  tags: [],
  seoTitle: '',
  seoDescription: '',
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('La condición no se cumplió a tiempo');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A stand-in for the site's own handler: the page of a path, written from the database. */
function fakeSite(db: Db, fetched: string[]) {
  return async (path: string): Promise<FetchedPage> => {
    fetched.push(path);
    const rows = await db.selectFrom('articles').select(['slug', 'title', 'state']).orderBy('slug').execute();
    const slug = /^\/(blog|ayuda)\//.test(path) ? path.replace(/^\/(blog|ayuda)\//, '') : null;
    const article = slug ? rows.find((row) => row.slug === slug) : null;
    const body = slug ? (article?.title ?? '') : `${path}: ${rows.map((row) => row.slug).join(',')}`;
    return {
      status: slug && !article ? 404 : 200,
      body: Buffer.from(body),
      contentType: path.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8',
      csp: null,
    };
  };
}

const text = (files: Map<string, CachedFile>, path: string) => files.get(path)?.bodies.identity.toString();

let pages: PublicPages | undefined;
afterEach(async () => {
  await pages?.stop();
  pages = undefined;
});

describeEachEngine('public pages from the content', (database) => {
  it('renders the blog, each public article, the feed and the sitemap at start and after each change', async () => {
    const { db } = database();
    const a = await createArticle(db, input('a'), ANA);
    await publishArticle(db, a.id, 1, ANA);
    const draft = await createArticle(db, input('borrador'), ANA);
    // A built file of the table (a style sheet: no replaceable part), which the renders must leave alone.
    const built = {
      etag: 'built',
      contentType: 'text/css; charset=utf-8',
      bodies: { identity: Buffer.from('body{}') },
    } as unknown as CachedFile;
    const files = new Map<string, CachedFile>([['/servicios', built]]);
    const countable = new Set<string>(['/servicios']);
    const fetched: string[] = [];
    pages = startPublicPages({ db, files, countable, fetchPage: fakeSite(db, fetched) });
    await pages.ready;
    expect(pages.paths().sort()).toEqual(['/ayuda', '/blog', '/blog/a', '/rss.xml', '/sitemap.xml']);
    expect(text(files, '/blog/a')).toBe('Artículo a');
    expect(files.has('/blog/borrador')).toBe(false);
    expect(files.get('/rss.xml')?.contentType).toBe('application/xml; charset=utf-8');
    expect(files.get('/servicios')).toBe(built);
    expect([...countable].sort()).toEqual([
      '/ayuda',
      '/blog',
      '/blog/a',
      '/rss.xml',
      '/servicios',
      '/sitemap.xml',
    ]);

    // A publish: rendered without anyone asking.
    await publishArticle(db, draft.id, 1, ANA);
    await waitFor(() => files.has('/blog/borrador'));
    await pages.refresh();
    expect(text(files, '/blog')).toBe('/blog: a,borrador');

    // A slug change: the old path leaves the table (its requests reach the route's 301), the new one is there.
    await updateArticle(db, draft.id, 2, input('nuevo'), ANA);
    await waitFor(() => files.has('/blog/nuevo') && !files.has('/blog/borrador'));

    // An unpublish: gone from the table and from the counted paths.
    await unpublishArticle(db, a.id, 2, ANA);
    await waitFor(() => !files.has('/blog/a'));
    await pages.refresh();
    expect(countable.has('/blog/a')).toBe(false);
    expect(pages.paths().sort()).toEqual(['/ayuda', '/blog', '/blog/nuevo', '/rss.xml', '/sitemap.xml']);
    expect(files.get('/servicios')).toBe(built);

    // A help article: its page and the help centre's, rendered the same way.
    const help = await createArticle(db, { ...input('primeros-pasos'), kind: 'ayuda' }, ANA);
    await publishArticle(db, help.id, 1, ANA);
    await waitFor(() => files.has('/ayuda/primeros-pasos'));
    expect(text(files, '/ayuda/primeros-pasos')).toBe('Artículo primeros-pasos');
    expect(countable.has('/ayuda/primeros-pasos')).toBe(true);
    await unpublishArticle(db, help.id, 2, ANA);
    await waitFor(() => !files.has('/ayuda/primeros-pasos'));
    await pages.refresh();
  });

  it('puts a scheduled article in place at its time, with no request and no write', async () => {
    const { db } = database();
    const article = await createArticle(db, input('programado'), ANA);
    const files = new Map<string, CachedFile>();
    pages = startPublicPages({ db, files, fetchPage: fakeSite(db, []) });
    await pages.ready;
    const at = new Date(Date.now() + 1200);
    await scheduleArticle(db, article.id, 1, at, ANA);
    await pages.refresh();
    expect(files.has('/blog/programado')).toBe(false);
    await waitFor(() => files.has('/blog/programado'), 4000);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    const stored = await db
      .selectFrom('articles')
      .select(['state'])
      .where('id', '=', article.id)
      .executeTakeFirstOrThrow();
    expect(stored.state).toBe('publicado');
  });

  it('renders after a change another process made (PostgreSQL: its NOTIFY; SQLite: the slow check)', async () => {
    const { db, url, engine } = database();
    const article = await createArticle(db, input('otro'), ANA);
    const files = new Map<string, CachedFile>();
    pages = startPublicPages({
      db,
      files,
      fetchPage: fakeSite(db, []),
      checkMs: engine === 'sqlite' ? 300 : 60_000,
    });
    await pages.ready;
    expect(files.has('/blog/otro')).toBe(false);
    // Another process: its own connection, writing as the writer does, then saying so as the writer does.
    const other = openDatabase(url).db;
    try {
      await other
        .updateTable('articles')
        .set({ state: 'publicado', publishAt: new Date().toISOString(), version: 2 })
        .where('id', '=', article.id)
        .execute();
      if (engine === 'postgres')
        await sql`select pg_notify(${`${CONTENT_CHANNEL}_`} || current_schema(), '')`.execute(other);
      await waitFor(() => files.has('/blog/otro'), 3000);
    } finally {
      await other.destroy();
    }
  });
});

describeEachEngine('social cards of the content', (database) => {
  it("draws a card with the title of each public article that has none of the build's, and keeps it until the title changes", async () => {
    const { db } = database();
    const a = await createArticle(db, input('a', 'Cómo facturar con e-CF & NCF <sin errores>'), ANA);
    await publishArticle(db, a.id, 1, ANA);
    // An article imported from the Markdown files, at its first slug with its own illustration: the build's card.
    const imported = await createArticle(
      db,
      { ...input('mejor-erp-2025'), coverImage: 'asset:blog/mejor-erp-2025.svg' },
      ANA,
    );
    await publishArticle(db, imported.id, 1, ANA);
    const help = await createArticle(db, { ...input('primeros-pasos'), kind: 'ayuda' }, ANA);
    await publishArticle(db, help.id, 1, ANA);
    const files = new Map<string, CachedFile>();
    const countable = new Set<string>();
    pages = startPublicPages({
      db,
      files,
      countable,
      fetchPage: fakeSite(db, []),
      card: { companyName: 'Vértice Consultores', siteHost: 'verticeconsultores.com.do' },
    });
    await pages.ready;
    const card = files.get('/og/articulos/blog/a.png');
    expect(card?.contentType).toBe('image/png');
    const size = await sharp(card!.bodies.identity).metadata();
    expect([size.format, size.width, size.height]).toEqual(['png', 1200, 630]);
    expect(card!.bodies.br).toBeUndefined();
    expect(files.has('/og/articulos/blog/mejor-erp-2025.png')).toBe(false);
    expect(files.get('/og/articulos/ayuda/primeros-pasos.png')?.contentType).toBe('image/png');
    expect(countable.has('/og/articulos/blog/a.png')).toBe(false);
    expect(countable.has('/blog/a')).toBe(true);

    // Another render with nothing changed keeps the same entry; a new title draws a new card.
    await pages.refresh();
    expect(files.get('/og/articulos/blog/a.png')).toBe(card);
    await updateArticle(db, a.id, 2, input('a', 'Otro título'), ANA);
    await waitFor(() => files.get('/og/articulos/blog/a.png')?.etag !== card!.etag);

    // Unpublished: the card goes with the page.
    await unpublishArticle(db, a.id, 3, ANA);
    await waitFor(() => !files.has('/og/articulos/blog/a.png') && !files.has('/blog/a'));
  });
});

it('gives a text type its charset', () => {
  expect(withCharset('application/xml')).toBe('application/xml; charset=utf-8');
  expect(withCharset('text/html; charset=utf-8')).toBe('text/html; charset=utf-8');
  expect(withCharset('image/png')).toBe('image/png');
});

/**
 * The help centre (issue 23) on both engines: its search (src/server/content/help-search.ts: accents,
 * case and Spanish word forms ignored, only public help articles, best first, a change seen at once)
 * and the '¿Te resultó útil?' counts (src/server/content/votes.ts, migration 0035: per article, in one
 * statement, parallel votes all counted, only public help articles; moved by `npm run data`).
 */
import { expect, it } from 'vitest';
import type { ArticleInput } from '../../src/domain/articles.ts';
import {
  createArticle,
  publishArticle,
  scheduleArticle,
  unpublishArticle,
  updateArticle,
} from '../../src/server/content/articles.ts';
import { helpQueryTerms, searchHelp } from '../../src/server/content/help-search.ts';
import { recordVote, voteCounts } from '../../src/server/content/votes.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import type { Db } from '../../src/server/db/index.ts';
import * as articleVotes from '../../src/server/db/migrations/0035_article_votes.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };

const help = (slug: string, title: string, overrides: Partial<ArticleInput> = {}): ArticleInput => ({
  kind: 'ayuda',
  title,
  slug,
  excerpt: `Guía: ${title}.`,
  body: 'Sigue estos pasos.',
  coverImage: null,
  coverAlt: '',
  author: '',
  tags: [],
  seoTitle: '',
  seoDescription: '',
  ...overrides,
});

async function published(db: Db, article: ArticleInput): Promise<number> {
  const created = await createArticle(db, article, ANA);
  await publishArticle(db, created.id, created.version, ANA);
  return created.id;
}

const titles = async (db: Db, query: string, now?: Date) =>
  (await searchHelp(db, query, { now })).map((hit) => hit.title);

it('leaves the common words of a question out of its terms', () => {
  expect(helpQueryTerms('¿Cómo puedo imprimir la factura?')).toEqual([['imprim'], ['factur']]);
  // A word's two terms (folded, then stemmed; stemmed as written): a family counts once.
  expect(helpQueryTerms('facturación facturacion factura')).toEqual([['facturacion', 'factur']]);
  expect(helpQueryTerms('de la que')).toEqual([]);
});

describeEachEngine('help centre', (database) => {
  it('searches the public help articles: accents, case and word forms ignored, best first', async () => {
    const { db } = database();
    await published(
      db,
      help('facturacion-electronica', 'Facturación electrónica: primeros pasos', { tags: ['Facturación'] }),
    );
    await published(
      db,
      help('impresora-fiscal', 'Configurar la impresora de tickets', {
        body: 'Para imprimir la factura, elige la impresora.',
      }),
    );
    await published(db, help('usuarios', 'Crear usuarios y permisos', { tags: ['Seguridad'] }));
    // Not help, or not public: never found.
    await published(db, help('blog-facturacion', 'Facturación en el blog', { kind: 'blog' }));
    await createArticle(db, help('borrador-facturacion', 'Facturación (borrador)'), ANA);

    await published(db, help('anular-factura', 'Anular una factura'));

    // 'facturacion', typed without its accent, is of the family of 'factura' too: the title and tags first.
    expect(await titles(db, 'facturacion')).toEqual([
      'Facturación electrónica: primeros pasos',
      'Anular una factura',
      'Configurar la impresora de tickets',
    ]);
    // Both words first; then the articles with one of them ('factura' is of the family of 'facturación').
    expect(await titles(db, 'FACTURACIÓN Electronica')).toEqual([
      'Facturación electrónica: primeros pasos',
      'Anular una factura',
      'Configurar la impresora de tickets',
    ]);
    expect(await titles(db, 'configuración')).toEqual(['Configurar la impresora de tickets']);
    // Word forms: 'imprime' finds 'imprimir', 'facturas' finds 'factura'; the common words count for nothing.
    expect(await titles(db, 'no imprime')).toEqual(['Configurar la impresora de tickets']);
    // More of the query's words first, then where they are (a title before a text).
    expect(await titles(db, 'las facturas y la impresora')).toEqual([
      'Configurar la impresora de tickets',
      'Anular una factura',
      'Facturación electrónica: primeros pasos',
    ]);
    // 'facturas' finds 'Facturación' too (in a title: before a text).
    expect(await titles(db, 'facturas')).toEqual([
      'Anular una factura',
      'Facturación electrónica: primeros pasos',
      'Configurar la impresora de tickets',
    ]);
    expect(await titles(db, 'permisos')).toEqual(['Crear usuarios y permisos']);
    expect(await titles(db, 'seguridad')).toEqual(['Crear usuarios y permisos']);
    expect(await titles(db, 'nómina')).toEqual([]);
    expect(await titles(db, 'de la')).toEqual([]);
    expect(await searchHelp(db, 'facturacion', { limit: 1 })).toHaveLength(1);
  });

  it('follows each change at once: a publish, an edit, an unpublish, a scheduled time reached', async () => {
    const { db } = database();
    expect(await titles(db, 'inventario')).toEqual([]);
    const id = await published(db, help('inventario', 'Ajustar el inventario'));
    expect(await titles(db, 'inventario')).toEqual(['Ajustar el inventario']);
    await updateArticle(db, id, 2, help('inventario', 'Contar el inventario'), ANA);
    expect(await titles(db, 'inventario')).toEqual(['Contar el inventario']);
    await unpublishArticle(db, id, 3, ANA);
    expect(await titles(db, 'inventario')).toEqual([]);

    const scheduled = await createArticle(db, help('cierre', 'Cierre de caja'), ANA);
    const at = new Date(Date.now() + 60_000);
    await scheduleArticle(db, scheduled.id, 1, at, ANA);
    expect(await titles(db, 'caja')).toEqual([]);
    expect(await titles(db, 'caja', new Date(at.getTime() + 1))).toEqual(['Cierre de caja']);
  });

  it("counts '¿Te resultó útil?' per article, parallel votes all counted, public help articles only", async () => {
    const { db } = database();
    const a = await published(db, help('a', 'Artículo A'));
    const b = await published(db, help('b', 'Artículo B'));
    const blog = await published(db, help('blog', 'Del blog', { kind: 'blog' }));
    const draft = await createArticle(db, help('borrador', 'Borrador'), ANA);

    const votes = [...Array.from({ length: 12 }, () => true), ...Array.from({ length: 5 }, () => false)];
    expect(await Promise.all(votes.map((helpful) => recordVote(db, a, helpful)))).toEqual(
      votes.map(() => true),
    );
    expect(await recordVote(db, b, false)).toBe(true);
    expect(await recordVote(db, blog, true)).toBe(false);
    expect(await recordVote(db, draft.id, true)).toBe(false);
    expect(await recordVote(db, 999_999, true)).toBe(false);

    const counts = await voteCounts(db);
    expect(counts.get(a)).toEqual({ helpful: 12, notHelpful: 5 });
    expect(counts.get(b)).toEqual({ helpful: 0, notHelpful: 1 });
    expect(counts.has(blog)).toBe(false);
    expect(counts.has(draft.id)).toBe(false);
  });

  it('moves the counts with `npm run data`', async () => {
    const { db, engine } = database();
    const a = await published(db, help('a', 'Artículo A'));
    await recordVote(db, a, true);
    await recordVote(db, a, false);
    await recordVote(db, a, true);
    const file: unknown = JSON.parse(JSON.stringify(await exportData(db)));
    const target = await createTestDatabase(engine);
    try {
      expect((await importData(target.db, file)).articles).toEqual({ imported: 1, skipped: 0, invalid: 0 });
      const moved = await target.db
        .selectFrom('articles')
        .select('id')
        .where('slug', '=', 'a')
        .executeTakeFirstOrThrow();
      expect((await voteCounts(target.db)).get(Number(moved.id))).toEqual({ helpful: 2, notHelpful: 1 });
    } finally {
      await target.cleanup();
    }
  });

  it('migration 0035 goes down and up again', async () => {
    const { db } = database();
    const a = await published(db, help('a', 'Artículo A'));
    await recordVote(db, a, true);
    await articleVotes.down(db);
    await expect(voteCounts(db)).rejects.toThrow();
    await articleVotes.up(db);
    expect((await voteCounts(db)).size).toBe(0);
    expect(await recordVote(db, a, false)).toBe(true);
    expect((await voteCounts(db)).get(a)).toEqual({ helpful: 0, notHelpful: 1 });
  });
});

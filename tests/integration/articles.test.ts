/**
 * Articles in the database (issue 23, migration 0033) on both engines: the editor's rules (domain
 * schema), the writers with their version check, the states and when an article is public, slug
 * changes kept as 301 addresses, the scheduled time reached with no write, the change notices, and the
 * one-time import of the blog's Markdown articles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ARTICLE_MESSAGES,
  checkArticleForm,
  parseTags,
  slugify,
  type ArticleInput,
} from '../../src/domain/articles.ts';
import { recentEvents } from '../../src/server/audit/index.ts';
import {
  articleById,
  articleBySlug as articleBySlugIn,
  ArticleRefusal,
  createArticle,
  listArticles,
  nextPublishTime,
  publicArticles,
  publicRedirects,
  publishArticle,
  publishDueArticles,
  redirectFor,
  scheduleArticle,
  unpublishArticle,
  updateArticle,
} from '../../src/server/content/articles.ts';
import { onContentChange } from '../../src/server/content/changes.ts';
import {
  BLOG_DIR,
  importMarkdownArticles,
  readFrontMatter,
  readMarkdownArticles,
} from '../../src/server/content/markdown-import.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };
const LUIS = { actorId: 'user-luis', actorEmail: 'luis@vertice.example', network: '203.0.113.0/24' };
const T0 = new Date('2026-03-02T14:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60 * 1000;

function input(overrides: Partial<ArticleInput> = {}): ArticleInput {
  return {
    kind: 'blog',
    title: 'Cómo cerrar el mes en tres días',
    slug: 'como-cerrar-el-mes',
    excerpt: 'Lo que hacen las empresas que cierran rápido: conciliaciones diarias y un calendario.',
    body: '## Un calendario\n\nCada tarea con su día.',
    coverImage: null,
    coverAlt: '',
    author: 'Ana Pérez',
    tags: ['Contabilidad', 'Cierre'],
    seoTitle: '',
    seoDescription: '',
    ...overrides,
  };
}

describe('article rules (src/domain/articles.ts)', () => {
  it('makes a slug from a title: no accents, lowercase, hyphens, at most 80 characters on a word', () => {
    expect(slugify('¿Cómo elegir el mejor ERP en 2025?')).toBe('como-elegir-el-mejor-erp-en-2025');
    expect(slugify('Año nuevo: señales y Ñandú')).toBe('ano-nuevo-senales-y-nandu');
    expect(slugify('  --  ')).toBe('');
    const long = slugify('palabra '.repeat(20));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^(palabra-)*palabra$/);
  });

  it('reads tags as typed, without empties or repeats in any case', () => {
    expect(parseTags(' ERP,  facturación electrónica ,erp,,\nDGII ')).toEqual([
      'ERP',
      'facturación electrónica',
      'DGII',
    ]);
  });

  it('checks the editor form: required fields, limits, slug shape, cover with its description, a slug from the title', () => {
    const empty = checkArticleForm({ tipo: 'blog' });
    expect(empty).toEqual({
      ok: false,
      errors: {
        titulo: ARTICLE_MESSAGES.titleRequired,
        resumen: ARTICLE_MESSAGES.excerptRequired,
        cuerpo: ARTICLE_MESSAGES.bodyRequired,
      },
    });
    // A draft needs only its title (issue 39 §9); publishing or scheduling asks for the rest.
    expect(checkArticleForm({ tipo: 'blog' }, { draft: true })).toEqual({
      ok: false,
      errors: { titulo: ARTICLE_MESSAGES.titleRequired },
    });
    const draft = checkArticleForm({ tipo: 'blog', titulo: 'Solo el título' }, { draft: true });
    expect(draft.ok && [draft.article.slug, draft.article.excerpt, draft.article.body]).toEqual([
      'solo-el-titulo',
      '',
      '',
    ]);
    const bad = checkArticleForm({
      tipo: 'noticia',
      titulo: 'x'.repeat(111),
      slug: 'Con Espacios',
      resumen: 'ok',
      cuerpo: 'ok',
      portada: 'https://evil.example/x.png',
      etiquetas: Array.from({ length: 11 }, (_, i) => `t${i}`).join(','),
      seoDescripcion: 'd'.repeat(201),
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.errors).toEqual({
        tipo: ARTICLE_MESSAGES.kindInvalid,
        titulo: ARTICLE_MESSAGES.titleLong,
        slug: ARTICLE_MESSAGES.slugInvalid,
        portada: ARTICLE_MESSAGES.coverInvalid,
        etiquetas: ARTICLE_MESSAGES.tagsMany,
        seoDescripcion: ARTICLE_MESSAGES.seoDescriptionLong,
      });
    const noAlt = checkArticleForm({
      tipo: 'ayuda',
      titulo: 'Título',
      resumen: 'r',
      cuerpo: 'c',
      portada: 'asset:blog/mejor-erp-2025.svg',
    });
    expect(noAlt).toEqual({ ok: false, errors: { portadaAlt: ARTICLE_MESSAGES.coverAltRequired } });
    const ok = checkArticleForm({
      tipo: 'ayuda',
      titulo: ' Restablecer la contraseña ',
      resumen: 'r',
      cuerpo: 'a\r\nb\u0007',
      etiquetas: 'Cuenta',
    });
    expect(ok).toEqual({
      ok: true,
      article: {
        kind: 'ayuda',
        title: 'Restablecer la contraseña',
        slug: 'restablecer-la-contrasena',
        excerpt: 'r',
        body: 'a\nb',
        coverImage: null,
        coverAlt: '',
        author: '',
        tags: ['Cuenta'],
        seoTitle: '',
        seoDescription: '',
      },
    });
  });

  it("reads the blog files' front matter (quoted values, '' for a quote) and refuses what it does not know", () => {
    expect(readFrontMatter("---\ntitle: 'It''s'\ndate: 2025-01-20\n---\n\nTexto", 'a.md')).toEqual({
      data: { title: "It's", date: '2025-01-20' },
      body: '\nTexto',
    });
    expect(() => readFrontMatter('---\ntags:\n  - a\n---\n', 'b.md')).toThrow(/no reconocida/);
    expect(() => readFrontMatter('Sin encabezado', 'c.md')).toThrow(/front matter/);
  });
});

describeEachEngine('articles', (database) => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('creates a draft, saves it at its version and warns a second editor whose version is stale', async () => {
    const { db } = database();
    let changes = 0;
    stop = await onContentChange(db, () => void (changes += 1));
    const created = await createArticle(db, input(), ANA, T0);
    expect(created).toMatchObject({
      state: 'borrador',
      publishAt: null,
      version: 1,
      slug: 'como-cerrar-el-mes',
      tags: ['Contabilidad', 'Cierre'],
      createdBy: ANA.actorEmail,
    });
    expect(changes).toBe(1);

    const saved = await updateArticle(
      db,
      created.id,
      1,
      input({ title: 'Cerrar el mes en tres días' }),
      ANA,
      later(HOUR),
    );
    expect(saved.kind).toBe('saved');
    if (saved.kind === 'saved')
      expect(saved.article).toMatchObject({
        title: 'Cerrar el mes en tres días',
        version: 2,
        updatedAt: later(HOUR).toISOString(),
      });
    expect(changes).toBe(2);

    // Luis opened version 1 before Ana saved: nothing of his is written.
    const stale = await updateArticle(
      db,
      created.id,
      1,
      input({ excerpt: 'Otro resumen de Luis.' }),
      LUIS,
      later(2 * HOUR),
    );
    expect(stale.kind).toBe('stale');
    if (stale.kind === 'stale')
      expect(stale.current).toMatchObject({ title: 'Cerrar el mes en tres días', version: 2 });
    expect(await articleById(db, created.id)).toMatchObject({ excerpt: input().excerpt, version: 2 });
    expect(changes).toBe(2);
    // Each state change is versioned too.
    expect((await publishArticle(db, created.id, 1, LUIS, later(2 * HOUR))).kind).toBe('stale');

    // A save that changes nothing writes nothing.
    const same = await updateArticle(
      db,
      created.id,
      2,
      input({ title: 'Cerrar el mes en tres días' }),
      ANA,
      later(3 * HOUR),
    );
    expect(same.kind === 'saved' && same.article.version).toBe(2);
    expect(await updateArticle(db, 999, 1, input(), ANA)).toEqual({ kind: 'not-found' });

    const events = (await recentEvents(db)).map((event) => [event.action, event.actorEmail]);
    expect(events).toEqual([
      ['article.edited', ANA.actorEmail],
      ['article.created', ANA.actorEmail],
    ]);
  });

  it('keeps a slug unique within its kind (the same slug may live in the other kind)', async () => {
    const { db } = database();
    const first = await createArticle(db, input(), ANA, T0);
    await expect(createArticle(db, input({ title: 'Otro' }), ANA, T0)).rejects.toThrow(ArticleRefusal);
    await expect(createArticle(db, input({ title: 'Otro' }), ANA, T0)).rejects.toMatchObject({
      errors: { slug: ARTICLE_MESSAGES.slugTaken },
    });
    const help = await createArticle(db, input({ kind: 'ayuda' }), ANA, T0);
    expect(help.slug).toBe(first.slug);
    const second = await createArticle(db, input({ slug: 'otro' }), ANA, T0);
    await expect(
      updateArticle(db, second.id, 1, input({ slug: 'como-cerrar-el-mes' }), ANA, T0),
    ).rejects.toMatchObject({
      errors: { slug: ARTICLE_MESSAGES.slugTaken },
    });
    // Two creations racing for one slug: the unique key refuses one of them.
    const raced = await Promise.allSettled([
      createArticle(db, input({ slug: 'carrera' }), ANA, T0),
      createArticle(db, input({ slug: 'carrera' }), LUIS, T0),
    ]);
    expect(raced.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(raced.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { errors: { slug: ARTICLE_MESSAGES.slugTaken } },
    });
  });

  it('publishes, unpublishes and republishes with the first date; only public articles are listed', async () => {
    const { db } = database();
    const article = await createArticle(db, input(), ANA, T0);
    expect(await publicArticles(db, 'blog', T0)).toEqual([]);
    const published = await publishArticle(db, article.id, 1, ANA, later(HOUR));
    expect(published.kind === 'saved' && published.article).toMatchObject({
      state: 'publicado',
      publishAt: later(HOUR).toISOString(),
      version: 2,
    });
    expect((await publicArticles(db, 'blog', later(HOUR))).map((a) => a.slug)).toEqual([
      'como-cerrar-el-mes',
    ]);
    expect(await publicArticles(db, 'ayuda', later(HOUR))).toEqual([]);

    const unpublished = await unpublishArticle(db, article.id, 2, LUIS, later(2 * HOUR));
    expect(unpublished.kind === 'saved' && unpublished.article).toMatchObject({
      state: 'borrador',
      publishAt: later(HOUR).toISOString(),
      version: 3,
    });
    expect(await publicArticles(db, 'blog', later(2 * HOUR))).toEqual([]);

    const again = await publishArticle(db, article.id, 3, ANA, later(5 * HOUR));
    expect(again.kind === 'saved' && again.article).toMatchObject({
      state: 'publicado',
      publishAt: later(HOUR).toISOString(),
      version: 4,
    });
    // Publishing what is published writes nothing.
    expect(
      (await publishArticle(db, article.id, 4, ANA, later(6 * HOUR))).kind === 'saved' &&
        (await articleById(db, article.id))?.version,
    ).toBe(4);
    expect((await recentEvents(db)).map((event) => event.action)).toEqual([
      'article.published',
      'article.unpublished',
      'article.published',
      'article.created',
    ]);
  });

  it('schedules: public from its time with no write, then marked published; a past time is refused', async () => {
    const { db } = database();
    let changes = 0;
    stop = await onContentChange(db, () => void (changes += 1));
    const a = await createArticle(db, input({ slug: 'a' }), ANA, T0);
    const b = await createArticle(db, input({ slug: 'b' }), ANA, T0);
    await expect(scheduleArticle(db, a.id, 1, T0, ANA, T0)).rejects.toMatchObject({
      errors: { fecha: ARTICLE_MESSAGES.schedulePast },
    });
    await scheduleArticle(db, a.id, 1, later(3 * HOUR), ANA, T0);
    await scheduleArticle(db, b.id, 1, later(2 * HOUR), ANA, T0);
    expect(await nextPublishTime(db, T0)).toBe(later(2 * HOUR).toISOString());
    expect(await publicArticles(db, 'blog', later(HOUR))).toEqual([]);
    // b's time came: public before anything was written, and the next time is a's.
    expect((await publicArticles(db, 'blog', later(2 * HOUR))).map((x) => x.slug)).toEqual(['b']);
    expect(await nextPublishTime(db, later(2 * HOUR))).toBe(later(3 * HOUR).toISOString());
    expect((await publicArticles(db, 'blog', later(4 * HOUR))).map((x) => x.slug)).toEqual(['a', 'b']);

    changes = 0;
    expect(await publishDueArticles(db, later(2 * HOUR))).toBe(1);
    expect(changes).toBe(1);
    expect(await articleById(db, b.id)).toMatchObject({
      state: 'publicado',
      publishAt: later(2 * HOUR).toISOString(),
      version: 2,
    });
    expect(await articleById(db, a.id)).toMatchObject({ state: 'programado' });
    expect(await publishDueArticles(db, later(2 * HOUR))).toBe(0);
    expect(changes).toBe(1);

    // A scheduled article unpublished before its time forgets the time.
    const back = await unpublishArticle(db, a.id, 2, ANA, later(2 * HOUR));
    expect(back.kind === 'saved' && back.article).toMatchObject({ state: 'borrador', publishAt: null });
    expect(await nextPublishTime(db, later(2 * HOUR))).toBeNull();
  });

  it('keeps the old address of a public article after a slug or kind change, for a 301 to the current one', async () => {
    const { db } = database();
    const draft = await createArticle(db, input({ slug: 'borrador-uno' }), ANA, T0);
    // A draft never public leaves no address behind.
    await updateArticle(db, draft.id, 1, input({ slug: 'borrador-dos' }), ANA, T0);
    expect(await redirectFor(db, 'blog', 'borrador-uno', T0)).toBeNull();

    const article = await createArticle(db, input(), ANA, T0);
    await publishArticle(db, article.id, 1, ANA, T0);
    await updateArticle(db, article.id, 2, input({ slug: 'cierre-de-mes' }), ANA, later(HOUR));
    expect(await redirectFor(db, 'blog', 'como-cerrar-el-mes', later(HOUR))).toBe('/blog/cierre-de-mes');
    await updateArticle(
      db,
      article.id,
      3,
      input({ slug: 'cierre-de-mes', kind: 'ayuda' }),
      ANA,
      later(2 * HOUR),
    );
    expect(await redirectFor(db, 'blog', 'como-cerrar-el-mes', later(2 * HOUR))).toBe('/ayuda/cierre-de-mes');
    expect(await redirectFor(db, 'blog', 'cierre-de-mes', later(2 * HOUR))).toBe('/ayuda/cierre-de-mes');
    expect((await publicRedirects(db, later(2 * HOUR))).sort((x, y) => x.from.localeCompare(y.from))).toEqual(
      [
        { from: '/blog/cierre-de-mes', to: '/ayuda/cierre-de-mes' },
        { from: '/blog/como-cerrar-el-mes', to: '/ayuda/cierre-de-mes' },
      ],
    );

    // Back to an address it had: its own again, no longer a redirect.
    await updateArticle(
      db,
      article.id,
      4,
      input({ slug: 'cierre-de-mes', kind: 'blog' }),
      ANA,
      later(3 * HOUR),
    );
    expect(await redirectFor(db, 'blog', 'cierre-de-mes', later(3 * HOUR))).toBeNull();
    expect(await redirectFor(db, 'ayuda', 'cierre-de-mes', later(3 * HOUR))).toBe('/blog/cierre-de-mes');

    // Unpublished, its old addresses answer 404 like the article itself.
    await unpublishArticle(db, article.id, 5, ANA, later(4 * HOUR));
    expect(await redirectFor(db, 'blog', 'como-cerrar-el-mes', later(4 * HOUR))).toBeNull();
    expect(await publicRedirects(db, later(4 * HOUR))).toEqual([]);

    // A new article may take an old address: the live article wins over the redirect.
    const other = await createArticle(
      db,
      input({ slug: 'como-cerrar-el-mes', title: 'Otro artículo' }),
      LUIS,
      later(5 * HOUR),
    );
    expect(other.slug).toBe('como-cerrar-el-mes');
    await publishArticle(db, article.id, 6, ANA, later(5 * HOUR));
    expect(await redirectFor(db, 'blog', 'como-cerrar-el-mes', later(5 * HOUR))).toBeNull();
    expect(await redirectFor(db, 'ayuda', 'cierre-de-mes', later(5 * HOUR))).toBe('/blog/cierre-de-mes');
  });

  it("imports the blog's Markdown articles once, with their slugs, dates, texts and covers", async () => {
    const { db } = database();
    let changes = 0;
    stop = await onContentChange(db, () => void (changes += 1));
    expect(await importMarkdownArticles(db, readMarkdownArticles(), T0)).toBe(3);
    expect(changes).toBe(1);
    const articles = await publicArticles(db, 'blog', T0);
    expect(articles.map((a) => [a.slug, a.publishAt, a.coverImage])).toEqual([
      [
        'integracion-admcloud-restaurantpe',
        '2025-04-15T04:00:00.000Z',
        'asset:blog/integracion-admcloud-restaurantpe.svg',
      ],
      ['mejor-erp-2025', '2025-03-03T04:00:00.000Z', 'asset:blog/mejor-erp-2025.svg'],
      [
        'software-gestion-restaurantes',
        '2025-01-20T04:00:00.000Z',
        'asset:blog/software-gestion-restaurantes.svg',
      ],
    ]);
    for (const article of articles) {
      const { data, body } = readFrontMatter(
        readFileSync(join(BLOG_DIR, `${article.slug}.md`), 'utf8'),
        article.slug,
      );
      expect(article).toMatchObject({
        kind: 'blog',
        state: 'publicado',
        title: data.title,
        excerpt: data.excerpt,
        coverAlt: data.imageAlt,
        body: body.trim(),
        version: 1,
        createdBy: null,
      });
    }
    // Renamed by staff afterwards: a second start imports nothing and brings nothing back.
    const first = articles[0]!;
    await updateArticle(db, first.id, 1, { ...first, slug: 'integracion-admcloud' }, ANA, later(HOUR));
    expect(await importMarkdownArticles(db, readMarkdownArticles(), later(2 * HOUR))).toBeNull();
    expect((await listArticles(db)).length).toBe(3);
    expect(await redirectFor(db, 'blog', 'integracion-admcloud-restaurantpe', later(2 * HOUR))).toBe(
      '/blog/integracion-admcloud',
    );
  });

  it('moves with `npm run data`: articles with their state, dates and old addresses, and the one-time import done', async () => {
    const { db, engine } = database();
    await importMarkdownArticles(db, readMarkdownArticles(), T0);
    const article = await createArticle(db, input({ tags: ['ERP'], author: 'Ana' }), ANA, T0);
    await publishArticle(db, article.id, 1, ANA, later(HOUR));
    await updateArticle(
      db,
      article.id,
      2,
      input({ slug: 'cierre-de-mes', tags: ['ERP'], author: 'Ana' }),
      ANA,
      later(2 * HOUR),
    );
    // A draft of only its title moves too (issue 39 §9: a draft needs nothing else).
    const draft = await createArticle(
      db,
      input({ slug: 'borrador', kind: 'ayuda', excerpt: '', body: '' }),
      LUIS,
      later(3 * HOUR),
    );
    const file: unknown = JSON.parse(JSON.stringify(await exportData(db)));
    const target = await createTestDatabase(engine);
    try {
      const to = target.db;
      const summary = await importData(to, file);
      expect(summary.articles).toEqual({ imported: 5, skipped: 0, invalid: 0 });
      const moved = (await listArticles(to)).map(({ id: _id, version: _version, ...rest }) => rest);
      const source = (await listArticles(db)).map(({ id: _id, version: _version, ...rest }) => rest);
      expect(moved.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(
        source.sort((a, b) => a.slug.localeCompare(b.slug)),
      );
      expect(await redirectFor(to, 'blog', 'como-cerrar-el-mes', later(4 * HOUR))).toBe(
        '/blog/cierre-de-mes',
      );
      expect((await articleBySlugIn(to, 'ayuda', 'borrador'))?.state).toBe(draft.state);
      // The target's first start imports no Markdown article again; the same file again adds nothing.
      expect(await importMarkdownArticles(to, readMarkdownArticles(), later(5 * HOUR))).toBeNull();
      expect((await importData(to, file)).articles).toEqual({ imported: 0, skipped: 5, invalid: 0 });
      // A record the editor would refuse is refused, named.
      const refused: string[] = [];
      const bad = {
        articles: [
          {
            kind: 'blog',
            slug: 'Mal Slug',
            title: 'x',
            excerpt: 'x',
            body: 'x',
            state: 'publicado',
            publishAt: T0.toISOString(),
            createdAt: T0.toISOString(),
          },
        ],
      };
      expect(
        (
          await importData(to, bad, {
            onRefused: (refusal) => refused.push(`${refusal.record}: ${refusal.reason}`),
          })
        ).articles,
      ).toEqual({ imported: 0, skipped: 0, invalid: 1 });
      expect(refused).toEqual([
        `blog/Mal Slug: ${ARTICLE_MESSAGES.slugInvalid.charAt(0).toLowerCase()}${ARTICLE_MESSAGES.slugInvalid.slice(1)}`,
      ]);
    } finally {
      await target.cleanup();
    }
  });

  it('imports once when two processes start at the same time', async () => {
    const { db } = database();
    const articles = readMarkdownArticles();
    const results = await Promise.all([
      importMarkdownArticles(db, articles, T0),
      importMarkdownArticles(db, articles, T0),
    ]);
    expect(results.sort()).toEqual([3, null]);
    expect((await listArticles(db, 'blog')).length).toBe(3);
  });
});

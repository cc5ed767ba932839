/**
 * Revisions and previews of articles (issue 23, migration 0037) on both engines: every save keeps a
 * revision (who, when, the fields), 'Restaurar' is a new save refused on a stale version, the history
 * moves with `npm run data`, and private preview links open a draft for 7 days, by token only.
 */
import { describe, expect, it } from 'vitest';
import type { ArticleInput } from '../../src/domain/articles.ts';
import {
  articleById,
  articleRevisions,
  createArticle,
  publishArticle,
  restoreRevision,
  scheduleArticle,
  updateArticle,
} from '../../src/server/content/articles.ts';
import { importMarkdownArticles, readMarkdownArticles } from '../../src/server/content/markdown-import.ts';
import {
  createPreviewLink,
  articleOfPreviewToken,
  previewArticle,
  PREVIEW_LINK_DAYS,
} from '../../src/server/content/preview.ts';
import { bodyDiff, revisionDiff } from '../../src/server/content/revision-diff.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { hashLinkToken } from '../../src/server/incidents/link-token.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };
const LUIS = { actorId: 'user-luis', actorEmail: 'luis@vertice.example', network: '203.0.113.0/24' };
const T0 = new Date('2026-03-02T14:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function input(overrides: Partial<ArticleInput> = {}): ArticleInput {
  return {
    kind: 'blog',
    title: 'Cómo cerrar el mes en tres días',
    slug: 'como-cerrar-el-mes',
    excerpt: 'Lo que hacen las empresas que cierran rápido.',
    body: '## Un calendario\n\nCada tarea con su día.\n\nUno.\n\nDos.\n\nTres.\n\nCuatro.\n\nCinco.',
    coverImage: null,
    coverAlt: '',
    author: 'Ana Pérez',
    tags: ['Cierre'],
    seoTitle: '',
    seoDescription: '',
    ...overrides,
  };
}

describe('revision diff', () => {
  it('folds long unchanged stretches and keeps what changed, as text', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '<script>x</script>'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'nuevo'].join('\n');
    expect(bodyDiff(before, after)).toEqual([
      { kind: 'folded', count: 6 },
      { kind: 'same', text: 'g' },
      { kind: 'same', text: 'h' },
      { kind: 'removed', text: '<script>x</script>' },
      { kind: 'added', text: 'nuevo' },
    ]);
    expect(bodyDiff('x', 'x')).toEqual([]);
    const diff = revisionDiff(input({ title: 'Antes', tags: ['A', 'B'] }), input());
    expect(diff.fields).toEqual([
      { label: 'Título', before: 'Antes', after: 'Cómo cerrar el mes en tres días' },
      { label: 'Etiquetas', before: 'A, B', after: 'Cierre' },
    ]);
    expect(diff.same).toBe(false);
    expect(revisionDiff(input(), input()).same).toBe(true);
  });
});

describeEachEngine('article revisions and previews', (database) => {
  it('keeps a revision of every save: who, when, the fields, the state', async () => {
    const { db } = database();
    const created = await createArticle(db, input(), ANA, T0);
    await updateArticle(db, created.id, 1, input({ title: 'Segundo título' }), LUIS, later(HOUR));
    // A save that changes nothing writes nothing, and keeps no revision.
    await updateArticle(db, created.id, 2, input({ title: 'Segundo título' }), LUIS, later(HOUR));
    await publishArticle(db, created.id, 2, ANA, later(2 * HOUR));
    const revisions = await articleRevisions(db, created.id);
    expect(revisions.map((r) => [r.version, r.createdBy, r.title, r.state, r.createdAt])).toEqual([
      [3, ANA.actorEmail, 'Segundo título', 'publicado', later(2 * HOUR).toISOString()],
      [2, LUIS.actorEmail, 'Segundo título', 'borrador', later(HOUR).toISOString()],
      [1, ANA.actorEmail, 'Cómo cerrar el mes en tres días', 'borrador', T0.toISOString()],
    ]);
    expect(revisions[2]).toMatchObject({
      body: input().body,
      tags: ['Cierre'],
      author: 'Ana Pérez',
      publishAt: null,
    });
    // The one-time Markdown import keeps one revision per article, by nobody.
    await importMarkdownArticles(db, readMarkdownArticles(), T0);
    const imported = await db
      .selectFrom('articleRevisions')
      .select(['createdBy'])
      .where('articleId', '!=', created.id)
      .execute();
    expect(imported.length).toBe(readMarkdownArticles().length);
    expect(imported.every((row) => row.createdBy === null)).toBe(true);
  });

  it('restores a revision as a new save at the current version; a stale version is refused and writes nothing', async () => {
    const { db } = database();
    const created = await createArticle(db, input(), ANA, T0);
    await updateArticle(db, created.id, 1, input({ title: 'Otro', body: 'Texto nuevo.' }), LUIS, later(HOUR));
    await scheduleArticle(db, created.id, 2, later(10 * DAY), LUIS, later(HOUR));
    const [, , first] = await articleRevisions(db, created.id);
    expect(first?.version).toBe(1);

    // Opened at version 2; someone scheduled it since (version 3): refused, nothing written.
    const stale = await restoreRevision(db, created.id, 2, first!.id, ANA, later(2 * HOUR));
    expect(stale.kind).toBe('stale');
    expect((await articleById(db, created.id))?.title).toBe('Otro');
    expect(await articleRevisions(db, created.id)).toHaveLength(3);

    const restored = await restoreRevision(db, created.id, 3, first!.id, ANA, later(2 * HOUR));
    expect(restored.kind).toBe('saved');
    const now = await articleById(db, created.id);
    // The fields come back; the state stays (still scheduled), the version moves on.
    expect(now).toMatchObject({ title: input().title, body: input().body, state: 'programado', version: 4 });
    const revisions = await articleRevisions(db, created.id);
    expect(revisions).toHaveLength(4);
    expect(revisions[0]).toMatchObject({
      version: 4,
      createdBy: ANA.actorEmail,
      title: input().title,
      state: 'programado',
    });
    const events = await db
      .selectFrom('auditEvents')
      .select(['action', 'detail'])
      .where('action', '=', 'article.restored')
      .execute();
    expect(events).toEqual([{ action: 'article.restored', detail: expect.stringContaining('versión 1') }]);

    // A revision of another article, or none at all, restores nothing.
    const other = await createArticle(db, input({ slug: 'otro' }), ANA, T0);
    const [otherRevision] = await articleRevisions(db, other.id);
    expect((await restoreRevision(db, created.id, 4, otherRevision!.id, ANA)).kind).toBe('no-revision');
    expect((await restoreRevision(db, created.id, 4, 999_999, ANA)).kind).toBe('no-revision');
  });

  it('moves the revisions with `npm run data`; an article exported before them gets one', async () => {
    const { db, engine } = database();
    const created = await createArticle(db, input(), ANA, T0);
    await updateArticle(db, created.id, 1, input({ title: 'Segundo' }), LUIS, later(HOUR));
    const file = JSON.parse(JSON.stringify(await exportData(db))) as {
      articles: Array<Record<string, unknown>>;
    };
    expect((file.articles[0]!.revisions as unknown[]).length).toBe(2);
    const target = await createTestDatabase(engine);
    try {
      expect((await importData(target.db, file)).articles).toEqual({ imported: 1, skipped: 0, invalid: 0 });
      const [moved] = await target.db.selectFrom('articles').select('id').execute();
      const strip = ({ id: _i, articleId: _a, ...rest }: { id: number; articleId: number }) => rest;
      expect((await articleRevisions(target.db, Number(moved!.id))).map(strip)).toEqual(
        (await articleRevisions(db, created.id)).map(strip),
      );
      // A file from before the revisions: the article as imported is its first revision.
      const old = { articles: [{ ...file.articles[0], slug: 'antiguo', revisions: undefined }] };
      expect((await importData(target.db, old)).articles).toEqual({ imported: 1, skipped: 0, invalid: 0 });
      const oldRow = await target.db
        .selectFrom('articles')
        .select('id')
        .where('slug', '=', 'antiguo')
        .executeTakeFirstOrThrow();
      const oldRevisions = await articleRevisions(target.db, Number(oldRow.id));
      expect(oldRevisions.map((r) => [r.title, r.slug, r.createdBy])).toEqual([
        ['Segundo', 'antiguo', LUIS.actorEmail],
      ]);
    } finally {
      await target.cleanup();
    }
  });

  it('opens a draft by a preview link for 7 days: valid, expired, wrong and malformed tokens; staff by address', async () => {
    const { db } = database();
    const draft = await createArticle(db, input(), ANA, T0);
    const link = await createPreviewLink(db, draft.id, ANA, T0);
    expect(link?.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(link?.expiresAt).toBe(later(PREVIEW_LINK_DAYS * DAY).toISOString());
    // Only the hash is stored.
    const stored = await db.selectFrom('articlePreviewLinks').selectAll().execute();
    expect(stored.map((row) => row.tokenHash)).toEqual([hashLinkToken(link!.token)]);
    expect(JSON.stringify(stored)).not.toContain(link!.token);

    expect((await articleOfPreviewToken(db, link!.token, later(DAY)))?.id).toBe(draft.id);
    expect(await articleOfPreviewToken(db, link!.token, later(PREVIEW_LINK_DAYS * DAY))).toBeNull();
    expect(await articleOfPreviewToken(db, 'A'.repeat(24), later(DAY))).toBeNull();
    expect(await articleOfPreviewToken(db, `${link!.token}x`, later(DAY))).toBeNull();
    expect(await articleOfPreviewToken(db, "' or 1=1 --", later(DAY))).toBeNull();

    const anonymous = { staff: false, token: null };
    expect(await previewArticle(db, 'blog', draft.slug, anonymous, later(DAY))).toEqual({ kind: 'none' });
    expect(
      await previewArticle(db, 'blog', draft.slug, { staff: true, token: null }, later(DAY)),
    ).toMatchObject({
      kind: 'preview',
      article: { id: draft.id },
    });
    expect(
      await previewArticle(db, 'blog', draft.slug, { staff: false, token: link!.token }, later(DAY)),
    ).toMatchObject({
      kind: 'preview',
      article: { id: draft.id },
    });
    // Not at another kind's address; at an old slug, to the current one with the token.
    expect(
      await previewArticle(db, 'ayuda', draft.slug, { staff: false, token: link!.token }, later(DAY)),
    ).toEqual({ kind: 'none' });
    await updateArticle(db, draft.id, 1, input({ slug: 'nuevo-slug' }), ANA, later(DAY));
    expect(
      await previewArticle(db, 'blog', draft.slug, { staff: false, token: link!.token }, later(DAY)),
    ).toEqual({
      kind: 'moved',
      to: `/blog/nuevo-slug?vista=${link!.token}`,
    });
    expect(
      await previewArticle(db, 'blog', 'nuevo-slug', { staff: false, token: link!.token }, later(8 * DAY)),
    ).toEqual({ kind: 'none' });
    // A published article is its public page, never a preview.
    await publishArticle(db, draft.id, 2, ANA, later(DAY));
    expect(
      await previewArticle(db, 'blog', 'nuevo-slug', { staff: true, token: link!.token }, later(2 * DAY)),
    ).toEqual({ kind: 'none' });
    // A new link clears the expired ones away.
    await createPreviewLink(db, draft.id, ANA, later(9 * DAY));
    expect(await db.selectFrom('articlePreviewLinks').select('id').execute()).toHaveLength(1);
    expect(await createPreviewLink(db, 999_999, ANA, T0)).toBeNull();
  });
});

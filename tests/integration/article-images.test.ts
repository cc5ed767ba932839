/**
 * Images in an article's text (issue 23, migration 0037) on both engines: re-encoded by sharp as AVIF
 * and WebP at the layout's widths (never wider than the original, turned upright), stored and read
 * back by width and format; what is not an image, or too large, refused; and the Markdown address
 * rendered as a `<picture>` with width and height by the public page's renderer.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ARTICLE_IMAGE_MAX_BYTES,
  ARTICLE_IMAGE_MESSAGES,
  articleImageMarkdown,
  articleImageMarkdownPath,
  parseArticleImageFile,
} from '../../src/domain/article-images.ts';
import {
  ArticleImageRefusal,
  articleImageFile,
  processArticleImage,
  storeArticleImage,
} from '../../src/server/content/images.ts';
import { renderArticleHtml } from '../../src/server/content/render.ts';
import { createArticle, listArticles, articleRevisions } from '../../src/server/content/articles.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

/** An image's key as the addresses carry it. */
const KEY = '0123456789abcdef';

describe('article images: processing and rendering', () => {
  it('makes AVIF and WebP at 360, 720 and 1440 px of a wide image, and only up to its own width of a small one', async () => {
    const wide = await processArticleImage(await png(2000, 1000));
    expect([wide.width, wide.height]).toEqual([1440, 720]);
    expect(wide.files.map((file) => `${file.width}.${file.format}`)).toEqual([
      '360.avif',
      '360.webp',
      '720.avif',
      '720.webp',
      '1440.avif',
      '1440.webp',
    ]);
    for (const file of wide.files) {
      const meta = await sharp(file.data).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([
        file.width,
        file.width / 2,
        file.format === 'avif' ? 'heif' : 'webp',
      ]);
    }
    const small = await processArticleImage(await png(500, 250));
    expect([small.width, small.height]).toEqual([500, 250]);
    expect(small.files.map((file) => `${file.width}.${file.format}`)).toEqual([
      '360.avif',
      '360.webp',
      '500.avif',
      '500.webp',
    ]);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    const sideways = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#000' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await processArticleImage(sideways);
    expect([image.width, image.height]).toEqual([400, 800]);
  });

  it('refuses what is not an image, an empty file and one over the limit', async () => {
    await expect(
      processArticleImage(new TextEncoder().encode('<svg onload="alert(1)"></svg>')),
    ).rejects.toThrow(new ArticleImageRefusal(ARTICLE_IMAGE_MESSAGES.notImage));
    await expect(processArticleImage(new Uint8Array(0))).rejects.toThrow(ARTICLE_IMAGE_MESSAGES.missing);
    await expect(processArticleImage(new Uint8Array(ARTICLE_IMAGE_MAX_BYTES + 1))).rejects.toThrow(
      ARTICLE_IMAGE_MESSAGES.tooLarge,
    );
    const truncated = (await png(600, 300)).subarray(0, 200);
    await expect(processArticleImage(truncated)).rejects.toThrow(ArticleImageRefusal);
  });

  it('renders the Markdown address as a <picture> of AVIF and WebP sources with width and height', async () => {
    const markdown = articleImageMarkdown('Un "gráfico" [de] ventas <b>', {
      id: 12,
      key: KEY,
      width: 1440,
      height: 720,
    });
    expect(markdown).toBe(`![Un "gráfico" de ventas <b>](/blog/imagenes/12-${KEY}-1440x720)`);
    const html = await renderArticleHtml(`Texto.\n\n${markdown}\n`);
    const file = (width: number, format: string) => `/blog/imagenes/12-${KEY}-${width}.${format}`;
    expect(html).toBe(
      '<p>Texto.</p>\n<p><picture>' +
        `<source type="image/avif" srcset="${file(360, 'avif')} 360w, ${file(720, 'avif')} 720w, ${file(1440, 'avif')} 1440w" sizes="(min-width: 768px) 720px, calc(100vw - 2rem)" />` +
        `<source type="image/webp" srcset="${file(360, 'webp')} 360w, ${file(720, 'webp')} 720w, ${file(1440, 'webp')} 1440w" sizes="(min-width: 768px) 720px, calc(100vw - 2rem)" />` +
        `<img src="${file(720, 'webp')}" alt="Un “gráfico” de ventas &lt;b&gt;" width="1440" height="720" loading="lazy" decoding="async" />` +
        '</picture></p>\n',
    );
    // Any other image is what it was; a look-alike address (no key, or not the Markdown's form) is an ordinary image.
    expect(await renderArticleHtml('![x](/blog/imagenes/12-1440x720)')).toBe(
      '<p><img src="/blog/imagenes/12-1440x720" alt="x" /></p>\n',
    );
    expect(await renderArticleHtml(`![x](/blog/imagenes/12-${KEY}-1440x720.png)`)).toBe(
      `<p><img src="/blog/imagenes/12-${KEY}-1440x720.png" alt="x" /></p>\n`,
    );
    expect(parseArticleImageFile(`12-${KEY}-720.webp`)).toEqual({
      id: 12,
      key: KEY,
      width: 720,
      format: 'webp',
    });
    expect(parseArticleImageFile('12-720.webp')).toBeNull();
    expect(parseArticleImageFile(`12-${KEY}-720.svg`)).toBeNull();
    expect(parseArticleImageFile(`../12-${KEY}-720.webp`)).toBeNull();
  });
});

describeEachEngine('article images: stored', (database) => {
  it('stores the files and reads each back by width and format', async () => {
    const { db } = database();
    const processed = await processArticleImage(await png(1000, 500));
    const stored = await storeArticleImage(db, processed, 'ana@vertice.example');
    expect(stored).toMatchObject({ width: 1000, height: 500, key: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const webp = await articleImageFile(db, stored, 720, 'webp');
    expect(
      Buffer.from(webp!).equals(
        Buffer.from(processed.files.find((f) => f.width === 720 && f.format === 'webp')!.data),
      ),
    ).toBe(true);
    expect((await sharp(webp!).metadata()).width).toBe(720);
    expect(await articleImageFile(db, stored, 1440, 'webp')).toBeNull();
    expect(await articleImageFile(db, { ...stored, id: stored.id + 1 }, 720, 'webp')).toBeNull();
    // Without its key, no file: the images of an article not yet public cannot be found by counting ids.
    const wrongKey = stored.key.replace(/^./, (digit) => (digit === '0' ? '1' : '0'));
    expect(await articleImageFile(db, { id: stored.id, key: wrongKey }, 720, 'webp')).toBeNull();
    expect((await storeArticleImage(db, processed, null)).key).not.toBe(stored.key);
  });

  it('moves with `npm run data`: the files in the export, the texts naming the ids of the target; twice imports once', async () => {
    const { db, engine } = database();
    const image = await storeArticleImage(
      db,
      await processArticleImage(await png(800, 400)),
      'ana@vertice.example',
    );
    const markdown = articleImageMarkdown('Gráfico', image);
    await createArticle(
      db,
      {
        kind: 'blog',
        slug: 'con-imagen',
        title: 'Con imagen',
        excerpt: 'Un artículo con una imagen.',
        body: `Texto.\n\n${markdown}`,
        coverImage: articleImageMarkdownPath(image),
        coverAlt: 'Un gráfico',
        author: '',
        tags: [],
        seoTitle: '',
        seoDescription: '',
      },
      null,
    );
    const file = JSON.parse(JSON.stringify(await exportData(db))) as Record<string, unknown>;
    expect(file.articleImages).toEqual([
      expect.objectContaining({
        id: image.id,
        key: image.key,
        width: 800,
        height: 400,
        createdByEmail: 'ana@vertice.example',
        files: expect.any(Array),
      }),
    ]);
    const target = await createTestDatabase(engine);
    try {
      // The target has an image of its own already: the moved one gets another id.
      const own = await storeArticleImage(target.db, await processArticleImage(await png(300, 300)), null);
      expect((await importData(target.db, file)).articles).toEqual({ imported: 1, skipped: 0, invalid: 0 });
      const [moved] = await listArticles(target.db);
      const here = Number(/imagenes\/(\d+)-[0-9a-f]{16}-800x400/.exec(moved!.body)?.[1]);
      expect(here).not.toBe(own.id);
      // Its key moves with it.
      const movedImage = { ...image, id: here };
      expect(moved!.body).toBe(`Texto.\n\n${articleImageMarkdown('Gráfico', movedImage)}`);
      // The cover, the same image, names its id here too.
      expect(moved!.coverImage).toBe(articleImageMarkdownPath(movedImage));
      expect((await articleRevisions(target.db, moved!.id))[0]?.body).toBe(moved!.body);
      expect((await articleRevisions(target.db, moved!.id))[0]?.coverImage).toBe(moved!.coverImage);
      for (const [width, format] of [
        [360, 'avif'],
        [800, 'webp'],
      ] as const)
        expect(
          Buffer.from((await articleImageFile(target.db, movedImage, width, format))!).equals(
            Buffer.from((await articleImageFile(db, image, width, format))!),
          ),
        ).toBe(true);
      await importData(target.db, file);
      expect(await target.db.selectFrom('articleImages').select('id').execute()).toHaveLength(2);
    } finally {
      await target.cleanup();
    }
  });
});

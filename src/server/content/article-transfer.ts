/**
 * The articles of 'Contenido' in `npm run data` (issue 23; issue 40: each area moves its own rows):
 * each article with its old addresses, its '¿Te resultó útil?' counts and its revisions, staff by
 * e-mail; and the images of their texts (migration 0037), each file's bytes in the file's `blobs`.
 * Imported by the editor's rules (src/domain/articles.ts), before which the images are stored and the
 * texts' addresses made to name them here.
 */
import { createHash } from 'node:crypto';
import { ARTICLE_IMAGE_KEY } from '../../domain/article-images.ts';
import {
  ARTICLE_LIMITS,
  ARTICLE_MESSAGES,
  checkArticleForm,
  isArticleKind,
  isArticleState,
  isSlug,
} from '../../domain/articles.ts';
import {
  blobBytes,
  email,
  RecordRefused,
  refusedWith,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Blobs,
  type ExportedBlobs,
  type Outcome,
} from '../data-records.ts';
import type { Db } from '../db/index.ts';
import { articleFields, articleFieldsRow, recordRevision, toArticle, toRevision } from './articles.ts';
import { newArticleImageKey } from './images.ts';
import { voteCounts } from './votes.ts';

/** The fields of an article, or of one of its revisions, as exported. */
export interface ExportedArticleFields {
  kind: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  coverImage: string | null;
  coverAlt: string;
  author: string;
  tags: string[];
  seoTitle: string;
  seoDescription: string;
  state: string;
  publishAt: string | null;
}

/** An article of 'Contenido' (issue 23), with the old addresses that redirect to it; staff by e-mail. */
export interface ExportedArticle extends ExportedArticleFields {
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
  oldSlugs: Array<{ kind: string; slug: string; createdAt: string }>;
  /** A help article's '¿Te resultó útil?' counts (migration 0035); absent when never voted on. */
  votes?: { helpful: number; notHelpful: number };
  /** Its revisions ('Historial', migration 0037), oldest first; files exported before them have none. */
  revisions?: ExportedArticleRevision[];
}

/** An image of an article's text: its id here (the texts name it), size, who and when; each file by width and format, its bytes in `blobs`. */
export interface ExportedArticleImage {
  id: number;
  /** The random key its addresses carry (src/domain/article-images.ts). */
  key: string;
  width: number;
  height: number;
  createdAt: string;
  createdByEmail: string | null;
  files: Array<{ width: number; format: string; sha256: string }>;
}

/** A revision of an article: the fields one save left, its version, state, time and who (by e-mail). */
export interface ExportedArticleRevision extends ExportedArticleFields {
  version: number;
  createdAt: string;
  createdByEmail: string | null;
}

/** Every article, oldest first, with its old addresses, votes and revisions. */
export async function exportArticles(db: Db): Promise<ExportedArticle[]> {
  const articles = await db.selectFrom('articles').selectAll().orderBy('createdAt').orderBy('id').execute();
  const oldSlugs = Map.groupBy(
    await db.selectFrom('articleSlugs').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.articleId,
  );
  const votes = await voteCounts(db);
  const revisions = Map.groupBy(
    await db.selectFrom('articleRevisions').selectAll().orderBy('articleId').orderBy('id').execute(),
    (row) => row.articleId,
  );
  return articles.map((row) => {
    const article = toArticle(row);
    return {
      ...articleFields(article),
      createdAt: article.createdAt,
      createdByEmail: article.createdBy,
      updatedAt: article.updatedAt,
      updatedByEmail: article.updatedBy,
      oldSlugs: (oldSlugs.get(row.id) ?? []).map((old) => ({
        kind: old.kind,
        slug: old.slug,
        createdAt: old.createdAt,
      })),
      ...(votes.has(article.id) ? { votes: votes.get(article.id) } : {}),
      revisions: (revisions.get(row.id) ?? []).map((revision) => ({
        version: Number(revision.version),
        ...articleFields(toRevision(revision)),
        createdAt: revision.createdAt,
        createdByEmail: revision.createdBy,
      })),
    };
  });
}

/** Every image of the articles' texts, by id; each of its files' bytes added to `blobs`. */
export async function exportArticleImages(db: Db, blobs: ExportedBlobs): Promise<ExportedArticleImage[]> {
  const imageFiles = Map.groupBy(
    await db
      .selectFrom('articleImageFiles')
      .selectAll()
      .orderBy('imageId')
      .orderBy('width')
      .orderBy('format')
      .execute(),
    (row) => row.imageId,
  );
  return (await db.selectFrom('articleImages').selectAll().orderBy('id').execute()).map((image) => ({
    id: Number(image.id),
    key: image.key,
    width: image.width,
    height: image.height,
    createdAt: image.createdAt,
    createdByEmail: image.createdBy,
    files: (imageFiles.get(image.id) ?? []).map((file) => {
      const sha256 = createHash('sha256').update(file.data).digest('hex');
      blobs[sha256] = Buffer.from(file.data).toString('base64');
      return { width: file.width, format: file.format, sha256 };
    }),
  }));
}

/** The file's article images' ids → their ids and keys here. */
export type ArticleImageIds = ReadonlyMap<number, { id: number; key: string }>;

const STAFF_EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * The images of articles' texts (migration 0037), before the articles, which name them by id: each
 * stored here under a new id (the file's ids → these, for {@link importArticle}), or, when the same
 * image is here already (its largest WebP byte for byte), that one's id. An image whose files are
 * missing or altered is left out (the text then names an image that is not here).
 */
export async function importArticleImages(trx: Db, images: unknown, blobs: Blobs): Promise<ArticleImageIds> {
  const ids = new Map<number, { id: number; key: string }>();
  for (const raw of Array.isArray(images) ? images : []) {
    const image = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const { id, width, height } = image;
    if (![id, width, height].every((value) => Number.isSafeInteger(value) && (value as number) > 0)) continue;
    let files: Array<{ width: number; format: string; data: Uint8Array }>;
    try {
      files = (Array.isArray(image.files) ? image.files : []).flatMap((file) => {
        const { width: fileWidth, format, sha256 } = (file ?? {}) as Record<string, unknown>;
        if (!Number.isSafeInteger(fileWidth) || (format !== 'avif' && format !== 'webp')) return [];
        const data = blobBytes(blobs, sha256);
        return data ? [{ width: fileWidth as number, format, data }] : [];
      });
    } catch (error) {
      if (error instanceof RecordRefused) continue;
      throw error;
    }
    const largest = files.find((file) => file.width === width && file.format === 'webp');
    if (!largest) continue;
    const same = await trx
      .selectFrom('articleImageFiles')
      .innerJoin('articleImages', 'articleImages.id', 'articleImageFiles.imageId')
      .select(['articleImageFiles.imageId', 'articleImages.key'])
      .where('articleImageFiles.width', '=', width as number)
      .where('articleImageFiles.format', '=', 'webp')
      .where('articleImageFiles.data', '=', Buffer.from(largest.data))
      .executeTakeFirst();
    if (same) {
      ids.set(id as number, { id: Number(same.imageId), key: same.key });
      continue;
    }
    // Its key moves with it, so the addresses shared before the move still open it.
    const key =
      typeof image.key === 'string' && ARTICLE_IMAGE_KEY.test(image.key) ? image.key : newArticleImageKey();
    const row = await trx
      .insertInto('articleImages')
      .values({
        key,
        width: width as number,
        height: height as number,
        createdAt: toIsoTime(image.createdAt) ?? new Date().toISOString(),
        createdBy:
          typeof image.createdByEmail === 'string' && STAFF_EMAIL_SHAPE.test(image.createdByEmail)
            ? image.createdByEmail
            : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const file of files)
      await trx
        .insertInto('articleImageFiles')
        .values({
          imageId: Number(row.id),
          width: file.width,
          format: file.format,
          data: Buffer.from(file.data),
        })
        .onConflict((oc) => oc.columns(['imageId', 'width', 'format']).doNothing())
        .execute();
    ids.set(id as number, { id: Number(row.id), key });
  }
  return ids;
}

/** An exported text with its images' addresses naming their ids (and keys) here. */
function withImagesHere(body: unknown, imageIds: ArticleImageIds): unknown {
  if (typeof body !== 'string' || imageIds.size === 0) return body;
  return body.replace(
    /(\/blog\/imagenes\/)([1-9]\d{0,9})-[0-9a-f]{16}(-\d{1,5}x\d{1,5}\))/g,
    (whole, prefix: string, id: string, rest: string) => {
      const here = imageIds.get(Number(id));
      return here === undefined ? whole : `${prefix}${here.id}-${here.key}${rest}`;
    },
  );
}

/** An exported cover that names an image of the texts, naming its id here. */
function coverHere(cover: unknown, imageIds: ArticleImageIds): unknown {
  if (typeof cover !== 'string') return cover;
  const match = /^(\/blog\/imagenes\/)([1-9]\d{0,9})-[0-9a-f]{16}(-\d{1,5}x\d{1,5})$/.exec(cover);
  const here = match ? imageIds.get(Number(match[2])) : undefined;
  return match && here !== undefined ? `${match[1]}${here.id}-${here.key}${match[3]}` : cover;
}

/** An exported article's (or revision's) fields checked by the editor's rules (a draft needs only its title). */
const checkedArticleRecord = (record: Record<string, unknown>) =>
  checkArticleForm(
    {
      tipo: text(record.kind, 20),
      titulo: text(record.title, ARTICLE_LIMITS.title * 4),
      slug: text(record.slug, ARTICLE_LIMITS.slug * 4),
      resumen: text(record.excerpt, ARTICLE_LIMITS.excerpt * 4),
      cuerpo: text(record.body, ARTICLE_LIMITS.body * 2),
      portada: text(record.coverImage, 200),
      portadaAlt: text(record.coverAlt, ARTICLE_LIMITS.coverAlt * 4),
      autor: text(record.author, ARTICLE_LIMITS.author * 4),
      etiquetas: Array.isArray(record.tags) ? record.tags.map((tag) => text(tag, 200)).join(',') : '',
      seoTitulo: text(record.seoTitle, ARTICLE_LIMITS.seoTitle * 4),
      seoDescripcion: text(record.seoDescription, ARTICLE_LIMITS.seoDescription * 4),
    },
    { draft: record.state === 'borrador' },
  );

/**
 * An article's revisions ('Historial', migration 0037), oldest first as exported; one that the editor
 * would refuse, or without its time, is left out (history, not the article). An article exported
 * before revisions existed gets one: itself as imported.
 */
async function importArticleRevisions(
  trx: Db,
  articleId: number,
  revisions: unknown,
  fallback: () => Promise<void>,
): Promise<void> {
  let kept = 0;
  for (const raw of Array.isArray(revisions) ? revisions : []) {
    const revision = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const checked = checkedArticleRecord(revision);
    const createdAt = toIsoTime(revision.createdAt);
    const version = Number(revision.version);
    if (
      !checked.ok ||
      !createdAt ||
      !isArticleState(revision.state) ||
      !Number.isSafeInteger(version) ||
      version < 1
    )
      continue;
    const publishAt = revision.publishAt == null ? null : toIsoTime(revision.publishAt);
    let createdBy: string | null = null;
    try {
      createdBy = email(revision.createdByEmail, STAFF_EMAIL, 'el correo de quien la guardó', true);
    } catch {
      createdBy = null;
    }
    await trx
      .insertInto('articleRevisions')
      .values({
        articleId,
        version,
        ...articleFieldsRow(checked.article),
        state: revision.state,
        publishAt,
        createdAt,
        createdBy,
      })
      .execute();
    kept += 1;
  }
  if (kept === 0) await fallback();
}

/**
 * An article of 'Contenido' (issue 23), by the editor's rules (src/domain/articles.ts), with its state,
 * dates and old addresses; one whose address (kind and slug) is already here is skipped, and an old
 * address another article holds here is left out. `images`: {@link importArticleImages}' answer.
 */
export async function importArticle(
  trx: Db,
  exported: Record<string, unknown>,
  images: ArticleImageIds,
): Promise<Outcome> {
  const record: Record<string, unknown> = {
    ...exported,
    body: withImagesHere(exported.body, images),
    coverImage: coverHere(exported.coverImage, images),
    revisions: Array.isArray(exported.revisions)
      ? exported.revisions.map((revision) =>
          revision && typeof revision === 'object'
            ? {
                ...(revision as Record<string, unknown>),
                body: withImagesHere((revision as Record<string, unknown>).body, images),
                coverImage: coverHere((revision as Record<string, unknown>).coverImage, images),
              }
            : revision,
        )
      : exported.revisions,
  };
  const checked = checkedArticleRecord(record);
  if (!checked.ok) throw refusedWith(Object.values(checked.errors)[0] ?? 'el artículo no es válido.');
  const article = checked.article;
  if (record.slug !== article.slug) throw refusedWith(ARTICLE_MESSAGES.slugInvalid);
  if (!isArticleState(record.state))
    throw new RecordRefused('el estado no es Borrador, Programado ni Publicado.');
  const publishAt = record.publishAt == null ? null : toIsoTime(record.publishAt);
  if (record.publishAt != null && !publishAt)
    throw new RecordRefused('la fecha de publicación no es una fecha.');
  if (record.state !== 'borrador' && !publishAt)
    throw new RecordRefused('un artículo publicado o programado necesita su fecha de publicación.');
  const taken = await trx
    .selectFrom('articles')
    .select('id')
    .where('kind', '=', article.kind)
    .where('slug', '=', article.slug)
    .executeTakeFirst();
  if (taken) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new RecordRefused('la fecha de creación falta o no es una fecha.');
  const updatedAt = toIsoTime(record.updatedAt) ?? createdAt;
  // An old address of another article here gives way to this article's own address.
  await trx
    .deleteFrom('articleSlugs')
    .where('kind', '=', article.kind)
    .where('slug', '=', article.slug)
    .execute();
  const row = await trx
    .insertInto('articles')
    .values({
      ...articleFieldsRow(article),
      state: record.state,
      publishAt,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo creó', true),
      updatedAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await importArticleRevisions(trx, Number(row.id), record.revisions, () =>
    recordRevision(trx, row, row.updatedBy, row.updatedAt),
  );
  for (const old of Array.isArray(record.oldSlugs) ? record.oldSlugs : []) {
    const { kind, slug, createdAt: movedAt } = (old ?? {}) as Record<string, unknown>;
    if (!isArticleKind(kind) || typeof slug !== 'string' || !isSlug(slug)) continue;
    const holder = await trx
      .selectFrom('articles')
      .select('id')
      .where('kind', '=', kind)
      .where('slug', '=', slug)
      .executeTakeFirst();
    const redirect = await trx
      .selectFrom('articleSlugs')
      .select('id')
      .where('kind', '=', kind)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (holder || redirect) continue;
    await trx
      .insertInto('articleSlugs')
      .values({ articleId: row.id, kind, slug, createdAt: toIsoTime(movedAt) ?? updatedAt })
      .execute();
  }
  // A help article's '¿Te resultó útil?' counts (whole numbers of at least 0; anything else counts 0).
  const votes = (record.votes ?? {}) as Record<string, unknown>;
  const count = (value: unknown) =>
    Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : 0;
  if (article.kind === 'ayuda' && (count(votes.helpful) || count(votes.notHelpful)))
    await trx
      .insertInto('articleVotes')
      .values({
        articleId: row.id,
        helpful: count(votes.helpful),
        notHelpful: count(votes.notHelpful),
        updatedAt,
      })
      .execute();
  return 'imported';
}

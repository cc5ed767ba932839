/**
 * The blog's Markdown articles (src/content/blog/*.md), imported into `articles` once, on the first
 * start after migration 0033 (`npm start`: src/server/startup.ts). Each keeps its slug (the file
 * name), title, excerpt, text, date and cover illustration, so every URL, image, date and text stays
 * the same; `content_imports` remembers the import, so an article staff later delete or rename is
 * never brought back. Several processes starting at once import once: the marker's primary key
 * decides, in the import's transaction.
 *
 * Dates: a file's `date` is a calendar day; the article is dated at 00:00 in Santo Domingo that day,
 * so the day shown (in Santo Domingo, like every other date of the site) is the file's.
 * Cover: `../../assets/blog/<file>` becomes `asset:blog/<file>`, the illustration the build processes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArticleForm, type ArticleInput } from '../../domain/articles.ts';
import { articleFieldsRow, recordRevision } from './articles.ts';
import { santoDomingoInstant } from '../../domain/forms/meeting.ts';
import type { Db } from '../db/index.ts';
import { contentChanged } from './changes.ts';

export const BLOG_IMPORT = 'blog-markdown';
export const BLOG_DIR = fileURLToPath(new URL('../../content/blog/', import.meta.url));

export interface MarkdownArticle {
  input: ArticleInput;
  /** ISO 8601 UTC. */
  publishAt: string;
}

/**
 * The front matter of our own files: `key: value` lines, a value bare or in single quotes (`''` for a
 * quote) as YAML writes it. Anything else is refused by name rather than guessed.
 */
export function readFrontMatter(
  source: string,
  file: string,
): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: falta el encabezado (front matter)`);
  const data: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const field = /^([A-Za-z][A-Za-z0-9]*):\s*(.*)$/.exec(line);
    if (!field) throw new Error(`${file}: línea del encabezado no reconocida: ${line}`);
    const raw = field[2]!.trim();
    const quoted = /^'((?:[^']|'')*)'$/.exec(raw);
    if (!quoted && /^["'|>[{&*!%@`]/.test(raw))
      throw new Error(`${file}: valor no reconocido en ${field[1]}`);
    data[field[1]!] = quoted ? quoted[1]!.replace(/''/g, "'") : raw;
  }
  return { data, body: match[2]! };
}

/** One Markdown file as an article, checked by the editor's own rules. */
export function markdownArticle(source: string, file: string): MarkdownArticle {
  const { data, body } = readFrontMatter(source, file);
  const slug = basename(file, '.md');
  const image = /^\.\.\/\.\.\/assets\/blog\/([a-z0-9-]+\.[a-z]+)$/.exec(data.image ?? '');
  if (!image) throw new Error(`${file}: la imagen debe estar en src/assets/blog`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(data.date ?? '')) throw new Error(`${file}: fecha no válida`);
  const checked = checkArticleForm({
    tipo: 'blog',
    titulo: data.title ?? '',
    slug,
    resumen: data.excerpt ?? '',
    cuerpo: body,
    portada: `asset:blog/${image[1]}`,
    portadaAlt: data.imageAlt ?? '',
    autor: '',
    etiquetas: '',
    seoTitulo: '',
    seoDescripcion: '',
  });
  if (!checked.ok)
    throw new Error(
      `${file}: ${Object.entries(checked.errors)
        .map(([field, message]) => `${field}: ${message}`)
        .join('; ')}`,
    );
  return { input: checked.article, publishAt: santoDomingoInstant(data.date!, '00:00').toISOString() };
}

/** Every `*.md` of a folder, by file name. */
export function readMarkdownArticles(dir: string = BLOG_DIR): MarkdownArticle[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => markdownArticle(readFileSync(join(dir, name), 'utf8'), name));
}

/**
 * Imports the articles once: null when this database already had the import, else how many articles
 * were written (a slug already taken is left alone). Published, dated as their files say.
 */
export async function importMarkdownArticles(
  db: Db,
  articles: MarkdownArticle[] = readMarkdownArticles(),
  now: Date = new Date(),
): Promise<number | null> {
  const written = await db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('contentImports')
      .values({ name: BLOG_IMPORT, importedAt: now.toISOString(), items: articles.length })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!marker) return null;
    let count = 0;
    for (const { input, publishAt } of articles) {
      const taken = await trx
        .selectFrom('articles')
        .select('id')
        .where('kind', '=', input.kind)
        .where('slug', '=', input.slug)
        .executeTakeFirst();
      if (taken) continue;
      const row = await trx
        .insertInto('articles')
        .values({
          ...articleFieldsRow(input),
          state: 'publicado',
          publishAt,
          createdAt: now.toISOString(),
          createdBy: null,
          updatedAt: now.toISOString(),
          updatedBy: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordRevision(trx, row, null, now.toISOString());
      count += 1;
    }
    return count;
  });
  if (written) contentChanged(db);
  return written;
}

/**
 * Articles of the blog and the help centre (issue 23): the vocabulary (kinds, states and their Spanish
 * labels), the rules of an article's fields as a `zod/mini` schema over the editor's form fields, the
 * slug made from a title, and where a public article lives. Free of server code: the staff editor, the
 * actions and src/server/content/ share it.
 */
import * as z from 'zod/mini';
import { parseArticleImagePath } from './article-images.ts';
import { cleanText, firstMessagePerField } from './forms/common.ts';
import { santoDomingoInstant } from './forms/meeting.ts';
import { formatNumber } from './numbers.ts';

export const ARTICLE_KINDS = ['blog', 'ayuda'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];
export const ARTICLE_KIND_LABELS: Record<ArticleKind, string> = { blog: 'Blog', ayuda: 'Ayuda' };

export const ARTICLE_STATES = ['borrador', 'programado', 'publicado'] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];
export const ARTICLE_STATE_LABELS: Record<ArticleState, string> = {
  borrador: 'Borrador',
  programado: 'Programado',
  publicado: 'Publicado',
};

export const isArticleKind = (value: unknown): value is ArticleKind =>
  ARTICLE_KINDS.includes(value as ArticleKind);
export const isArticleState = (value: unknown): value is ArticleState =>
  ARTICLE_STATES.includes(value as ArticleState);

export const ARTICLE_LIMITS = {
  title: 110,
  slug: 80,
  excerpt: 200,
  body: 100_000,
  coverAlt: 200,
  author: 100,
  tag: 40,
  tags: 10,
  seoTitle: 110,
  seoDescription: 200,
} as const;

export const ARTICLE_MESSAGES = {
  titleRequired: 'Escribe el título.',
  titleLong: `El título admite hasta ${ARTICLE_LIMITS.title} caracteres.`,
  slugInvalid:
    'La dirección solo admite letras minúsculas sin tilde, números y guiones (p. ej. como-elegir-un-erp).',
  slugLong: `La dirección admite hasta ${ARTICLE_LIMITS.slug} caracteres.`,
  slugTaken: 'Ya hay otro artículo con esa dirección.',
  excerptRequired: 'Escribe el resumen: hace falta para publicar o programar el artículo.',
  excerptLong: `El resumen admite hasta ${ARTICLE_LIMITS.excerpt} caracteres.`,
  bodyRequired: 'Escribe el texto del artículo: hace falta para publicar o programar.',
  bodyLong: `El texto admite hasta ${formatNumber(ARTICLE_LIMITS.body)} caracteres.`,
  coverInvalid: 'La imagen de portada no es válida.',
  coverAltRequired: 'Describe la imagen de portada (texto alternativo).',
  coverAltLong: `La descripción de la imagen admite hasta ${ARTICLE_LIMITS.coverAlt} caracteres.`,
  authorLong: `El autor admite hasta ${ARTICLE_LIMITS.author} caracteres.`,
  tagLong: `Cada etiqueta admite hasta ${ARTICLE_LIMITS.tag} caracteres.`,
  tagsMany: `Un artículo admite hasta ${ARTICLE_LIMITS.tags} etiquetas.`,
  seoTitleLong: `El título SEO admite hasta ${ARTICLE_LIMITS.seoTitle} caracteres.`,
  seoDescriptionLong: `La descripción SEO admite hasta ${ARTICLE_LIMITS.seoDescription} caracteres.`,
  kindInvalid: 'Elige Blog o Ayuda.',
  scheduleRequired: 'Indica la fecha y la hora de publicación.',
  schedulePast: 'La fecha de publicación debe ser futura.',
  stale:
    'Otra persona guardó este artículo mientras lo editabas. Revisa sus cambios antes de guardar de nuevo.',
  notFound: 'El artículo ya no existe.',
} as const;

/** A cover image the build processed: `asset:blog/<file>` (src/assets/blog/<file>). */
const ASSET_COVER = /^asset:blog\/[a-z0-9][a-z0-9-]*\.(svg|png|jpe?g|webp|avif)$/;
/**
 * A cover: an illustration the build processed, or an image uploaded into an article's text, by the
 * address its Markdown names (`/blog/imagenes/{id}-{key}-{width}x{height}`, src/domain/article-images.ts).
 */
export const isCoverReference = (value: string): boolean =>
  ASSET_COVER.test(value) || parseArticleImagePath(value) !== null;

/** A slug: lowercase ASCII letters and digits in words joined by single hyphens. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isSlug = (value: string): boolean => SLUG.test(value) && value.length <= ARTICLE_LIMITS.slug;

/** The slug of a title: accents dropped, lowercase, every run of other characters one hyphen, at most 80 characters on a word boundary. */
export function slugify(title: string): string {
  const words = title
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/ñ/g, 'n')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (words.length <= ARTICLE_LIMITS.slug) return words;
  const cut = words.slice(0, ARTICLE_LIMITS.slug + 1);
  const end = cut.lastIndexOf('-');
  return (end > 0 ? cut.slice(0, end) : cut.slice(0, ARTICLE_LIMITS.slug)).replace(/-+$/g, '');
}

/** Tags as typed ('ERP, facturación, erp'): trimmed, one space inside, empty ones and repeats (any case) left out. */
export function parseTags(value: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of value.split(/[,\n]/)) {
    const tag = part.replace(/\s+/g, ' ').trim();
    const key = tag.toLocaleLowerCase('es');
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

/** The public path of an article: `/blog/{slug}` or `/ayuda/{slug}`. */
export function articlePathOf(kind: ArticleKind, slug: string): string {
  return `/${kind}/${slug}`;
}

/**
 * An article's social card (its og:image and the image of its JSON-LD). An article imported from the
 * Markdown files, still at its first slug with its own illustration, keeps the card the build made
 * from that illustration (`/og/blog/{slug}.png`: the same address and image as before the import).
 * Every other article gets a card with its title, made by the server when the article goes public
 * (src/server/content/public-pages.ts, src/server/content/social-card.ts).
 */
export function socialCardPathOf(article: {
  kind: ArticleKind;
  slug: string;
  coverImage: string | null;
}): string {
  return article.kind === 'blog' && article.coverImage === `asset:blog/${article.slug}.svg`
    ? `/og/blog/${article.slug}.png`
    : `/og/articulos/${article.kind}/${article.slug}.png`;
}

/** Whether the server makes the article's card (not the build): see {@link socialCardPathOf}. */
export const hasServerCard = (article: {
  kind: ArticleKind;
  slug: string;
  coverImage: string | null;
}): boolean => socialCardPathOf(article).startsWith('/og/articulos/');

/** An article's fields, checked (what src/server/content/ writes). */
export interface ArticleInput {
  kind: ArticleKind;
  title: string;
  slug: string;
  excerpt: string;
  /** Markdown. */
  body: string;
  coverImage: string | null;
  coverAlt: string;
  author: string;
  tags: string[];
  seoTitle: string;
  seoDescription: string;
}

/** The editor's form fields (Spanish names, as posted). */
export type ArticleFieldName =
  | 'tipo'
  | 'titulo'
  | 'slug'
  | 'resumen'
  | 'cuerpo'
  | 'portada'
  | 'portadaAlt'
  | 'autor'
  | 'etiquetas'
  | 'seoTitulo'
  | 'seoDescripcion';

const text = (multiline = false) =>
  /* @__PURE__ */ z.pipe(
    /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string())),
    /* @__PURE__ */ z.transform((value: string | null | undefined) => cleanText(value ?? '', multiline)),
  );

const limited = (max: number, tooLong: string, required?: string, multiline = false) =>
  /* @__PURE__ */ z.pipe(
    text(multiline),
    /* @__PURE__ */ z.string().check(
      /* @__PURE__ */ z.refine((value: string) => !required || value !== '', required ?? ''),
      /* @__PURE__ */ z.maxLength(max, tooLong),
    ),
  );

/** The editor's fields as a zod schema: each field's rule and Spanish message (the slug made from the title when empty). */
export const articleFormSchema = /* @__PURE__ */ z.pipe(
  /* @__PURE__ */ z.object({
    tipo: /* @__PURE__ */ z.pipe(
      text(),
      /* @__PURE__ */ z
        .string()
        .check(
          /* @__PURE__ */ z.refine((value: string) => isArticleKind(value), ARTICLE_MESSAGES.kindInvalid),
        ),
    ),
    titulo: limited(ARTICLE_LIMITS.title, ARTICLE_MESSAGES.titleLong, ARTICLE_MESSAGES.titleRequired),
    slug: /* @__PURE__ */ z.pipe(
      text(),
      /* @__PURE__ */ z.string().check(
        /* @__PURE__ */ z.maxLength(ARTICLE_LIMITS.slug, ARTICLE_MESSAGES.slugLong),
        /* @__PURE__ */ z.refine(
          (value: string) => value === '' || SLUG.test(value),
          ARTICLE_MESSAGES.slugInvalid,
        ),
      ),
    ),
    // The summary and the text are asked for to publish or schedule, not of a draft (checkArticleForm).
    resumen: limited(ARTICLE_LIMITS.excerpt, ARTICLE_MESSAGES.excerptLong),
    // The body keeps its own spacing (Markdown); only line breaks are normalised and control characters dropped.
    cuerpo: limited(ARTICLE_LIMITS.body, ARTICLE_MESSAGES.bodyLong, undefined, true),
    portada: /* @__PURE__ */ z.pipe(
      text(),
      /* @__PURE__ */ z
        .string()
        .check(
          /* @__PURE__ */ z.refine(
            (value: string) => value === '' || isCoverReference(value),
            ARTICLE_MESSAGES.coverInvalid,
          ),
        ),
    ),
    portadaAlt: limited(ARTICLE_LIMITS.coverAlt, ARTICLE_MESSAGES.coverAltLong),
    autor: limited(ARTICLE_LIMITS.author, ARTICLE_MESSAGES.authorLong),
    etiquetas: /* @__PURE__ */ z.pipe(
      text(true),
      /* @__PURE__ */ z.pipe(
        /* @__PURE__ */ z.transform((value: string) => parseTags(value)),
        /* @__PURE__ */ z.array(/* @__PURE__ */ z.string()).check(
          /* @__PURE__ */ z.refine(
            (tags: string[]) => tags.every((tag) => tag.length <= ARTICLE_LIMITS.tag),
            ARTICLE_MESSAGES.tagLong,
          ),
          /* @__PURE__ */ z.maxLength(ARTICLE_LIMITS.tags, ARTICLE_MESSAGES.tagsMany),
        ),
      ),
    ),
    seoTitulo: limited(ARTICLE_LIMITS.seoTitle, ARTICLE_MESSAGES.seoTitleLong),
    seoDescripcion: limited(ARTICLE_LIMITS.seoDescription, ARTICLE_MESSAGES.seoDescriptionLong),
  }),
  /* @__PURE__ */ z.transform((form): ArticleInput => ({
    kind: form.tipo as ArticleKind,
    title: form.titulo,
    slug: form.slug || slugify(form.titulo),
    excerpt: form.resumen,
    body: form.cuerpo,
    coverImage: form.portada || null,
    coverAlt: form.portadaAlt,
    author: form.autor,
    tags: form.etiquetas,
    seoTitle: form.seoTitulo,
    seoDescription: form.seoDescripcion,
  })),
);

export type ArticleFormCheck =
  { ok: true; article: ArticleInput } | { ok: false; errors: Partial<Record<ArticleFieldName, string>> };

/**
 * The editor's fields checked: the article, or one Spanish message per field at fault. A cover needs
 * its description; a title of only symbols makes no slug, which is asked for. The summary and the text
 * are asked for unless it is saved as a draft (`draft`: a draft needs only its title, issue 39 §9).
 */
export function checkArticleForm(
  values: Partial<Record<ArticleFieldName, string | null>>,
  { draft = false }: { draft?: boolean } = {},
): ArticleFormCheck {
  const result = z.safeParse(articleFormSchema, values);
  const missing: Partial<Record<ArticleFieldName, string>> = {};
  if (!draft) {
    if ((values.resumen ?? '').trim() === '') missing.resumen = ARTICLE_MESSAGES.excerptRequired;
    if ((values.cuerpo ?? '').trim() === '') missing.cuerpo = ARTICLE_MESSAGES.bodyRequired;
  }
  if (!result.success)
    return {
      ok: false,
      errors: { ...missing, ...firstMessagePerField<ArticleFieldName>(result.error.issues) },
    };
  const article = result.data;
  const errors: Partial<Record<ArticleFieldName, string>> = { ...missing };
  if (article.coverImage && !article.coverAlt) errors.portadaAlt = ARTICLE_MESSAGES.coverAltRequired;
  if (!article.slug) errors.slug = ARTICLE_MESSAGES.slugInvalid;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, article };
}

/** An article's form fields from its checked input (the editor shows a stored article so). */
export function articleFormValues(article: ArticleInput): Record<ArticleFieldName, string> {
  return {
    tipo: article.kind,
    titulo: article.title,
    slug: article.slug,
    resumen: article.excerpt,
    cuerpo: article.body,
    portada: article.coverImage ?? '',
    portadaAlt: article.coverAlt,
    autor: article.author,
    etiquetas: article.tags.join(', '),
    seoTitulo: article.seoTitle,
    seoDescripcion: article.seoDescription,
  };
}

/**
 * Whether an article is public at `now`: published, or scheduled for a time already reached (it is
 * public from that instant, before any process has marked it 'publicado').
 */
export function isPublicAt(article: { state: string; publishAt: string | null }, now: Date): boolean {
  if (article.state === 'publicado') return true;
  return (
    article.state === 'programado' &&
    article.publishAt !== null &&
    Date.parse(article.publishAt) <= now.getTime()
  );
}

/**
 * 'Programar': the date (`aaaa-mm-dd`) and time (`hh:mm`) in Santo Domingo as an instant, which must
 * be later than `now`; or the Spanish message for the 'fecha' field.
 */
export function scheduleFrom(
  fecha: string,
  hora: string,
  now: Date = new Date(),
): { ok: true; at: Date } | { ok: false; message: string } {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha.trim());
  const time = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hora.trim());
  if (!day || !time) return { ok: false, message: ARTICLE_MESSAGES.scheduleRequired };
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const calendar = new Date(Date.UTC(year, month - 1, date));
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== date
  )
    return { ok: false, message: ARTICLE_MESSAGES.scheduleRequired };
  const at = santoDomingoInstant(fecha.trim(), hora.trim());
  return at.getTime() > now.getTime()
    ? { ok: true, at }
    : { ok: false, message: ARTICLE_MESSAGES.schedulePast };
}

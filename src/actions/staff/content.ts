/**
 * 'Contenido' (issue 23): the article editor's one form, `content.save`, posted to the editor's page
 * (`/admin/contenido/{id}` or `/nuevo`) with the button pressed as `intencion`: 'borrador' (save),
 * 'programar' (save, then public at the date and time in Santo Domingo), 'publicar' (save, then
 * public now) or 'despublicar' (save, then back to 'Borrador'). The version the editor was opened at
 * travels with the form: a save on an article someone else saved since is refused (409) and writes
 * nothing. Success goes back (303) to the editor with `hecho=…`.
 */
import {
  ARTICLE_MESSAGES,
  articlePathOf,
  checkArticleForm,
  scheduleFrom,
  type ArticleFieldName,
} from '../../domain/articles.ts';
import { adminArticlePath } from '../../routes.ts';
import {
  ArticleRefusal,
  articleById,
  createArticle,
  publishArticle,
  restoreRevision,
  scheduleArticle,
  unpublishArticle,
  updateArticle,
  type Article,
  type ArticleOutcome,
} from '../../server/content/index.ts';
import { contentSettled } from '../../server/content/index.ts';
import { createPreviewLink, PREVIEW_PARAM } from '../../server/content/index.ts';
import { getConfig } from '../../server/config.ts';
import { getDb } from '../../server/db/index.ts';
import { renderArticleHtml } from '../../server/content/index.ts';
import { ArticleImageRefusal, processArticleImage, storeArticleImage } from '../../server/content/index.ts';
import {
  ARTICLE_IMAGE_MAX_BYTES,
  ARTICLE_IMAGE_MESSAGES,
  articleImageMarkdown,
} from '../../domain/article-images.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { staffForm } from './common.ts';

/** What the editor says after each write (`?hecho=`). */
export const CONTENT_DONE = {
  guardado: 'Borrador guardado.',
  cambios: 'Cambios guardados: el artículo publicado ya los muestra.',
  publicado: 'Artículo publicado.',
  programado: 'Artículo programado.',
  despublicado: 'Artículo despublicado: vuelve a ser un borrador.',
  restaurado: 'Versión restaurada: es ahora el texto del artículo (guardado como una versión nueva).',
} as const;

export const CONTENT_INTENTS = ['borrador', 'programar', 'publicar', 'despublicar'] as const;
type Intent = (typeof CONTENT_INTENTS)[number];

const FIELDS: readonly ArticleFieldName[] = [
  'tipo',
  'titulo',
  'slug',
  'resumen',
  'cuerpo',
  'portada',
  'portadaAlt',
  'autor',
  'etiquetas',
  'seoTitulo',
  'seoDescripcion',
];
const FIELDS_REFUSED = 'No se guardó el artículo: revisa los campos marcados.';

/** The outcome of a versioned write, or its refusal: 409 when someone saved first, 404 when it is gone. */
function savedOrRefused(outcome: ArticleOutcome): Article {
  if (outcome.kind === 'saved') return outcome.article;
  if (outcome.kind === 'stale') refuse('CONFLICT', ARTICLE_MESSAGES.stale);
  refuse('NOT_FOUND', ARTICLE_MESSAGES.notFound);
}

function refuseArticle(error: unknown): never {
  if (error instanceof ArticleRefusal) refuse('BAD_REQUEST', FIELDS_REFUSED, error.errors);
  throw error;
}

export const save = staffForm(
  'content.save',
  'No se pudo guardar el artículo. Inténtalo de nuevo.',
  async (form, { actor }) => {
    const intent = field(form, 'intencion') as Intent;
    if (!CONTENT_INTENTS.includes(intent)) refuse('BAD_REQUEST', 'Elige qué hacer con el artículo.');
    const rawId = field(form, 'id');
    const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : null;
    const version = Number(field(form, 'version'));
    // A draft needs only its title; publishing or scheduling needs the summary and the text too.
    const checked = checkArticleForm(Object.fromEntries(FIELDS.map((name) => [name, field(form, name)])), {
      draft: intent === 'borrador' || intent === 'despublicar',
    });
    const schedule = intent === 'programar' ? scheduleFrom(field(form, 'fecha'), field(form, 'hora')) : null;
    const errors: Record<string, string> = checked.ok ? {} : { ...checked.errors };
    if (schedule && !schedule.ok) errors.fecha = schedule.message;
    if (!checked.ok || Object.keys(errors).length) refuse('BAD_REQUEST', FIELDS_REFUSED, errors);

    const db = getDb();
    try {
      let article =
        id === null
          ? await createArticle(db, checked.article, actor)
          : savedOrRefused(
              await updateArticle(
                db,
                id,
                Number.isSafeInteger(version) ? version : -1,
                checked.article,
                actor,
              ),
            );
      let done: keyof typeof CONTENT_DONE = 'guardado';
      if (intent === 'publicar' && article.state === 'publicado') {
        // 'Guardar cambios' of a public article: saved, and it stays public.
        done = 'cambios';
      } else if (intent === 'publicar') {
        article = savedOrRefused(await publishArticle(db, article.id, article.version, actor));
        done = 'publicado';
      } else if (intent === 'programar' && schedule?.ok) {
        article = savedOrRefused(await scheduleArticle(db, article.id, article.version, schedule.at, actor));
        done = 'programado';
      } else if (intent === 'despublicar') {
        article = savedOrRefused(await unpublishArticle(db, article.id, article.version, actor));
        done = 'despublicado';
      }
      // The public pages follow before the editor says it is done (they are rendered in this process).
      await contentSettled();
      return seeOtherTo(`${adminArticlePath(article.id)}?hecho=${done}`);
    } catch (error) {
      refuseArticle(error);
    }
  },
);

/**
 * 'Restaurar' in 'Historial': a revision's fields saved again as a new save, at the version the editor
 * was opened at (someone else's save since is refused, 409, and nothing is written).
 */
export const restore = staffForm(
  'content.restore',
  'No se pudo restaurar la versión. Inténtalo de nuevo.',
  async (form, { actor }) => {
    const id = Number(field(form, 'id'));
    const version = Number(field(form, 'version'));
    const revision = Number(field(form, 'revision'));
    if (!Number.isSafeInteger(id) || id <= 0) refuse('NOT_FOUND', ARTICLE_MESSAGES.notFound);
    const db = getDb();
    try {
      const outcome = await restoreRevision(
        db,
        id,
        Number.isSafeInteger(version) ? version : -1,
        Number.isSafeInteger(revision) ? revision : -1,
        actor,
      );
      if (outcome.kind === 'no-revision') refuse('NOT_FOUND', 'Esa versión del artículo no existe.');
      const article = savedOrRefused(outcome);
      await contentSettled();
      return seeOtherTo(`${adminArticlePath(article.id)}?hecho=restaurado`);
    } catch (error) {
      refuseArticle(error);
    }
  },
);

/** A private preview link, shown once on the editor (only its hash is kept). */
export interface PreviewLinkCreated {
  url: string;
  expiresAt: string;
}

/**
 * 'Crear enlace de vista previa': a private link to the article's future address that opens it for
 * anyone for 7 days (src/server/content/preview.ts). Answered with the page (not a redirect), which
 * shows the link this once.
 */
export const previewLink = staffForm(
  'content.previewLink',
  'No se pudo crear el enlace de vista previa. Inténtalo de nuevo.',
  async (form, { actor }): Promise<PreviewLinkCreated> => {
    const id = Number(field(form, 'id'));
    if (!Number.isSafeInteger(id) || id <= 0) refuse('NOT_FOUND', ARTICLE_MESSAGES.notFound);
    const db = getDb();
    const link = await createPreviewLink(db, id, actor);
    const article = link ? await articleById(db, id) : null;
    if (!link || !article) refuse('NOT_FOUND', ARTICLE_MESSAGES.notFound);
    const url = new URL(articlePathOf(article.kind, article.slug), getConfig().SITE_URL);
    url.searchParams.set(PREVIEW_PARAM, link.token);
    return { url: url.href, expiresAt: link.expiresAt };
  },
);

/**
 * 'Vista previa' in the editor without JavaScript: the form posted as it is, saved nowhere; the page
 * renders again with what was typed and the body's HTML as the public page would show it.
 */
export const preview = staffForm(
  'content.preview',
  'No se pudo mostrar la vista previa. Inténtalo de nuevo.',
  async (form): Promise<{ html: string }> => ({ html: await renderArticleHtml(field(form, 'cuerpo')) }),
);

/**
 * 'Subir imagen' in the editor (the form posted with its file, `multipart/form-data`): the image
 * re-encoded as AVIF and WebP at the layout's widths (src/server/content/images.ts) and stored; the
 * page renders again with what was typed and the image's Markdown added at the end of the text, to
 * be moved where it goes. Nothing of the article is saved.
 */
export const uploadImage = staffForm(
  'content.uploadImage',
  'No se pudo subir la imagen. Inténtalo de nuevo.',
  async (form, { actor }): Promise<{ markdown: string; html: string; body: string }> => {
    const file = form.get('imagen');
    const alt = field(form, 'imagenAlt').replace(/\s+/g, ' ').trim();
    const errors: Record<string, string> = {};
    if (!(file instanceof File) || file.size === 0) errors.imagen = ARTICLE_IMAGE_MESSAGES.missing;
    else if (file.size > ARTICLE_IMAGE_MAX_BYTES) errors.imagen = ARTICLE_IMAGE_MESSAGES.tooLarge;
    if (!alt) errors.imagenAlt = ARTICLE_IMAGE_MESSAGES.altRequired;
    else if (alt.length > 200) errors.imagenAlt = ARTICLE_IMAGE_MESSAGES.altLong;
    if (Object.keys(errors).length)
      refuse('BAD_REQUEST', 'No se subió la imagen: revisa los campos marcados.', errors);
    let processed;
    try {
      processed = await processArticleImage(new Uint8Array(await (file as File).arrayBuffer()));
    } catch (error) {
      if (error instanceof ArticleImageRefusal)
        refuse('BAD_REQUEST', 'No se subió la imagen: revisa los campos marcados.', {
          imagen: error.message,
        });
      throw error;
    }
    const image = await storeArticleImage(getDb(), processed, actor.actorEmail);
    const markdown = articleImageMarkdown(alt, image);
    const current = field(form, 'cuerpo').replace(/\s+$/, '');
    const body = current ? `${current}\n\n${markdown}\n` : `${markdown}\n`;
    return { markdown, body, html: await renderArticleHtml(body) };
  },
);

export const contentActions = { save, restore, previewLink, preview, uploadImage };

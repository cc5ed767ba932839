import type { ReactNode } from 'react';
import { ROUTES } from '../../routes';
import type { BlogImage } from '../blog/PostParts';
import { ArticleCover, ArticleHeading } from '../blog/PostParts';
import { HelpfulVote, HelpList, type HelpLinkItem } from './HelpParts';

export interface HelpArticleProps {
  id: number;
  title: string;
  excerpt: string;
  /** The day of its last change, in Spanish and as an ISO day. */
  dateLabel: string;
  dateIso: string;
  readingTime: string;
  image: BlogImage | null;
  imageAlt: string;
  tags: ReadonlyArray<{ label: string; href: string }>;
  related: readonly HelpLinkItem[];
  /** The article's HTML body, rendered from its Markdown (src/server/content/render.ts). */
  children: ReactNode;
  /** What precedes the date: 'Actualizado el ' unless told (a preview of a draft says otherwise). */
  datePrefix?: string;
  /** A preview ('Vista previa'): no '¿Te resultó útil?', which counts only public articles. */
  preview?: boolean;
}

function BackToHelp() {
  return (
    <a
      href={ROUTES.help}
      className="inline-flex items-center gap-2 rounded-button border border-line bg-white px-4 py-2.5 text-sm font-semibold text-brand-900 transition-colors hover:border-brand-500 hover:bg-brand-50"
    >
      <span aria-hidden="true">←</span> Volver al centro de ayuda
    </a>
  );
}

/** A help article's own page: the blog article's layout, then '¿Te resultó útil?', a way to support and the articles on the same topics. */
export default function HelpArticle({
  id,
  title,
  excerpt,
  dateLabel,
  dateIso,
  readingTime,
  image,
  imageAlt,
  tags,
  related,
  children,
  datePrefix = 'Actualizado el ',
  preview = false,
}: HelpArticleProps) {
  return (
    <article className="pb-20">
      <header className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-3xl px-4 pt-10 pb-8 sm:px-6 sm:pt-14">
          <nav aria-label="Ruta de navegación">
            <ol className="flex flex-wrap items-center gap-2 text-sm text-muted">
              <li>
                <a
                  href={ROUTES.help}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  Centro de ayuda
                </a>
              </li>
              <li aria-hidden="true">/</li>
              <li aria-current="page" className="min-w-0 truncate">
                {title}
              </li>
            </ol>
          </nav>
          <ArticleHeading
            title={title}
            excerpt={excerpt}
            datePrefix={datePrefix}
            dateIso={dateIso}
            dateLabel={dateLabel}
            readingTime={readingTime}
            titleMargin="mt-6"
          />
          {tags.length > 0 && (
            <ul aria-label="Temas" className="mt-4 flex flex-wrap gap-2">
              {tags.map((tag) => (
                <li key={tag.href}>
                  <a
                    href={tag.href}
                    className="inline-flex rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800 ring-1 ring-brand-100 hover:bg-brand-100"
                  >
                    {tag.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </header>
      {image && <ArticleCover image={image} alt={imageAlt} />}
      <div className="article-body mx-auto mt-12 max-w-3xl px-4 sm:px-6">{children}</div>
      <div className="mx-auto mt-14 flex max-w-3xl flex-col gap-10 px-4 sm:px-6">
        {!preview && <HelpfulVote articleId={id} />}
        <div className="flex flex-col items-start gap-5 rounded-card bg-brand-900 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div>
            <p className="text-lg font-bold">¿Sigues con el problema?</p>
            <p className="mt-1 text-brand-100">
              Abre una incidencia y un técnico te ayuda en horario laborable.
            </p>
          </div>
          <a
            href={ROUTES.supportNew}
            className="shrink-0 rounded-button bg-accent-500 px-5 py-3 font-semibold text-brand-950 transition-colors hover:bg-accent-100"
          >
            Solicitar ayuda
          </a>
        </div>
        <div>
          <BackToHelp />
        </div>
      </div>
      {related.length > 0 && (
        <section aria-labelledby="relacionados" className="mx-auto mt-16 max-w-3xl px-4 sm:px-6">
          <h2 id="relacionados" className="text-2xl font-bold tracking-tight text-brand-900">
            Artículos relacionados
          </h2>
          <div className="mt-6">
            <HelpList items={related} />
          </div>
        </section>
      )}
    </article>
  );
}

import { ROUTES } from '../../routes';
import type { ReactNode } from 'react';
import BlogCard, { type BlogCardProps } from './BlogCard';
import { ArticleCover, ArticleHeading } from './PostParts';

/** The article's own page: what its card shows, plus the body and the articles offered after it. */
export interface BlogArticleProps extends Omit<BlogCardProps, 'href' | 'headingLevel'> {
  /** Other articles, offered after this one. */
  related: BlogCardProps[];
  /** The article's HTML body, rendered from its Markdown (src/server/content/render.ts). */
  children: ReactNode;
  /** What precedes the date: 'Publicado el ' unless told (a preview of a draft says otherwise). */
  datePrefix?: string;
}

function BackToBlog() {
  return (
    <a
      href={ROUTES.blog}
      className="inline-flex items-center gap-2 rounded-button border border-line bg-white px-4 py-2.5 text-sm font-semibold text-brand-900 transition-colors hover:border-brand-500 hover:bg-brand-50"
    >
      <span aria-hidden="true">←</span> Volver al Blog
    </a>
  );
}

export default function BlogArticle({
  title,
  excerpt,
  dateLabel,
  dateIso,
  image,
  imageAlt,
  readingTime,
  related,
  children,
  datePrefix = 'Publicado el ',
}: BlogArticleProps) {
  return (
    <article className="pb-20">
      <header className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-3xl px-4 pt-10 pb-8 sm:px-6 sm:pt-14">
          <BackToBlog />
          <ArticleHeading
            title={title}
            excerpt={excerpt}
            datePrefix={datePrefix}
            dateIso={dateIso}
            dateLabel={dateLabel}
            readingTime={readingTime}
            titleMargin="mt-8"
          />
        </div>
      </header>
      {image && <ArticleCover image={image} alt={imageAlt} />}
      <div className="article-body mx-auto mt-12 max-w-3xl px-4 sm:px-6">{children}</div>
      <div className="mx-auto mt-14 max-w-3xl px-4 sm:px-6">
        <div className="flex flex-col items-start gap-5 rounded-card bg-brand-900 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div>
            <p className="text-lg font-bold">¿Quieres aplicarlo en tu empresa?</p>
            <p className="mt-1 text-brand-100">
              Te orientamos sin compromiso, con tus propios procesos y números.
            </p>
          </div>
          <a
            href={ROUTES.contact}
            className="shrink-0 rounded-button bg-accent-500 px-5 py-3 font-semibold text-brand-950 transition-colors hover:bg-accent-100"
          >
            Hablemos
          </a>
        </div>
        <div className="mt-10">
          <BackToBlog />
        </div>
      </div>
      {related.length > 0 && (
        <section aria-labelledby="sigue-leyendo" className="mx-auto mt-20 max-w-5xl px-4 sm:px-6">
          <h2 id="sigue-leyendo" className="text-2xl font-bold tracking-tight text-brand-900">
            Sigue leyendo
          </h2>
          <div className="mt-6 grid gap-8 md:grid-cols-2">
            {related.map((card) => (
              <BlogCard key={card.href} {...card} headingLevel="h3" />
            ))}
          </div>
        </section>
      )}
    </article>
  );
}

/** Shown (with HTTP 404) for an id that is not an article. */
export function ArticleNotFound() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="text-sm font-semibold tracking-wider text-accent-700 uppercase">Blog</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-brand-900">Artículo no encontrado</h1>
      <p className="mt-4 text-lg text-muted">
        Puede que el enlace esté incompleto o que el artículo haya cambiado de dirección. Tenemos otras guías
        que te pueden servir.
      </p>
      <a
        href={ROUTES.blog}
        className="mt-8 rounded-button bg-brand-900 px-6 py-3 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        Volver al Blog
      </a>
    </section>
  );
}

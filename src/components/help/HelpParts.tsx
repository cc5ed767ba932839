import { HELP_VOTE } from '../../domain/help';
import { HONEYPOT_FIELD } from '../../domain/forms/common';
import { ROUTES } from '../../routes';

/** A help article in a list: its title (the link), its summary and, optionally, its tags. */
export interface HelpLinkItem {
  href: string;
  title: string;
  excerpt: string;
}

/** A list of help articles, each a link with its summary. */
export function HelpList({
  items,
  headingLevel = 'h3',
}: {
  items: readonly HelpLinkItem[];
  headingLevel?: 'h2' | 'h3';
}) {
  const Heading = headingLevel;
  return (
    <ul className="flex flex-col divide-y divide-line rounded-card border border-line bg-white shadow-sm">
      {items.map((item) => (
        <li key={item.href} className="group relative p-5 transition-colors hover:bg-brand-50/60 sm:p-6">
          <Heading className="text-lg font-bold text-brand-900">
            <a href={item.href} className="after:absolute after:inset-0 group-hover:underline">
              {item.title}
            </a>
          </Heading>
          <p className="mt-1.5 text-muted">{item.excerpt}</p>
        </li>
      ))}
    </ul>
  );
}

/** The search box of the help centre: a plain GET form to `/ayuda?q=…` (no JavaScript needed). */
export function HelpSearchForm({ query = '', id = 'buscar-ayuda' }: { query?: string; id?: string }) {
  return (
    <form
      method="get"
      action={ROUTES.help}
      role="search"
      aria-label="Buscar en el centro de ayuda"
      className="flex w-full max-w-2xl flex-col gap-2 sm:flex-row"
    >
      <label htmlFor={id} className="sr-only">
        Buscar en el centro de ayuda
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={200}
        placeholder="Escribe tu duda, p. ej. facturación electrónica"
        autoComplete="off"
        className="min-h-12 w-full flex-1 rounded-button border border-line bg-white px-4 text-base text-ink shadow-sm placeholder:text-muted focus:border-brand-500"
      />
      <button
        type="submit"
        className="min-h-12 shrink-0 rounded-button bg-brand-900 px-6 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        Buscar
      </button>
    </form>
  );
}

/**
 * '¿Te resultó útil?' with 'Sí' / 'No': a plain form to the counting endpoint, which answers with the
 * article at `#gracias`; the thank-you shows for that fragment (CSS `:target`, so the page served from
 * memory needs no change), and the form hides. The page's inline script (src/scripts/helpful-vote.ts)
 * sends it in place.
 */
export function HelpfulVote({ articleId }: { articleId: number }) {
  return (
    <section aria-labelledby="util-titulo" className="rounded-card border border-line bg-surface p-6">
      <div
        id={HELP_VOTE.anchor}
        tabIndex={-1}
        className="peer hidden scroll-mt-28 target:block focus:outline-none"
      >
        <p className="text-lg font-bold text-brand-900">{HELP_VOTE.thanks}</p>
        <p className="mt-1 text-muted">
          ¿Todavía necesitas ayuda?{' '}
          <a href={ROUTES.supportNew} className="font-semibold text-brand-700 underline underline-offset-2">
            Abre una incidencia
          </a>{' '}
          y te respondemos.
        </p>
      </div>
      <form
        method="post"
        action={ROUTES.helpVote}
        data-util=""
        className="flex flex-col gap-4 peer-target:hidden sm:flex-row sm:items-center sm:justify-between"
      >
        <h2 id="util-titulo" className="text-lg font-bold text-brand-900">
          {HELP_VOTE.question}
        </h2>
        <input type="hidden" name="articulo" value={articleId} />
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            No completes este campo
            <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <div className="flex gap-3">
          <button
            type="submit"
            name="voto"
            value="si"
            className="min-h-11 min-w-20 rounded-button border border-line bg-white px-5 font-semibold text-brand-900 transition-colors hover:border-brand-500 hover:bg-brand-50"
          >
            {HELP_VOTE.yes}
          </button>
          <button
            type="submit"
            name="voto"
            value="no"
            className="min-h-11 min-w-20 rounded-button border border-line bg-white px-5 font-semibold text-brand-900 transition-colors hover:border-brand-500 hover:bg-brand-50"
          >
            {HELP_VOTE.no}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Shown (with HTTP 404) for a help address that is not a public article. */
export function HelpArticleNotFound() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="text-sm font-semibold tracking-wider text-accent-700 uppercase">Centro de ayuda</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-brand-900">Artículo no encontrado</h1>
      <p className="mt-4 text-lg text-muted">
        Puede que el enlace esté incompleto o que el artículo haya cambiado de dirección. Busca tu duda en el
        centro de ayuda.
      </p>
      <a
        href={ROUTES.help}
        className="mt-8 rounded-button bg-brand-900 px-6 py-3 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        Ir al centro de ayuda
      </a>
    </section>
  );
}

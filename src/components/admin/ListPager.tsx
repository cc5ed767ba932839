/**
 * 'Paginación' under a staff list (the incidents, the contact messages): '← Anterior', 'Página n' and
 * 'Siguiente →' as links, each only when there is such a page (an empty cell keeps the three places);
 * nothing at all on a list of one page.
 */
export default function ListPager({
  page,
  prevHref,
  nextHref,
}: {
  page: number;
  prevHref?: string | undefined;
  nextHref?: string | undefined;
}) {
  if (!prevHref && !nextHref) return null;
  const linkClass =
    'rounded-button border border-line bg-white px-4 py-2 font-medium text-brand-900 hover:bg-brand-50';
  return (
    <nav aria-label="Paginación" className="flex items-center justify-between gap-4 text-sm">
      {prevHref ? (
        <a href={prevHref} className={linkClass}>
          ← Anterior
        </a>
      ) : (
        <span />
      )}
      <span className="text-muted">Página {page}</span>
      {nextHref ? (
        <a href={nextHref} className={linkClass}>
          Siguiente →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * Scroll-reveal: each `[data-reveal]` element below the fold animates in once (800 ms) when it first
 * enters the viewport. Content stays visible without JavaScript and under prefers-reduced-motion: only
 * this script hides elements, and only those the observer first reports off screen, so nothing the
 * visitor already sees blinks out, and the first paint waits for no style change of ours
 * (styles in src/styles/home.css).
 *
 * Pages inline this file verbatim (a `?raw` import rendered inline) so no script file is downloaded:
 * it is written as plain JavaScript that also type-checks as TypeScript (no type annotations).
 */
{
  const elements = document.querySelectorAll('[data-reveal]');
  if (
    elements.length > 0 &&
    'IntersectionObserver' in window &&
    !matchMedia('(prefers-reduced-motion: reduce)').matches
  ) {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const element = entry.target;
          if (entry.isIntersecting) {
            // Hidden at its first report (off screen then): it animates in now. On screen at its first
            // report: nothing to replace, it stays as the visitor already sees it.
            element.classList.replace('reveal-pending', 'reveal-run');
            observer.unobserve(element);
          } else {
            element.classList.add('reveal-pending');
          }
        }
      },
      { rootMargin: '0px 0px -8% 0px' },
    );
    for (const element of elements) observer.observe(element);
  }
}

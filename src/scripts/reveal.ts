/**
 * Scroll-reveal: each `[data-reveal]` element animates in once (800 ms) when it first enters the
 * viewport. Content stays visible without JavaScript and under prefers-reduced-motion: only this script
 * hides elements, and only those it is about to observe (styles in src/styles/home.css).
 *
 * Pages inline this file verbatim (a `?raw` import rendered inline) so no script file is downloaded:
 * it is written as plain JavaScript that also type-checks as TypeScript (no type annotations).
 */
{
  const elements = document.querySelectorAll('[data-reveal]');
  if (elements.length > 0 && 'IntersectionObserver' in window && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.classList.replace('reveal-pending', 'reveal-run');
          observer.unobserve(entry.target);
        }
      },
      { rootMargin: '0px 0px -8% 0px' },
    );
    for (const element of elements) {
      element.classList.add('reveal-pending');
      observer.observe(element);
    }
  }
}

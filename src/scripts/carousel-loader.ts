/**
 * Loads the carousel code (Embla included, `src/components/products/carousel-behaviour.ts`, bundled on
 * its own) once a carousel nears the viewport. The observer's first report comes after the first paint,
 * so nothing is fetched before it, and a visitor who never scrolls there fetches nothing.
 *
 * Inlined by the product pages (see reveal.ts): plain JavaScript that also type-checks as TypeScript.
 */
{
  const roots = document.querySelectorAll('[data-carousel-script]');
  if (roots.length > 0 && 'IntersectionObserver' in window) {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        const script = document.createElement('script');
        script.src = roots[0]?.getAttribute('data-carousel-script') ?? '';
        document.head.append(script);
      },
      { rootMargin: '400px 0px' },
    );
    for (const root of roots) observer.observe(root);
  }
}

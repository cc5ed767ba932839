/**
 * Plays the About background video unless the visitor prefers reduced motion (re-checked when that
 * setting changes), and offers a pause button (WCAG 2.2.2: moving content longer than 5 s).
 *
 * Inlined verbatim by the page (see reveal.ts): plain JavaScript that also type-checks as TypeScript.
 */
{
  const video = document.querySelector('video[data-about-video]');
  const toggle = document.querySelector('button[data-video-toggle]');
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

  if (video instanceof HTMLVideoElement) {
    let pausedByVisitor = false;

    const render = () => {
      if (!(toggle instanceof HTMLButtonElement)) return;
      toggle.hidden = reducedMotion.matches;
      toggle.textContent = video.paused ? 'Reproducir animación de fondo' : 'Pausar animación de fondo';
    };

    const sync = () => {
      if (reducedMotion.matches || pausedByVisitor) video.pause();
      // Autoplay of a muted video is allowed; a refusal just leaves the poster in place.
      else video.play().catch(() => undefined);
    };

    video.addEventListener('play', render);
    video.addEventListener('pause', render);
    toggle?.addEventListener('click', () => {
      pausedByVisitor = !video.paused;
      if (pausedByVisitor) video.pause();
      else video.play().catch(() => undefined);
    });
    reducedMotion.addEventListener('change', () => {
      sync();
      render();
    });
    sync();
    render();
  }
}

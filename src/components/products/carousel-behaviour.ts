/**
 * Brings the server-rendered carousels (`Carousel.tsx`) to life with Embla's plain-JavaScript core and
 * its autoplay plugin; no React in the browser. Bundled alone (`?worker&url` in the
 * product pages) and loaded by the inline `src/scripts/carousel-loader.ts` when a carousel nears the
 * viewport; each carousel is wired when it first comes near.
 */
import EmblaCarousel, { type EmblaCarouselType } from 'embla-carousel';
import Autoplay from 'embla-carousel-autoplay';

function mount(root: HTMLElement): void {
  const viewport = root.querySelector<HTMLElement>('[data-carousel-viewport]');
  if (!viewport) return;
  const slides = [...root.querySelectorAll<HTMLElement>('[aria-roledescription="diapositiva"]')];
  const bullets = [...root.querySelectorAll<HTMLButtonElement>('[data-carousel-bullet]')];
  const toggle = root.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const counter = root.querySelector<HTMLElement>('[data-carousel-counter]');
  const live = root.querySelector<HTMLElement>('[data-carousel-live]');

  const autoplay = Autoplay({
    delay: Number(root.dataset.autoplayMs) || 10_000,
    playOnInit: false,
    stopOnInteraction: true,
    stopOnFocusIn: true,
  });
  const embla: EmblaCarouselType = EmblaCarousel(
    viewport,
    { loop: true, dragThreshold: 10, align: 'start' },
    [autoplay],
  );
  // Autoplay moves silently; only the visitor's own moves are announced.
  let userMoved = false;

  const onSelect = () => {
    const index = embla.selectedScrollSnap();
    root.dataset.selected = String(index);
    if (counter) counter.textContent = `${index + 1} / ${slides.length}`;
    for (const [position, bullet] of bullets.entries()) {
      if (position === index) bullet.setAttribute('aria-current', 'true');
      else bullet.removeAttribute('aria-current');
    }
    if (userMoved && live)
      live.textContent = `Diapositiva ${index + 1} de ${slides.length}: ${slides[index]?.dataset.caption ?? ''}`;
  };
  const onPlaying = (playing: boolean) => () => {
    root.toggleAttribute('data-playing', playing);
    toggle?.setAttribute(
      'aria-label',
      playing ? 'Pausar el avance automático' : 'Reanudar el avance automático',
    );
  };
  const takeControl = () => {
    userMoved = true;
    autoplay.stop();
  };

  embla
    .on('select', onSelect)
    .on('pointerDown', () => {
      userMoved = true;
    })
    .on('autoplay:play', onPlaying(true))
    .on('autoplay:stop', onPlaying(false));

  root.querySelector('[data-carousel-prev]')?.addEventListener('click', () => {
    takeControl();
    embla.scrollPrev();
  });
  root.querySelector('[data-carousel-next]')?.addEventListener('click', () => {
    takeControl();
    embla.scrollNext();
  });
  for (const bullet of bullets) {
    bullet.addEventListener('click', () => {
      takeControl();
      embla.scrollTo(Number(bullet.dataset.carouselBullet));
    });
  }
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    takeControl();
    if (event.key === 'ArrowLeft') embla.scrollPrev();
    else embla.scrollNext();
  });
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', () => {
      if (autoplay.isPlaying()) {
        autoplay.stop();
      } else {
        userMoved = false;
        autoplay.play();
      }
    });
  }

  root.toggleAttribute('data-ready', true);
  if (!matchMedia('(prefers-reduced-motion: reduce)').matches) autoplay.play();
}

const observer = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      mount(entry.target as HTMLElement);
    }
  },
  { rootMargin: '200px 0px' },
);
for (const root of document.querySelectorAll<HTMLElement>('[data-carousel]')) observer.observe(root);

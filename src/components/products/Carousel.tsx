import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface CarouselSlide {
  src: string;
  width: number;
  height: number;
  alt: string;
  caption?: string;
}

export interface CarouselProps {
  /** Accessible name of the carousel region. */
  label: string;
  slides: CarouselSlide[];
  /** Milliseconds between automatic advances (spec §9: 10 000). */
  autoplayMs?: number;
  /** Clickable pagination bullets under the slides. */
  bullets?: boolean;
  /** Space between slides in pixels. */
  gap?: number;
  /** Width of each slide (Tailwind `basis-*` classes); one full-width slide by default. */
  slideClassName?: string;
  /** Visible hint that the slides can be swiped. */
  hint?: string;
}

/**
 * Carousel on Embla: wraparound, arrows, touch and mouse swipe (10 px threshold), autoplay that stops
 * when the visitor takes control or the page is hidden, keyboard arrows, and screen-reader
 * announcements only for the visitor's own moves. Rendered on the server with the first slide in
 * place, so hydration (`client:visible`) moves nothing.
 */
export default function Carousel({
  label,
  slides,
  autoplayMs = 10_000,
  bullets = false,
  gap = 0,
  slideClassName = 'basis-full',
  hint = 'Desliza o usa las flechas para ver más',
}: CarouselProps) {
  const id = useId();
  // The plugin must be created once; it starts only after mount (not under reduced motion).
  const [plugins] = useState(() => [
    Autoplay({ delay: autoplayMs, playOnInit: false, stopOnInteraction: true, stopOnFocusIn: true }),
  ]);
  const [viewportRef, emblaApi] = useEmblaCarousel({ loop: true, dragThreshold: 10, align: 'start' }, plugins);
  const [selected, setSelected] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const userMoved = useRef(false);
  const total = slides.length;

  useEffect(() => {
    if (!emblaApi) return;
    const autoplay = emblaApi.plugins().autoplay;
    const onSelect = () => {
      const index = emblaApi.selectedScrollSnap();
      setSelected(index);
      // Autoplay moves silently; only the visitor's own moves are announced.
      if (userMoved.current) {
        const slide = slides[index];
        setAnnouncement(`Diapositiva ${index + 1} de ${total}${slide ? `: ${slide.caption ?? slide.alt}` : ''}`);
      }
    };
    const onPointerDown = () => {
      userMoved.current = true;
    };
    const onPlay = () => setPlaying(true);
    const onStop = () => setPlaying(false);
    emblaApi.on('select', onSelect).on('pointerDown', onPointerDown).on('autoplay:play', onPlay).on('autoplay:stop', onStop);
    if (!window.matchMedia('(prefers-reduced-motion: reduce)').matches) autoplay?.play();
    return () => {
      emblaApi.off('select', onSelect).off('pointerDown', onPointerDown).off('autoplay:play', onPlay).off('autoplay:stop', onStop);
    };
  }, [emblaApi, slides, total]);

  const takeControl = useCallback(() => {
    userMoved.current = true;
    emblaApi?.plugins().autoplay?.stop();
  }, [emblaApi]);

  const previous = () => {
    takeControl();
    emblaApi?.scrollPrev();
  };
  const next = () => {
    takeControl();
    emblaApi?.scrollNext();
  };
  const goTo = (index: number) => {
    takeControl();
    emblaApi?.scrollTo(index);
  };
  const togglePlay = () => {
    const autoplay = emblaApi?.plugins().autoplay;
    if (!autoplay) return;
    if (autoplay.isPlaying()) {
      autoplay.stop();
    } else {
      userMoved.current = false;
      autoplay.play();
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowLeft') {
      event.preventDefault();
      previous();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      next();
    }
  };

  const containerId = `${id}-slides`;
  const arrowClass =
    'grid size-11 place-items-center rounded-full border border-line bg-white text-brand-900 shadow-sm transition hover:border-brand-500 hover:text-brand-600 disabled:opacity-50';

  return (
    // The region takes focus so the arrow keys work on it, as the WAI carousel pattern suggests.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      aria-roledescription="carrusel"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-carousel=""
      data-ready={emblaApi ? '' : undefined}
      data-selected={selected}
      className="group/carousel relative rounded-card focus-visible:outline-offset-4"
    >
      <div ref={viewportRef} className="overflow-hidden rounded-card">
        <div id={containerId} className="flex touch-pan-y touch-pinch-zoom" style={gap ? { marginLeft: -gap } : undefined}>
          {slides.map((slide, index) => (
            <div
              key={slide.src}
              role="group"
              aria-roledescription="diapositiva"
              aria-label={`${index + 1} de ${total}`}
              className={`min-w-0 shrink-0 grow-0 ${slideClassName}`}
              style={gap ? { paddingLeft: gap } : undefined}
            >
              <figure className="h-full">
                <img
                  src={slide.src}
                  width={slide.width}
                  height={slide.height}
                  alt={slide.alt}
                  loading={index === 0 ? 'eager' : 'lazy'}
                  decoding="async"
                  draggable={false}
                  className="h-auto w-full rounded-card bg-surface select-none"
                />
                {slide.caption ? (
                  <figcaption className="mt-3 px-1 text-base font-semibold text-brand-900">{slide.caption}</figcaption>
                ) : null}
              </figure>
            </div>
          ))}
        </div>
      </div>

      <div className="mt-5 flex flex-wrap items-center justify-between gap-4">
        <p className="flex items-center gap-2 text-sm text-muted">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 text-accent-600 motion-safe:animate-pulse" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M18 11V6a2 2 0 0 0-4 0v5M14 10V4a2 2 0 0 0-4 0v6M10 10.5V6a2 2 0 0 0-4 0v8" />
            <path d="M18 8a2 2 0 1 1 4 0v6a8 8 0 0 1-8 8h-2c-2.8 0-4.5-.86-5.99-2.34l-3.6-3.6a2 2 0 0 1 2.83-2.82L7 15" />
          </svg>
          <span>{hint}</span>
        </p>
        <div className="flex items-center gap-2">
          <button
            type="button"
            onClick={togglePlay}
            className="grid size-11 place-items-center rounded-full text-muted transition hover:bg-surface hover:text-brand-700"
            aria-label={playing ? 'Pausar el avance automático' : 'Reanudar el avance automático'}
          >
            {playing ? (
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor"><rect x="6" y="5" width="4" height="14" rx="1" /><rect x="14" y="5" width="4" height="14" rx="1" /></svg>
            ) : (
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor"><path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" /></svg>
            )}
          </button>
          <span className="min-w-14 text-center text-sm font-medium text-muted tabular-nums" aria-hidden="true">
            {selected + 1} / {total}
          </span>
          <button type="button" onClick={previous} aria-controls={containerId} aria-label="Diapositiva anterior" className={arrowClass}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round"><path d="M15 18l-6-6 6-6" /></svg>
          </button>
          <button type="button" onClick={next} aria-controls={containerId} aria-label="Diapositiva siguiente" className={arrowClass}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round"><path d="M9 18l6-6-6-6" /></svg>
          </button>
        </div>
      </div>

      {bullets ? (
        <div className="mt-4 flex flex-wrap justify-center gap-1" role="group" aria-label="Elegir diapositiva">
          {slides.map((slide, index) => (
            <button
              key={slide.src}
              type="button"
              onClick={() => goTo(index)}
              aria-label={`Ir a la diapositiva ${index + 1}: ${slide.caption ?? slide.alt}`}
              aria-current={index === selected ? 'true' : undefined}
              aria-controls={containerId}
              className="group/bullet grid size-8 place-items-center rounded-full"
            >
              <span
                aria-hidden="true"
                className="block h-2.5 w-2.5 rounded-full bg-[#7c8aa0] transition-all group-hover/bullet:bg-brand-600 group-aria-[current=true]/bullet:w-7 group-aria-[current=true]/bullet:bg-accent-600"
              />
            </button>
          ))}
        </div>
      ) : null}

      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}

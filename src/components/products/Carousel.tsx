import { useId } from 'react';
import { LineIcon } from '../ui/LineIcon';

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
  /** URL of the carousel's script (`carousel-behaviour.ts` bundled alone), fetched when it nears the viewport. */
  script: string;
}

/**
 * Carousel markup, rendered on the server and never hydrated: `carousel-behaviour.ts` (fetched by the
 * inline `src/scripts/carousel-loader.ts` when the carousel nears the viewport) wires Embla's
 * plain-JavaScript core to it (about 9 KB gzip instead of React's 70 KB).
 * Wraparound, arrows, touch and mouse swipe (10 px threshold), autoplay that stops when the visitor
 * takes control or the page is hidden, keyboard arrows, and screen-reader announcements only for the
 * visitor's own moves. The first slide is in place before the script runs, so nothing moves.
 */
export default function Carousel({
  label,
  slides,
  autoplayMs = 10_000,
  bullets = false,
  gap = 0,
  slideClassName = 'basis-full',
  hint = 'Desliza o usa las flechas para ver más',
  script,
}: CarouselProps) {
  const id = useId();
  const total = slides.length;
  const containerId = `${id}-slides`;
  const arrowClass =
    'grid size-11 place-items-center rounded-full border border-line bg-white text-brand-900 shadow-sm transition hover:border-brand-500 hover:text-brand-600 disabled:opacity-50';

  return (
    // The region takes focus so the arrow keys work on it, as the WAI carousel pattern suggests.
    <section
      aria-roledescription="carrusel"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      data-carousel=""
      data-carousel-script={script}
      data-autoplay-ms={autoplayMs}
      data-selected={0}
      className="group/carousel relative rounded-card focus-visible:outline-offset-4"
    >
      <div data-carousel-viewport="" className="overflow-hidden rounded-card">
        <div
          id={containerId}
          className="flex touch-pan-y touch-pinch-zoom"
          style={gap ? { marginLeft: -gap } : undefined}
        >
          {slides.map((slide, index) => (
            <div
              key={slide.src}
              role="group"
              aria-roledescription="diapositiva"
              aria-label={`${index + 1} de ${total}`}
              data-caption={slide.caption ?? slide.alt}
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
                  <figcaption className="mt-3 px-1 text-base font-semibold text-brand-900">
                    {slide.caption}
                  </figcaption>
                ) : null}
              </figure>
            </div>
          ))}
        </div>
      </div>

      <div className="mt-5 flex flex-wrap items-center justify-between gap-4">
        <p className="flex items-center gap-2 text-sm text-muted">
          <LineIcon className="size-5 text-accent-600 motion-safe:animate-pulse" weight="2">
            <path d="M18 11V6a2 2 0 0 0-4 0v5M14 10V4a2 2 0 0 0-4 0v6M10 10.5V6a2 2 0 0 0-4 0v8" />
            <path d="M18 8a2 2 0 1 1 4 0v6a8 8 0 0 1-8 8h-2c-2.8 0-4.5-.86-5.99-2.34l-3.6-3.6a2 2 0 0 1 2.83-2.82L7 15" />
          </LineIcon>
          <span>{hint}</span>
        </p>
        <div className="flex items-center gap-2">
          {/* Shown once the script runs; the icon follows the root's data-playing. */}
          <button
            type="button"
            data-carousel-toggle=""
            hidden
            className="grid size-11 place-items-center rounded-full text-muted transition hover:bg-surface hover:text-brand-700"
            aria-label="Reanudar el avance automático"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="hidden size-5 group-data-[playing]/carousel:block"
              fill="currentColor"
            >
              <rect x="6" y="5" width="4" height="14" rx="1" />
              <rect x="14" y="5" width="4" height="14" rx="1" />
            </svg>
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-5 group-data-[playing]/carousel:hidden"
              fill="currentColor"
            >
              <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
            </svg>
          </button>
          <span
            data-carousel-counter=""
            className="min-w-14 text-center text-sm font-medium text-muted tabular-nums"
            aria-hidden="true"
          >
            1 / {total}
          </span>
          <ArrowButton direction="prev" controls={containerId} className={arrowClass} />
          <ArrowButton direction="next" controls={containerId} className={arrowClass} />
        </div>
      </div>

      {bullets ? (
        <div
          className="mt-4 flex flex-wrap justify-center gap-1"
          role="group"
          aria-label="Elegir diapositiva"
        >
          {slides.map((slide, index) => (
            <button
              key={slide.src}
              type="button"
              data-carousel-bullet={index}
              aria-label={`Ir a la diapositiva ${index + 1}: ${slide.caption ?? slide.alt}`}
              aria-current={index === 0 ? 'true' : undefined}
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

      <p data-carousel-live="" className="sr-only" aria-live="polite" aria-atomic="true" />
    </section>
  );
}

const ARROWS = {
  prev: { label: 'Diapositiva anterior', path: 'M15 18l-6-6 6-6' },
  next: { label: 'Diapositiva siguiente', path: 'M9 18l6-6-6-6' },
} as const;

/** 'Diapositiva anterior' or 'siguiente': carousel-behaviour.ts finds it by its data attribute. */
function ArrowButton({
  direction,
  controls,
  className,
}: {
  direction: keyof typeof ARROWS;
  controls: string;
  className: string;
}) {
  const data = direction === 'prev' ? { 'data-carousel-prev': '' } : { 'data-carousel-next': '' };
  return (
    <button
      type="button"
      {...data}
      aria-controls={controls}
      aria-label={ARROWS[direction].label}
      className={className}
    >
      <LineIcon className="size-5" weight="2.2">
        <path d={ARROWS[direction].path} />
      </LineIcon>
    </button>
  );
}

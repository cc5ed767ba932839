import { ButtonLink, buttonClasses } from '../ui/Button';
import type { ImageSource } from '../ui/image';
import { LineIcon } from '../ui/LineIcon';

export interface RecommendationOption {
  /** The business focus, exactly as the spec words it ('Contabilidad y Finanzas'…). */
  focus: string;
  /** Short explanation under the focus. */
  hint: string;
  /** The recommended product's id ('admcloud' | 'restaurantpe' | 'tiendao'): drives the CSS step logic. */
  productId: string;
  product: { name: string; description: string; href: string; image: ImageSource; imageAlt: string };
}

export interface RecommendationDialogProps {
  id: string;
  options: readonly RecommendationOption[];
  consultationUrl: string;
}

/**
 * The two-step recommendation dialog, with no JavaScript: a native `<dialog>` opened by an Invoker
 * Commands button, radio inputs whose `:checked` state switches step 1 to step 2 through CSS `:has()`
 * (src/styles/home.css), a reset button back to step 1 and `method="dialog"` submit buttons that
 * close it. Escape and the return of focus to the opener are the browser's own dialog behaviour.
 * src/scripts/recommendation.ts only polishes focus and resets the steps when it closes.
 */
export default function RecommendationDialog({ id, options, consultationUrl }: RecommendationDialogProps) {
  return (
    <dialog
      id={id}
      aria-labelledby={`${id}-titulo`}
      closedby="any"
      className="reco m-auto max-h-[95dvh] w-[min(100%-2rem,44rem)] overflow-y-auto rounded-card bg-white p-0 text-ink shadow-2xl backdrop:bg-brand-950/70 backdrop:backdrop-blur-sm"
    >
      <form method="dialog" className="reco-form">
        <div className="flex items-center justify-between gap-4 border-b border-line px-5 py-4 sm:px-7">
          <p id={`${id}-titulo`} className="flex items-center gap-3 text-sm font-semibold text-accent-700">
            <span
              aria-hidden="true"
              className="grid size-7 place-items-center rounded-full bg-accent-100 text-accent-700"
            >
              <LineIcon className="size-4" weight="2" box={20}>
                <path d="M10 2l2.2 4.6 5 .7-3.6 3.5.9 5L10 13.4 5.5 15.8l.9-5L2.8 7.3l5-.7z" />
              </LineIcon>
            </span>
            <span>
              <span className="block tracking-wider uppercase">Encuentra tu sistema ideal</span>
              <span className="reco-progress block text-xs font-normal text-muted" />
            </span>
          </p>
          <button
            type="submit"
            value="cerrar"
            className="reco-close grid size-11 place-items-center rounded-full text-muted hover:bg-surface hover:text-ink"
            aria-label="Cerrar"
          >
            <LineIcon className="size-5" weight="2" box={20}>
              <path d="M5 5l10 10M15 5L5 15" />
            </LineIcon>
          </button>
        </div>

        <fieldset data-step="1" className="px-5 pt-6 pb-7 sm:px-7">
          <legend className="contents">
            <h2 className="text-2xl font-bold text-balance text-brand-900">
              ¿Cuál es el enfoque principal de tu negocio?
            </h2>
          </legend>
          <p className="mt-2 text-muted">
            Elige una opción y te diremos qué sistema encaja mejor con tu operación.
          </p>
          <div className="mt-6 grid gap-3">
            {options.map((option) => (
              <label
                key={option.productId}
                className="reco-choice group flex cursor-pointer items-center gap-4 rounded-card border border-line p-4 transition-colors hover:border-brand-500 hover:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500"
              >
                <input
                  type="radio"
                  name="enfoque"
                  id={`${id}-${option.productId}`}
                  value={option.focus}
                  className="sr-only"
                />
                <span
                  aria-hidden="true"
                  className="grid size-11 shrink-0 place-items-center rounded-button bg-brand-50 text-brand-700 group-hover:bg-white"
                >
                  <FocusIcon productId={option.productId} />
                </span>
                <span className="flex-1">
                  <span className="block font-semibold text-brand-900">{option.focus}</span>
                  <span className="block text-sm text-muted">{option.hint}</span>
                </span>
                <LineIcon className="size-5 text-muted group-hover:text-brand-700" weight="2" box={20}>
                  <path d="M8 5l5 5-5 5" />
                </LineIcon>
              </label>
            ))}
          </div>
        </fieldset>

        <div data-step="2" className="px-5 pt-6 pb-7 sm:px-7" aria-live="polite">
          <h2
            tabIndex={-1}
            className="reco-result-title text-2xl font-bold text-brand-900 focus:outline-none"
          >
            Te recomendamos:
          </h2>
          {options.map((option) => (
            <div key={option.productId} data-result={option.productId} className="mt-5">
              <div className="overflow-hidden rounded-card border border-line bg-surface">
                <img
                  src={option.product.image.src}
                  width={option.product.image.width}
                  height={option.product.image.height}
                  alt={option.product.imageAlt}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[16/8] w-full object-cover"
                />
              </div>
              <h3 className="mt-5 text-xl font-bold text-brand-900">{option.product.name}</h3>
              <p className="mt-2 text-muted">{option.product.description}</p>
              <div className="mt-6 flex flex-col gap-3 sm:flex-row">
                <ButtonLink href={option.product.href} variant="primary">
                  Ver {option.product.name}
                </ButtonLink>
                <ButtonLink href={consultationUrl} variant="secondary" external>
                  Agendar una consulta técnica
                </ButtonLink>
              </div>
            </div>
          ))}
          <button type="reset" className={buttonClasses('ghost', 'md', 'mt-4 -ml-2 px-2')}>
            <LineIcon className="size-4" weight="2" box={20}>
              <path d="M16 10H4M9 5l-5 5 5 5" />
            </LineIcon>
            Elegir otro enfoque
          </button>
        </div>
      </form>
    </dialog>
  );
}

function FocusIcon({ productId }: { productId: string }) {
  if (productId === 'admcloud') {
    return (
      <LineIcon className="size-6" weight="1.8">
        <rect x="4" y="3" width="16" height="18" rx="2" />
        <path d="M8 7h8M8 11h2M12 11h2M16 11v6M8 15h2M12 15h2M8 18h6" />
      </LineIcon>
    );
  }
  if (productId === 'restaurantpe') {
    return (
      <LineIcon className="size-6" weight="1.8">
        <path d="M7 3v7a2 2 0 0 0 2 2v9M5 3v5M9 3v5M17 3c-2 1.5-3 4.5-3 8h3v10" />
      </LineIcon>
    );
  }
  return (
    <LineIcon className="size-6" weight="1.8">
      <rect x="7" y="2" width="10" height="20" rx="2" />
      <path d="M10 6h4M10 18h4M10 10h4v4h-4z" />
    </LineIcon>
  );
}

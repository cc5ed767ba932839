import type { Announcement } from '../../content/announcements';
import { ArrowRightIcon, CloseIcon, SparkIcon } from './icons';

export const WHATSNEW_ID = 'whatsnew';

/**
 * The what's-new toast, rendered hidden with every announcement in it; `frame-behaviour.ts`
 * reveals the first one the visitor has not seen (spec: one per page load, remembered under
 * `whatsnew-{id}`). On a phone it is a compact strip beside the WhatsApp button, so the first screen
 * stays readable; from `sm` up it is a card above the button, bottom-right. It never covers a form, a
 * form's outcome or anything marked `data-keep-clear`: over one it steps aside until the visitor scrolls on.
 */
export default function WhatsNewToast({ announcements }: { announcements: readonly Announcement[] }) {
  return (
    <aside
      id={WHATSNEW_ID}
      aria-label="Novedades"
      hidden
      className="whatsnew-toast fixed right-22 bottom-4 left-4 z-30 sm:right-6 sm:bottom-26 sm:left-auto sm:w-[22rem]"
    >
      <div className="relative overflow-hidden rounded-card border border-line bg-white py-2.5 pr-10 pl-4 shadow-xl shadow-brand-950/15 sm:p-4 sm:pr-12">
        <span
          aria-hidden="true"
          className="absolute inset-y-0 left-0 w-1 bg-gradient-to-b from-accent-500 to-brand-500"
        />
        {announcements.map((item) => (
          <div key={item.id} data-whatsnew={item.id} hidden>
            <p className="hidden items-center gap-1.5 text-xs font-semibold tracking-wider text-accent-700 uppercase sm:flex">
              <SparkIcon />
              Novedad
            </p>
            <p className="text-sm font-bold text-brand-900 sm:mt-1 sm:text-base">{item.title}</p>
            <p className="mt-0.5 line-clamp-2 text-sm leading-snug text-muted sm:mt-1 sm:line-clamp-none">
              {item.message}
            </p>
            <a
              href={item.link}
              className="mt-1 inline-flex min-h-6 items-center gap-1 text-sm font-semibold sm:mt-2.5 text-brand-700 hover:text-brand-900 hover:underline"
            >
              Ver más detalles
              <ArrowRightIcon />
            </a>
          </div>
        ))}
        <button
          type="button"
          data-whatsnew-close=""
          aria-label="Cerrar aviso de novedades"
          className="absolute top-1 right-1 grid size-9 place-items-center sm:top-2.5 sm:right-2.5 rounded-full text-muted hover:bg-surface hover:text-brand-900"
        >
          <CloseIcon />
        </button>
      </div>
    </aside>
  );
}

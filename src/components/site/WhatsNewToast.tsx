import type { Announcement } from '../../content/announcements';
import { ArrowRightIcon, CloseIcon, SparkIcon } from './icons';

export const WHATSNEW_ID = 'whatsnew';

/**
 * The what's-new toast, rendered hidden with every announcement in it; `frame-behaviour.ts`
 * reveals the first one the visitor has not seen (spec: one per page load, remembered under
 * `whatsnew-{id}`). Sits above the WhatsApp button, bottom-right.
 */
export default function WhatsNewToast({ announcements }: { announcements: readonly Announcement[] }) {
  return (
    <aside id={WHATSNEW_ID} aria-label="Novedades" hidden className="whatsnew-toast fixed right-4 bottom-24 z-30 w-[min(22rem,calc(100vw-2rem))] sm:right-6 sm:bottom-26">
      <div className="relative overflow-hidden rounded-card border border-line bg-white p-4 pr-12 shadow-xl shadow-brand-950/15">
        <span aria-hidden="true" className="absolute inset-y-0 left-0 w-1 bg-gradient-to-b from-accent-500 to-brand-500" />
        {announcements.map((item) => (
          <div key={item.id} data-whatsnew={item.id} hidden>
            <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wider text-accent-700 uppercase">
              <SparkIcon />
              Novedad
            </p>
            <p className="mt-1 font-bold text-brand-900">{item.title}</p>
            <p className="mt-1 text-sm leading-snug text-muted">{item.message}</p>
            <a href={item.link} className="mt-2.5 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:text-brand-900 hover:underline">
              Ver más detalles
              <ArrowRightIcon />
            </a>
          </div>
        ))}
        <button
          type="button"
          data-whatsnew-close=""
          aria-label="Cerrar aviso de novedades"
          className="absolute top-2.5 right-2.5 grid size-9 place-items-center rounded-full text-muted hover:bg-surface hover:text-brand-900"
        >
          <CloseIcon />
        </button>
      </div>
    </aside>
  );
}

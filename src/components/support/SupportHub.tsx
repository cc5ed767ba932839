import { whatsappLink } from '../../lib/whatsapp';
import { ROUTES } from '../../routes';
import { LineIcon } from '../ui/LineIcon';

export interface SupportHubProps {
  whatsappNumber: string;
  phone: string;
}

const cardClass =
  'group flex flex-col rounded-card border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md focus-within:shadow-md';

function Icon({ path }: { path: string }) {
  return (
    <span
      aria-hidden="true"
      className="grid size-11 place-items-center rounded-button bg-brand-50 text-brand-700"
    >
      <LineIcon className="size-6" weight="1.8">
        <path d={path} />
      </LineIcon>
    </span>
  );
}

/**
 * The ways in: find the answer in the help centre, open an incident, follow one, talk on WhatsApp. Each
 * card's link is a primary call to action: the what's-new toast steps aside from it (`data-keep-clear`,
 * issue 39 §12: it covered 'Escribir por WhatsApp →' at 1280 px).
 */
export default function SupportHub({ whatsappNumber, phone }: SupportHubProps) {
  return (
    <section
      aria-label="Opciones de soporte"
      className="mx-auto grid max-w-6xl gap-5 px-4 pb-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4"
    >
      <article className={cardClass}>
        <Icon path="M12 18h.01M9.1 9a3 3 0 1 1 4.2 2.7c-.8.4-1.3 1.2-1.3 2.1V15M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z" />
        <h2 className="mt-4 text-lg font-bold text-brand-900">Centro de ayuda</h2>
        <p className="mt-2 flex-1 text-sm text-muted">
          Guías paso a paso para resolver por tu cuenta las dudas más comunes.
        </p>
        <a
          href={ROUTES.help}
          data-keep-clear=""
          className="mt-5 font-semibold text-brand-700 group-hover:underline"
        >
          Buscar en la ayuda →
        </a>
      </article>
      <article className={cardClass}>
        <Icon path="M12 8v5m0 3h.01M10.3 3.9 2.6 17.2A2 2 0 0 0 4.3 20h15.4a2 2 0 0 0 1.7-2.8L13.7 3.9a2 2 0 0 0-3.4 0Z" />
        <h2 className="mt-4 text-lg font-bold text-brand-900">Abrir una incidencia</h2>
        <p className="mt-2 flex-1 text-sm text-muted">
          ¿Algo no funciona en tu sistema? Regístralo y recibe un número para darle seguimiento.
        </p>
        <a
          href={ROUTES.supportNew}
          data-keep-clear=""
          className="mt-5 font-semibold text-brand-700 group-hover:underline"
        >
          Abrir incidencia →
        </a>
      </article>
      <article className={cardClass}>
        <Icon path="M9 5h10M9 12h10M9 19h10M4.5 5h.01M4.5 12h.01M4.5 19h.01" />
        <h2 className="mt-4 text-lg font-bold text-brand-900">Consultar el estado</h2>
        <p className="mt-2 flex-1 text-sm text-muted">
          Con tu número de incidencia y tu correo ves en qué estado está y su historial.
        </p>
        <a
          href={ROUTES.supportTracking}
          data-keep-clear=""
          className="mt-5 font-semibold text-brand-700 group-hover:underline"
        >
          Ver seguimiento →
        </a>
      </article>
      <article className={cardClass}>
        <Icon path="M4 20l1.3-3.9A8 8 0 1 1 8 18.8L4 20Z" />
        <h2 className="mt-4 text-lg font-bold text-brand-900">Hablar con un técnico</h2>
        <p className="mt-2 flex-1 text-sm text-muted">
          Para urgencias escríbenos por WhatsApp o llámanos al {phone}.
        </p>
        <a
          href={whatsappLink(whatsappNumber)}
          target="_blank"
          rel="noopener noreferrer"
          data-keep-clear=""
          className="mt-5 font-semibold text-brand-700 group-hover:underline"
        >
          Escribir por WhatsApp →<span className="sr-only"> (se abre en una pestaña nueva)</span>
        </a>
      </article>
    </section>
  );
}

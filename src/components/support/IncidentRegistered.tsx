import { INCIDENT_MESSAGES } from '../../domain/forms/incident';
import { DoneIcon } from '../ui/LineIcon';
import { IncidentNumber } from '../ui/KeepWhole';

export interface IncidentRegisteredProps {
  numeroIncidencia: string;
  whatsappUrl: string;
  trackingHref: string;
  /** True when an e-mail was given: the confirmation is on its way. */
  mailed?: boolean;
}

/** The result of opening an incident without JavaScript (same texts as the widget's notice). */
export default function IncidentRegistered({
  numeroIncidencia,
  whatsappUrl,
  trackingHref,
  mailed,
}: IncidentRegisteredProps) {
  return (
    <div role="alert" className="flex flex-col items-start gap-4">
      <span
        aria-hidden="true"
        className="grid size-12 place-items-center rounded-full bg-accent-100 text-accent-700"
      >
        <DoneIcon className="size-6" />
      </span>
      <p className="text-xl font-bold text-brand-900">
        {INCIDENT_MESSAGES.success}{' '}
        <IncidentNumber numero={numeroIncidencia} className="font-mono text-accent-700" />
      </p>
      <p className="text-muted">
        Guarda este número: con él y tu correo puedes consultar el estado en cualquier momento.
        {mailed ? ' También te lo enviamos por correo.' : ''}
      </p>
      <div className="flex flex-wrap gap-3">
        <a
          href={whatsappUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex min-h-11 items-center rounded-button bg-accent-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-900"
        >
          Continuar por WhatsApp<span className="sr-only"> (se abre en una pestaña nueva)</span>
        </a>
        <a
          href={trackingHref}
          className="inline-flex min-h-11 items-center rounded-button border border-line px-5 py-2.5 font-semibold text-brand-900 hover:bg-surface"
        >
          Consultar seguimiento
        </a>
      </div>
    </div>
  );
}

import { formatWhatsappNumber, whatsappLink } from '../../lib/whatsapp';
import { ROUTES } from '../../routes';
import { EmailAddress } from '../ui/KeepWhole';

export interface SupportAsideProps {
  phone: string;
  email: string;
  whatsappNumber: string;
  /** The opening hours of 'Tiempos de respuesta' (formatOpeningHours: issue 39 §12). */
  hours: string;
}

/** Other ways to reach support, beside the forms. */
export default function SupportAside({ phone, email, whatsappNumber, hours }: SupportAsideProps) {
  return (
    <aside aria-label="Otros canales de soporte" data-keep-clear="" className="flex flex-col gap-4">
      <div className="rounded-card border border-line bg-surface p-6">
        <h2 className="text-base font-bold text-brand-900">Otros canales</h2>
        <dl className="mt-4 flex flex-col gap-3 text-sm">
          <div>
            <dt className="text-muted">WhatsApp</dt>
            <dd>
              <a
                className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                href={whatsappLink(whatsappNumber)}
                target="_blank"
                rel="noopener noreferrer"
              >
                {formatWhatsappNumber(whatsappNumber)}
                <span className="sr-only"> (se abre en una pestaña nueva)</span>
              </a>
            </dd>
          </div>
          <div>
            <dt className="text-muted">Teléfono</dt>
            <dd>
              <a
                className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                href={`tel:${phone.replace(/[^\d+]/g, '')}`}
              >
                {phone}
              </a>
            </dd>
          </div>
          <div>
            <dt className="text-muted">Correo</dt>
            <dd>
              <a
                className="text-[0.8125rem] font-semibold tracking-tight text-brand-700 underline-offset-2 hover:underline"
                href={`mailto:${email}`}
              >
                <EmailAddress email={email} />
              </a>
            </dd>
          </div>
        </dl>
      </div>
      <div className="rounded-card border border-line bg-white p-6">
        <h2 className="text-base font-bold text-brand-900">Horario de soporte</h2>
        <p className="mt-2 text-sm text-muted">{hours}</p>
        <p className="mt-3 text-sm">
          <a
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            href={ROUTES.supportTracking}
          >
            Consultar una incidencia →
          </a>
        </p>
      </div>
    </aside>
  );
}

import { whatsappLink } from '../../lib/whatsapp';
import { ExternalIcon } from '../ui/Button';
import { Section } from '../ui/Section';

export interface ContactChannelsProps {
  whatsappNumber: string;
  bookingUrl: string;
}

/** Other ways to reach us, below the contact section of /contacto. */
export default function ContactChannels({ whatsappNumber, bookingUrl }: ContactChannelsProps) {
  const whatsappUrl = whatsappLink(
    whatsappNumber,
    'Hola, me gustaría recibir información sobre sus servicios.',
  );
  return (
    <Section
      id="otros-canales"
      eyebrow="Otras vías"
      title="Elige cómo prefieres hablar con nosotros"
      tone="surface"
    >
      <ul className="grid gap-6 md:grid-cols-3">
        <li
          data-reveal="fade-up"
          className="flex flex-col rounded-card border border-line bg-white p-7 shadow-sm"
        >
          <h3 className="text-lg font-bold text-brand-900">Escríbenos por WhatsApp</h3>
          <p className="mt-2 flex-1 text-muted">
            Para una consulta rápida sobre precios, planes o disponibilidad. Respondemos en horario laborable.
          </p>
          <a
            href={whatsappUrl}
            target="_blank"
            rel="noopener"
            className="mt-5 inline-flex items-center gap-2 font-semibold text-accent-700 hover:underline"
          >
            Abrir chat
            <ExternalIcon />
            <span className="sr-only"> (se abre en una pestaña nueva)</span>
          </a>
        </li>
        <li
          data-reveal="fade-up"
          className="flex flex-col rounded-card border border-line bg-white p-7 shadow-sm"
        >
          <h3 className="text-lg font-bold text-brand-900">Agenda una presentación</h3>
          <p className="mt-2 flex-1 text-muted">
            Elige día y hora en nuestro calendario y te mostramos el sistema en vivo, por videollamada o en tu
            oficina.
          </p>
          <a
            href={bookingUrl}
            target="_blank"
            rel="noopener"
            className="mt-5 inline-flex items-center gap-2 font-semibold text-accent-700 hover:underline"
          >
            Ver horarios disponibles
            <ExternalIcon />
            <span className="sr-only"> (se abre en una pestaña nueva)</span>
          </a>
        </li>
        <li
          data-reveal="fade-up"
          className="flex flex-col rounded-card border border-line bg-white p-7 shadow-sm"
        >
          <h3 className="text-lg font-bold text-brand-900">¿Ya eres cliente?</h3>
          <p className="mt-2 flex-1 text-muted">
            Si algo no funciona, usa el botón «🆘 Solicitar Ayuda» en la parte superior de la página:
            registras una incidencia con su número de seguimiento y nuestro equipo de soporte la atiende por
            orden de llegada.
          </p>
        </li>
      </ul>
    </Section>
  );
}

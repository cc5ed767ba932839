import { formatPendingCount } from '../../domain/messages';
import { ROUTES } from '../../routes';

/** 'Mensajes por atender' on the staff home: the contact messages nobody has handled yet, linked to the inbox. */
export default function PendingMessagesCard({ count }: { count: number }) {
  return (
    <section
      aria-labelledby="tarjeta-mensajes-por-atender"
      className="rounded-card border border-line bg-white p-6 shadow-sm"
    >
      <h2
        id="tarjeta-mensajes-por-atender"
        className="text-sm font-semibold tracking-wide text-muted uppercase"
      >
        Mensajes por atender
      </h2>
      <p className="mt-4 text-4xl font-bold text-brand-900" data-testid="mensajes-por-atender">
        {formatPendingCount(count)}
      </p>
      <p className="mt-2 text-sm text-muted">
        {count === 0
          ? 'Todos los mensajes de contacto están atendidos.'
          : 'Mensajes del formulario de contacto que nadie ha marcado como atendidos.'}
      </p>
      <a
        href={ROUTES.adminMessages}
        className="mt-4 inline-block text-sm font-semibold text-brand-800 underline hover:no-underline"
      >
        Ir a Mensajes
      </a>
    </section>
  );
}

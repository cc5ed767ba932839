import { formatStaffDateTime } from '../../domain/dates';
import {
  MESSAGE_FILTER_LABELS,
  MESSAGE_FILTERS,
  messageViewQuery,
  type MessageView,
} from '../../domain/messages';
import { newClientPath, ROUTES } from '../../routes';
import type { InboxMessage } from '../../server/contact/inbox';
import { DownloadIcon } from './icons';
import ListPager from './ListPager';

export interface MessagesPanelProps {
  items: InboxMessage[];
  view: MessageView;
  hasNext: boolean;
  /** What the last 'Marcar como…' did, after its redirect back here. */
  done?: string | undefined;
  /** A refused post (unknown action, a message that no longer exists). */
  error?: string | undefined;
}

const inputClass =
  'w-full rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500';
const secondaryClass =
  'inline-flex items-center gap-2 rounded-button border border-line bg-white px-3 py-2 text-sm font-semibold text-brand-900 hover:bg-brand-50';

const href = (view: Partial<MessageView>) => `${ROUTES.adminMessages}${messageViewQuery(view)}`;

function MessageCard({ message, action }: { message: InboxMessage; action: string }) {
  const titleId = `mensaje-${message.id}`;
  const handled = message.handledAt !== null;
  return (
    <article
      aria-labelledby={titleId}
      data-mensaje={message.id}
      className="rounded-card border border-line bg-white p-5 shadow-sm sm:p-6"
    >
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <h2 id={titleId} className="font-semibold wrap-anywhere text-brand-900">
            {message.name || 'Sin nombre'}
          </h2>
          <p className="text-sm break-all">
            <a href={`mailto:${message.email}`} className="text-brand-700 underline">
              {message.email}
            </a>
          </p>
        </div>
        <p className="text-sm text-muted">
          Recibido el <time dateTime={message.createdAt}>{formatStaffDateTime(message.createdAt)}</time>
        </p>
      </header>

      <p className="mt-4 text-sm wrap-anywhere whitespace-pre-wrap text-ink" data-texto>
        {message.message}
      </p>

      <footer className="mt-5 flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm" data-estado-mensaje>
          {handled ? (
            <span className="text-accent-700">
              Atendido por {message.handledByEmail ?? 'un miembro del personal'} el{' '}
              <time dateTime={message.handledAt!}>{formatStaffDateTime(message.handledAt!)}</time>
            </span>
          ) : (
            <span className="font-medium text-amber-800">Pendiente</span>
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          <a
            href={newClientPath({ nombreRepresentante: message.name, email: message.email })}
            className={secondaryClass}
          >
            Crear cliente
          </a>
          <form method="post" action={action}>
            <input type="hidden" name="_intent" value={handled ? 'pendiente' : 'atendido'} />
            <input type="hidden" name="id" value={message.id} />
            <button
              type="submit"
              className={
                handled
                  ? secondaryClass
                  : 'rounded-button bg-brand-900 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800'
              }
            >
              {handled ? 'Marcar como pendiente' : 'Marcar como atendido'}
            </button>
          </form>
        </div>
      </footer>
    </article>
  );
}

/**
 * Mensajes: the contact form's messages, newest first, with the 'Pendientes' / 'Atendidos' filter and
 * the search in the URL. Rendered on the server only: every control is a link or a plain form.
 */
export default function MessagesPanel({ items, view, hasNext, done, error }: MessagesPanelProps) {
  // The marks post `messages.mark` to this same filtered list, which they come back to.
  const query = messageViewQuery(view);
  const action = `${ROUTES.adminMessages}${query}${query ? '&' : '?'}_action=messages.mark`;
  const emptyText = view.q
    ? 'Ningún mensaje coincide con la búsqueda.'
    : view.estado === 'pendientes'
      ? 'No hay mensajes pendientes.'
      : 'Todavía no hay mensajes atendidos.';
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-brand-900">Mensajes</h1>
          <p className="mt-1 text-sm text-muted">
            Mensajes del formulario de contacto, más recientes primero. El filtro y la búsqueda quedan en la
            dirección de la página.
          </p>
        </div>
        <a
          href={`${ROUTES.staffMessagesCsv}${messageViewQuery({ estado: view.estado, q: view.q })}`}
          className={secondaryClass}
          download
        >
          <DownloadIcon className="size-4" />
          Exportar CSV
        </a>
      </div>

      <div className="flex flex-col gap-3 rounded-card border border-line bg-white p-4 shadow-sm lg:flex-row lg:items-center lg:justify-between">
        <nav aria-label="Filtrar mensajes">
          <ul className="flex gap-1 rounded-button bg-surface p-1">
            {MESSAGE_FILTERS.map((filter) => (
              <li key={filter}>
                <a
                  href={href({ estado: filter, q: view.q })}
                  aria-current={filter === view.estado ? 'page' : undefined}
                  className="block rounded-button px-4 py-2 text-sm font-medium text-brand-900 hover:bg-brand-50 aria-[current=page]:bg-brand-900 aria-[current=page]:text-white"
                >
                  {MESSAGE_FILTER_LABELS[filter]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form
          method="get"
          action={ROUTES.adminMessages}
          role="search"
          aria-label="Buscar mensajes"
          className="flex flex-col gap-2 sm:flex-row sm:items-center lg:w-auto lg:min-w-[28rem]"
        >
          {view.estado === 'atendidos' ? <input type="hidden" name="estado" value={view.estado} /> : null}
          <label htmlFor="buscar-mensaje" className="sr-only">
            Buscar por nombre, correo o texto
          </label>
          <input
            id="buscar-mensaje"
            name="q"
            type="search"
            defaultValue={view.q}
            placeholder="Buscar por nombre, correo o texto"
            className={`${inputClass} sm:flex-1`}
          />
          <div className="flex gap-2">
            <button
              type="submit"
              className="flex-1 rounded-button bg-brand-900 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              Buscar
            </button>
            {view.q ? (
              <a
                href={href({ estado: view.estado })}
                className="rounded-button border border-line px-3 py-2 text-sm font-medium text-brand-900 hover:bg-brand-50"
              >
                Limpiar
              </a>
            ) : null}
          </div>
        </form>
      </div>

      <div aria-live="polite" className="empty:hidden">
        {done ? (
          <p role="status" className="rounded-button bg-accent-100 px-3 py-2 text-sm text-accent-700">
            {done}
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="rounded-button bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </div>

      {items.length === 0 ? (
        <div className="rounded-card border border-dashed border-line bg-white p-8 text-center text-muted">
          <p>{emptyText}</p>
          {view.pagina > 1 ? (
            <p className="mt-2">
              <a
                href={href({ estado: view.estado, q: view.q })}
                className="font-medium text-brand-700 underline"
              >
                Ir a la primera página
              </a>
            </p>
          ) : null}
        </div>
      ) : (
        <div className="flex flex-col gap-4" data-testid="lista-mensajes">
          {items.map((message) => (
            <MessageCard key={message.id} message={message} action={action} />
          ))}
        </div>
      )}

      <ListPager
        page={view.pagina}
        prevHref={view.pagina > 1 ? href({ ...view, pagina: view.pagina - 1 }) : undefined}
        nextHref={hasNext ? href({ ...view, pagina: view.pagina + 1 }) : undefined}
      />
    </div>
  );
}

import { actions, isActionError, isInputError } from 'astro:actions';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { formatStaffDateTime } from '../../domain/dates';
import {
  CLIENT_FIELDS,
  PROJECT_STATES,
  type ClientFieldName,
  type ClientRecord,
  type ProjectState,
} from '../../domain/forms/client';
import { adminClientMeetingPath, adminClientPath, clientListQuery, ROUTES } from '../../routes';
import { callableCode, withTimeout } from './callable';
import LiveMessage from './LiveMessage';

/** The outcome of the add-client form when it was posted without JavaScript (rendered by the page). */
export interface ClientFormOutcome {
  values?: Partial<Record<ClientFieldName, string>>;
  errors?: Partial<Record<string, string[] | undefined>>;
  result?: ClientFormResult;
}

type ClientFormResult = { kind: 'ok' | 'error'; text: string; warnings?: string[] };

export interface ClientsPanelProps {
  clients: ClientRecord[];
  search?: string;
  /** The project-state filter, when one is applied. */
  estado?: ProjectState;
  /** The archived clients are listed instead of the active ones. */
  archived?: boolean;
  form?: ClientFormOutcome;
  /** The list's page (1 = newest), with the links to the pages either side when they exist. */
  page?: number;
  prevHref?: string | undefined;
  nextHref?: string | undefined;
}

/** Where the form posts when JavaScript is off: this page runs the action and shows the outcome. */
const CREATE_ACTION = `${ROUTES.adminClients}?_action=clients.create#nuevo-cliente`;

const PROJECT_TYPES = [
  'Implementación AdmCloud',
  'Restaurant.pe',
  'Tiendao',
  'Desarrollo de reportes',
  'Entrenamiento',
];

const inputClass =
  'w-full rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 aria-[invalid=true]:border-red-400';

type WelcomeState = 'idle' | 'sending' | 'sent';

function WelcomeButton({ client }: { client: ClientRecord }) {
  const [state, setState] = useState<WelcomeState>(client.correoBienvenidaEnviado ? 'sent' : 'idle');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const busy = useRef(false);

  useEffect(() => {
    if (message?.kind !== 'ok') return;
    const timer = setTimeout(() => setMessage(null), 3000);
    return () => clearTimeout(timer);
  }, [message]);

  async function send() {
    // A second click while the first is in flight sends nothing (the server also shares one send).
    if (busy.current || state !== 'idle') return;
    busy.current = true;
    setState('sending');
    setMessage(null);
    try {
      const { data, error } = await withTimeout(actions.clients.sendWelcome({ id: client.id }));
      if (error || !data?.correoBienvenidaEnviado) {
        const code = isActionError(error) ? callableCode(error.status) : 'internal';
        setState('idle');
        setMessage({ kind: 'error', text: `Hubo un error al enviar el correo (${code})` });
        return;
      }
      setState('sent');
      setMessage({ kind: 'ok', text: `Correo de bienvenida enviado a ${client.email}` });
    } catch (error) {
      setState('idle');
      const code =
        error instanceof Error && error.name === 'CallTimeoutError' ? 'deadline-exceeded' : 'internal';
      setMessage({ kind: 'error', text: `Hubo un error al enviar el correo (${code})` });
    } finally {
      busy.current = false;
    }
  }

  const label = state === 'sending' ? '🕓 Enviando...' : state === 'sent' ? '✅ Enviado' : '📧 Bienvenida';
  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => void send()}
          disabled={state !== 'idle'}
          aria-label={`${label} — ${client.razonSocial}`}
          className="rounded-button bg-brand-900 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-default disabled:bg-brand-100 disabled:text-brand-900"
        >
          {label}
        </button>
        {client.archivedAt ? null : (
          <a
            href={adminClientMeetingPath(client.id)}
            aria-label={`Reunión — ${client.razonSocial}`}
            className="rounded-button border border-line px-3 py-2 text-sm font-medium text-brand-900 hover:bg-surface"
          >
            Reunión
          </a>
        )}
      </div>
      <LiveMessage message={message} compact />
    </div>
  );
}

/** Spanish texts of the form's outcome, shared by the island and the page that renders a no-JavaScript post. */
export const CLIENT_FORM_TEXT = {
  saved: (razonSocial: string) => `Cliente «${razonSocial}» guardado correctamente.`,
  failed: (code: string, fields = false) =>
    `Error al guardar cliente (${code})${fields ? '. Revise los campos marcados.' : ''}`,
};

function firstErrors(fields: ClientFormOutcome['errors']): Partial<Record<ClientFieldName, string>> {
  return Object.fromEntries(
    Object.entries(fields ?? {}).map(([key, value]) => [key, value?.[0] ?? 'Valor no válido.']),
  );
}

function ClientForm({
  onCreated,
  initial,
}: {
  onCreated: (client: ClientRecord) => void;
  initial?: ClientFormOutcome;
}) {
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<ClientFieldName, string>>>(() =>
    firstErrors(initial?.errors),
  );
  const [result, setResult] = useState<ClientFormResult | null>(initial?.result ?? null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setSaving(true);
    setResult(null);
    setErrors({});
    try {
      const { data: saved, error } = await actions.clients.create(new FormData(form));
      if (error || !saved) {
        if (isInputError(error)) setErrors(firstErrors(error.fields));
        const code = isActionError(error) ? callableCode(error.status) : 'internal';
        setResult({ kind: 'error', text: CLIENT_FORM_TEXT.failed(code, isInputError(error)) });
        return;
      }
      form.reset();
      // A pre-filled form ('Crear cliente' in the contact inbox) starts empty again, not at its pre-fill.
      for (const input of form.querySelectorAll('input')) input.value = '';
      onCreated(saved.client);
      setResult({
        kind: 'ok',
        text: CLIENT_FORM_TEXT.saved(saved.client.razonSocial),
        warnings: saved.warnings,
      });
    } catch {
      setResult({ kind: 'error', text: 'Error al guardar cliente' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section
      aria-labelledby="nuevo-cliente"
      className="rounded-card border border-line bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="nuevo-cliente" className="text-lg font-semibold text-brand-900">
        Agregar cliente
      </h2>
      <p className="mt-1 text-sm text-muted">
        Todos los campos son obligatorios. El proyecto empieza en estado «pendiente».
      </p>
      <form
        method="post"
        action={CREATE_ACTION}
        onSubmit={(event) => void submit(event)}
        className="mt-5 grid gap-4 sm:grid-cols-2"
      >
        {CLIENT_FIELDS.map((field) => (
          <div key={field.name} className="flex flex-col gap-1">
            <label htmlFor={`c-${field.name}`} className="text-sm font-medium text-ink">
              {field.label}
            </label>
            <input
              id={`c-${field.name}`}
              name={field.name}
              type={field.type}
              required
              autoComplete={field.autoComplete}
              list={field.name === 'tipoProyecto' ? 'tipos-proyecto' : undefined}
              placeholder={field.name === 'telefono' ? '809-555-0142' : undefined}
              defaultValue={initial?.values?.[field.name] ?? ''}
              aria-invalid={errors[field.name] ? true : undefined}
              aria-describedby={errors[field.name] ? `c-${field.name}-error` : undefined}
              className={inputClass}
            />
            {errors[field.name] ? (
              <p id={`c-${field.name}-error`} className="text-xs text-red-700">
                {errors[field.name]}
              </p>
            ) : null}
          </div>
        ))}
        <datalist id="tipos-proyecto">
          {PROJECT_TYPES.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center">
          <button
            type="submit"
            disabled={saving}
            className="rounded-button bg-brand-900 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {saving ? 'Guardando...' : 'Guardar cliente'}
          </button>
          <LiveMessage
            message={result}
            extra={result?.warnings?.map((warning) => (
              <p key={warning} className="mt-1 text-amber-800">
                ⚠ {warning}
              </p>
            ))}
          />
        </div>
      </form>
    </section>
  );
}

const TOOL_LINK =
  'rounded-button border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-sm hover:bg-brand-50';

/** 'Exportar CSV' of what the list shows: the same filters. */
function clientsCsvHref(
  search: string | undefined,
  estado: ProjectState | undefined,
  archived: boolean,
): string {
  return `${ROUTES.staffClientsCsv}${clientListQuery({ search, estado, archived })}`;
}

/** Clientes: search (in the URL, applied by the server), the list with its welcome-mail buttons, and the add-client form. */
export default function ClientsPanel({
  clients: initial,
  search,
  estado,
  archived = false,
  form,
  page = 1,
  prevHref,
  nextHref,
}: ClientsPanelProps) {
  const [clients, setClients] = useState(initial);
  // A client just added is active and 'pendiente': it joins the list only when the filters show it.
  const showsNew = !archived && (!estado || estado === 'pendiente') && page === 1;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-brand-900">Clientes</h1>
        <p className="mt-1 text-sm text-muted">
          {archived
            ? 'Clientes archivados, más recientes primero.'
            : 'Empresas con proyectos en curso, más recientes primero.'}
        </p>
      </div>

      <form
        method="get"
        action={ROUTES.adminClients}
        role="search"
        aria-label="Buscar clientes"
        className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center"
      >
        <label htmlFor="buscar-cliente" className="sr-only">
          Buscar por razón social, correo o RNC
        </label>
        <input
          id="buscar-cliente"
          name="q"
          type="search"
          defaultValue={search}
          placeholder="Buscar por razón social, correo o RNC"
          className={`${inputClass} sm:w-auto sm:flex-1`}
        />
        <label htmlFor="filtro-estado" className="sr-only">
          Estado del proyecto
        </label>
        <select
          id="filtro-estado"
          name="estado"
          defaultValue={estado ?? ''}
          className={`${inputClass} sm:w-auto`}
        >
          <option value="">Todos los estados</option>
          {PROJECT_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-2 text-sm text-ink">
          <input type="checkbox" name="archivados" value="1" defaultChecked={archived} className="size-4" />
          Archivados
        </label>
        <button
          type="submit"
          className="rounded-button bg-brand-900 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Buscar
        </button>
      </form>

      <div className="flex flex-wrap gap-2">
        <a href={clientsCsvHref(search, estado, archived)} className={TOOL_LINK}>
          Exportar CSV
        </a>
        <a href={ROUTES.adminClientsImport} className={TOOL_LINK}>
          Importar CSV
        </a>
      </div>

      {clients.length === 0 ? (
        <p className="rounded-card border border-dashed border-line bg-white p-8 text-center text-muted">
          No se encontraron resultados.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Lista de clientes">
          {clients.map((client) => (
            <li
              key={client.id}
              className="flex flex-col gap-4 rounded-card border border-line bg-white p-5 shadow-sm sm:flex-row sm:items-start sm:justify-between"
              data-cliente={client.email}
            >
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="font-semibold break-words text-brand-900">
                    <a href={adminClientPath(client.id)} className="hover:underline">
                      {client.razonSocial}
                    </a>
                  </h2>
                  <span
                    className="rounded-full bg-sun-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800"
                    data-estado
                  >
                    {client.estadoProyecto}
                  </span>
                  {client.archivedAt ? (
                    <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
                      archivado
                    </span>
                  ) : null}
                </div>
                <p className="mt-1 text-sm text-ink">
                  {client.nombreRepresentante} ·{' '}
                  <a href={`mailto:${client.email}`} className="text-brand-700 underline">
                    {client.email}
                  </a>{' '}
                  · {client.telefono}
                </p>
                <p className="mt-1 text-xs text-muted">
                  RNC {client.rnc} · {client.tipoProyecto} · registrado el{' '}
                  {formatStaffDateTime(client.fechaRegistro)}
                </p>
              </div>
              <WelcomeButton client={client} />
            </li>
          ))}
        </ul>
      )}

      {prevHref || nextHref ? (
        <nav aria-label="Paginación de clientes" className="flex items-center justify-between gap-4 text-sm">
          {prevHref ? (
            <a href={prevHref} className={TOOL_LINK}>
              ← Anterior
            </a>
          ) : (
            <span />
          )}
          <span className="text-muted">Página {page}</span>
          {nextHref ? (
            <a href={nextHref} className={TOOL_LINK}>
              Siguiente →
            </a>
          ) : (
            <span />
          )}
        </nav>
      ) : null}

      <ClientForm
        initial={form}
        onCreated={(client) => {
          if (showsNew) setClients((list) => [client, ...list]);
        }}
      />
    </div>
  );
}

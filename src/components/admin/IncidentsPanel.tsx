import { useState, type ReactNode, type SubmitEvent } from 'react';
import { formatAgo, formatStaffDateTime } from '../../domain/dates';
import {
  INCIDENT_ORIGINS,
  INCIDENT_PRIORITIES,
  INCIDENT_STATE_TONE,
  INCIDENT_STATES,
  WAITING_STATE,
  type IncidentTone,
} from '../../domain/incidents';
import { incidentPath, ROUTES } from '../../routes';
import type { IncidentFilters } from '../../server/incidents/query';
import type { IncidentListItem } from '../../server/incidents/search';
import { ChevronDownIcon, DownloadIcon } from './icons';
import IncidentPriorityControl, { PriorityBadge } from './IncidentPriority';
import IncidentStateControl from './IncidentStateControl';
import { CHANNEL_WORDS, channelOfOrigin } from '../../domain/channels.ts';
import ListPager from './ListPager';

export interface IncidentsPanelProps {
  items: IncidentListItem[];
  /** The server's time of the render (ISO): the ages are counted from it, the same on server and browser. */
  now: string;
  filters: IncidentFilters;
  page: number;
  prevHref?: string;
  nextHref?: string;
  csvHref: string;
  /** This page of the list, with its filters: where a state changed without JavaScript comes back to. */
  selfHref?: string;
}

const BADGE: Record<IncidentTone, string> = {
  new: 'bg-sun-100 text-amber-800 ring-sun-500/30',
  active: 'bg-brand-100 text-brand-700 ring-brand-500/30',
  waiting: 'bg-slate-100 text-slate-700 ring-slate-500/30',
  done: 'bg-accent-100 text-accent-700 ring-accent-500/30',
};

const inputClass =
  'w-full rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500';

/** One field of the filter form: its label above the control. */
function FilterField({
  id,
  label,
  children,
  className = '',
}: {
  id: string;
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A filter's dropdown: `options` as [value, text], the first the 'all' choice (value ''). */
function SelectFilter({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [string, string])[];
}) {
  const id = `f-${name}`;
  return (
    <FilterField id={id} label={label}>
      <select id={id} name={name} defaultValue={value ?? ''} className={inputClass}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </FilterField>
  );
}

/** 'Vence' (issue 22): the next due time of the business-hours clock, red and marked when past. */
function DueTime({
  vence,
  estado,
  now,
}: {
  vence: string | null;
  estado: IncidentListItem['estado'];
  now: string;
}) {
  if (!vence)
    return (
      <dd className="truncate text-muted" data-testid="vence">
        {estado === WAITING_STATE ? 'En pausa' : '—'}
      </dd>
    );
  const past = vence <= now;
  return (
    <dd
      className={`truncate ${past ? 'font-semibold text-red-700' : 'text-ink'}`}
      data-testid="vence"
      data-vencida={past ? 'true' : undefined}
    >
      {past ? (
        <>
          <span aria-hidden="true">⚠ </span>Vencida · {formatStaffDateTime(vence)}
        </>
      ) : (
        formatStaffDateTime(vence)
      )}
    </dd>
  );
}

function IncidentCard({
  initial,
  now,
  returnTo,
}: {
  initial: IncidentListItem;
  now: string;
  returnTo: string;
}) {
  const [incident, setIncident] = useState(initial);
  const hasEmail = incident.email.trim() !== '';
  const href = incidentPath(incident.numeroIncidencia);

  return (
    <article
      className="rounded-card border border-line bg-white p-5 shadow-sm sm:p-6"
      aria-labelledby={`inc-${incident.id}`}
      data-incidencia={incident.numeroIncidencia}
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`inc-${incident.id}`} className="font-mono text-base font-semibold text-brand-900">
            <a href={href} className="hover:underline">
              {incident.numeroIncidencia}
            </a>
          </h2>
          <p className="text-sm text-muted">
            Registrada el {formatStaffDateTime(incident.fecha)} ·{' '}
            <span data-testid="antiguedad">abierta {formatAgo(incident.fecha, new Date(now))}</span> ·{' '}
            <span data-testid="origen">{incident.origen}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <PriorityBadge prioridad={incident.prioridad} />
          {incident.respuestaDelCliente ? (
            <span
              className="inline-flex items-center gap-1 rounded-full bg-red-50 px-3 py-1 text-xs font-semibold text-red-800 ring-1 ring-red-600/30"
              data-testid="respuesta-del-cliente"
            >
              <span aria-hidden="true" className="size-2 rounded-full bg-red-600" />
              Respuesta del cliente
            </span>
          ) : null}
          <span
            className={`rounded-full px-3 py-1 text-xs font-semibold ring-1 ${BADGE[INCIDENT_STATE_TONE[incident.estado]]}`}
            data-testid="estado-actual"
          >
            {incident.estado}
          </span>
        </div>
      </header>

      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:gap-x-6 lg:grid-cols-3">
        {(
          [
            ['Nombre', incident.nombre],
            ['Teléfono', incident.telefono],
            ['Correo', incident.email],
            ['RNC', incident.rnc],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
            <dd className="truncate text-ink">{value || '—'}</dd>
          </div>
        ))}
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-muted uppercase">Asignada a</dt>
          <dd
            className={`truncate ${incident.asignadaA ? 'text-ink' : 'text-muted'}`}
            title={incident.asignadaA ?? undefined}
            data-testid="asignada-a"
          >
            {incident.asignadaA ?? 'Sin asignar'}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-muted uppercase">Vence</dt>
          <DueTime vence={incident.vence} estado={incident.estado} now={now} />
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-muted uppercase">Última actividad</dt>
          <dd className="truncate text-ink" data-testid="ultima-actividad">
            {formatStaffDateTime(incident.ultimaActividad)}
          </dd>
        </div>
      </dl>
      <div className="mt-4">
        <h3 className="text-xs font-medium tracking-wide text-muted uppercase">Problema</h3>
        <p className="mt-1 text-sm whitespace-pre-wrap text-ink">{incident.problema || '—'}</p>
      </div>

      <div className="mt-5 flex flex-col gap-4 border-t border-line pt-4 lg:flex-row lg:items-start lg:justify-between">
        <details className="group text-sm lg:max-w-md">
          <summary className="cursor-pointer font-medium text-brand-700 hover:underline">
            Historial ({incident.historial.length})
          </summary>
          <ol className="mt-3 flex flex-col gap-2 border-l-2 border-brand-100 pl-4" data-testid="historial">
            {incident.historial.map((entry, index) => (
              <li key={`${entry.fecha}-${index}`}>
                <span className="font-medium text-ink">{entry.estado}</span>
                <span className="text-muted"> · {formatStaffDateTime(entry.fecha)}</span>
                <span className="text-muted">
                  {' '}
                  ·{' '}
                  {entry.actor ??
                    (channelOfOrigin(incident.origen)
                      ? CHANNEL_WORDS[channelOfOrigin(incident.origen)!].source
                      : 'Formulario de soporte')}
                </span>
              </li>
            ))}
          </ol>
        </details>
        <div className="flex flex-col gap-4">
          <IncidentStateControl
            id={incident.id}
            estado={incident.estado}
            hasEmail={hasEmail}
            returnTo={returnTo}
            onChanged={(changed) =>
              setIncident({
                ...incident,
                estado: changed.estado,
                historial: changed.historial,
                // The clock stops in these two states; a running one's new due time comes with the next load.
                vence:
                  changed.estado === 'Resuelto' || changed.estado === WAITING_STATE ? null : incident.vence,
                ultimaActividad: changed.historial.at(-1)?.fecha ?? incident.ultimaActividad,
              })
            }
          />
          <IncidentPriorityControl
            id={incident.id}
            prioridad={incident.prioridad}
            formAction={`${ROUTES.adminIncidents}?_action=incidents.setPriorityForm`}
            returnTo={returnTo}
            onChanged={(prioridad) => setIncident((current) => ({ ...current, prioridad }))}
          />
        </div>
      </div>
    </article>
  );
}

/** The incident list with its filters (in the URL, applied by the server) and the state controls. */
export default function IncidentsPanel({
  items,
  now,
  filters,
  page,
  prevHref,
  nextHref,
  csvHref,
  selfHref = ROUTES.adminIncidents,
}: IncidentsPanelProps) {
  const [loading, setLoading] = useState(false);
  const onSubmit = (_event: SubmitEvent<HTMLFormElement>) => setLoading(true);
  // How many of the filters beside 'Texto' are set: on a phone their folded fields start open when any is.
  const activeFolded = [
    filters.numero,
    filters.nombre,
    filters.rnc,
    filters.estado,
    filters.prioridad,
    filters.asignacion,
    filters.origen,
    filters.plazo,
    filters.orden,
  ].filter(Boolean).length;
  const filtered = Boolean(filters.q) || activeFolded > 0;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-brand-900">Incidencias</h1>
          <p className="mt-1 text-sm text-muted">
            {filters.orden === 'actividad' ? 'Con actividad más reciente primero.' : 'Más recientes primero.'}{' '}
            Los filtros quedan en la dirección de la página para compartir la vista.
          </p>
        </div>
        <a
          href={csvHref}
          className="inline-flex items-center gap-2 rounded-button border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-sm hover:bg-brand-50"
          download
        >
          <DownloadIcon className="size-4" />
          Exportar CSV
        </a>
      </div>

      <form
        method="get"
        action={ROUTES.adminIncidents}
        onSubmit={onSubmit}
        role="search"
        aria-label="Filtrar incidencias"
        className="grid grid-cols-2 gap-3 rounded-card border border-line bg-white p-4 shadow-sm sm:gap-4 lg:grid-cols-4 lg:items-end"
      >
        {/* On a phone the nine fields would fill the first screen: they fold behind 'Más filtros' (a
            checkbox, so it works before and without JavaScript), open when one of them is set. From
            'lg' up they are always shown, in the form's grid (the wrapper is 'contents'). */}
        <input
          id="f-mas"
          type="checkbox"
          defaultChecked={activeFolded > 0}
          className="peer sr-only lg:hidden"
          aria-controls="f-campos"
        />
        <label
          htmlFor="f-mas"
          className="col-span-2 flex cursor-pointer items-center justify-between gap-2 rounded-button px-1 py-1 text-sm font-semibold text-brand-900 peer-checked:[&>svg]:rotate-180 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 lg:hidden"
        >
          <span>
            Más filtros
            {activeFolded > 0 ? (
              <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-700">
                {activeFolded === 1 ? '1 activo' : `${activeFolded} activos`}
              </span>
            ) : null}
          </span>
          <ChevronDownIcon className="size-5 text-muted transition-transform" />
        </label>
        <div
          id="f-campos"
          className="col-span-2 grid-cols-2 gap-3 sm:gap-4 max-lg:hidden max-lg:peer-checked:grid lg:contents"
        >
          <FilterField id="f-numero" label="Número">
            <input
              id="f-numero"
              name="numero"
              defaultValue={filters.numero}
              placeholder="INC-20250101-1234"
              className={inputClass}
            />
          </FilterField>
          <FilterField id="f-nombre" label="Nombre">
            <input id="f-nombre" name="nombre" defaultValue={filters.nombre} className={inputClass} />
          </FilterField>
          <FilterField id="f-rnc" label="RNC">
            <input
              id="f-rnc"
              name="rnc"
              defaultValue={filters.rnc}
              inputMode="numeric"
              className={inputClass}
            />
          </FilterField>
          <SelectFilter
            name="estado"
            label="Estado"
            value={filters.estado}
            options={[['', 'Todos'], ...INCIDENT_STATES.map((state) => [state, state] as const)]}
          />
          <SelectFilter
            name="prioridad"
            label="Prioridad"
            value={filters.prioridad}
            options={[['', 'Todas'], ...INCIDENT_PRIORITIES.map((priority) => [priority, priority] as const)]}
          />
          <SelectFilter
            name="asignacion"
            label="Asignación"
            value={filters.asignacion}
            options={[
              ['', 'Todas'],
              ['mias', 'Asignadas a mí'],
              ['sin-asignar', 'Sin asignar'],
            ]}
          />
          <SelectFilter
            name="origen"
            label="Origen"
            value={filters.origen}
            options={[['', 'Todos'], ...INCIDENT_ORIGINS.map((origin) => [origin, origin] as const)]}
          />
          <SelectFilter
            name="plazo"
            label="Vencimiento"
            value={filters.plazo}
            options={[
              ['', 'Todas'],
              ['vencidas', 'Vencidas'],
              ['hoy', 'Vencen hoy'],
            ]}
          />
          <SelectFilter
            name="orden"
            label="Ordenar por"
            value={filters.orden}
            options={[
              ['', 'Más recientes'],
              ['actividad', 'Última actividad'],
            ]}
          />
        </div>
        <FilterField id="f-texto" label="Texto" className="col-span-2 lg:col-span-3">
          <input
            id="f-texto"
            name="q"
            type="search"
            defaultValue={filters.q}
            placeholder="Palabras del problema o de la conversación"
            className={inputClass}
          />
        </FilterField>
        <div className="col-span-2 flex gap-2 lg:col-span-1 lg:col-start-4">
          <button
            type="submit"
            className="flex-1 rounded-button bg-brand-900 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Filtrar
          </button>
          {filtered ? (
            <a
              href={ROUTES.adminIncidents}
              className="rounded-button border border-line px-3 py-2 text-sm font-medium text-brand-900 hover:bg-brand-50"
            >
              Limpiar
            </a>
          ) : null}
        </div>
      </form>

      <div aria-live="polite" aria-busy={loading}>
        {loading ? (
          <p
            role="status"
            className="rounded-card border border-dashed border-line bg-white p-8 text-center text-muted"
          >
            Cargando incidencias...
          </p>
        ) : items.length === 0 ? (
          <p className="rounded-card border border-dashed border-line bg-white p-8 text-center text-muted">
            No hay coincidencias.
          </p>
        ) : (
          <div className="flex flex-col gap-4">
            {items.map((incident) => (
              <IncidentCard key={incident.id} initial={incident} now={now} returnTo={selfHref} />
            ))}
          </div>
        )}
      </div>

      <ListPager page={page} prevHref={prevHref} nextHref={nextHref} />
    </div>
  );
}

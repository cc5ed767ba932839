import { actions, isActionError } from 'astro:actions';
import { useState } from 'react';
import { useHydrated } from './hydrated';
import { INCIDENT_PRIORITIES, type IncidentPriority } from '../../domain/incidents';
import { ROUTES } from '../../routes';
import LiveMessage from './LiveMessage';


/**
 * 'Urgente' and 'Alta' stand out by colour, weight and a mark; every badge reads 'Prioridad: …', so
 * none of it rests on colour alone.
 */
const PRIORITY_BADGE: Record<IncidentPriority, { style: string; mark: string }> = {
  Urgente: { style: 'bg-red-700 text-white font-bold ring-red-800', mark: '!!' },
  Alta: { style: 'bg-white text-red-800 font-semibold ring-red-700', mark: '!' },
  Normal: { style: 'bg-white text-muted font-medium ring-line', mark: '' },
  Baja: { style: 'bg-white text-muted font-medium ring-line', mark: '' },
};

/** The compact 'Prioridad: Alta' badge of the list and the incident page. */
export function PriorityBadge({ prioridad }: { prioridad: IncidentPriority }) {
  const { style, mark } = PRIORITY_BADGE[prioridad];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs ring-1 ${style}`}
      data-testid="prioridad"
      data-prioridad={prioridad}
    >
      {mark ? <span aria-hidden="true">{mark}</span> : null}
      <span className="sr-only">Prioridad: </span>
      {prioridad}
    </span>
  );
}

export interface IncidentPriorityControlProps {
  id: number;
  prioridad: IncidentPriority;
  /** Where the form posts (`incidents.setPriorityForm` on the page showing it). */
  formAction?: string;
  /** The page to come back to after the form (the list with its filters, or the incident). */
  returnTo?: string;
  /** In the list: once the island runs, 'Guardar' calls `incidents.setPriority` in place and this is told. */
  onChanged?: (prioridad: IncidentPriority) => void;
}

/**
 * 'Prioridad' and 'Guardar', as the state control does it: a form posting `incidents.setPriorityForm`
 * that comes back to `returnTo` (without JavaScript, and on the incident page), or, in the list with
 * JavaScript, the JSON action in place with its outcome announced.
 */
export default function IncidentPriorityControl({
  id,
  prioridad: initial,
  formAction = `${ROUTES.adminIncidents}?_action=incidents.setPriorityForm`,
  returnTo = ROUTES.adminIncidents,
  onChanged,
}: IncidentPriorityControlProps) {
  const hydrated = useHydrated();
  const inPlace = hydrated && onChanged !== undefined;
  const [saved, setSaved] = useState(initial);
  const [prioridad, setPrioridad] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const selectId = `prioridad-${id}`;
  const changed = prioridad !== saved;

  async function save(next: IncidentPriority) {
    setSaving(true);
    setFeedback(null);
    try {
      const { data, error } = await actions.incidents.setPriority({ id, prioridad: next });
      if (error || !data) {
        const text =
          isActionError(error) && error.message ? error.message : 'No se pudo guardar. Inténtalo de nuevo.';
        setFeedback({ kind: 'error', text });
        return;
      }
      setSaved(data.prioridad);
      setPrioridad(data.prioridad);
      onChanged?.(data.prioridad);
      setFeedback({ kind: 'ok', text: 'Prioridad actualizada.' });
    } catch {
      setFeedback({ kind: 'error', text: 'No se pudo guardar. Inténtalo de nuevo.' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      method="post"
      action={formAction}
      className="flex flex-col gap-2"
      data-testid="control-prioridad"
      onSubmit={(event) => {
        if (!hydrated) return;
        if (!changed) {
          event.preventDefault();
          return;
        }
        if (inPlace) {
          event.preventDefault();
          void save(prioridad);
          return;
        }
        setSaving(true);
      }}
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="volver" value={returnTo} />
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium text-ink">
          Prioridad
        </label>
        <select
          id={selectId}
          name="prioridad"
          value={prioridad}
          disabled={saving && inPlace}
          onChange={(event) => {
            setPrioridad(event.target.value as IncidentPriority);
            setFeedback(null);
          }}
          className="rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 disabled:opacity-60"
        >
          {INCIDENT_PRIORITIES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button
          type="submit"
          disabled={hydrated && (saving || !changed)}
          className="rounded-button border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-sm hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Guardar prioridad
        </button>
      </div>
      <LiveMessage message={feedback} compact />
    </form>
  );
}

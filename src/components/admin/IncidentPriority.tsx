import { actions, isActionError } from 'astro:actions';
import { useChoiceForm, type SaveOutcome } from './choice-form';
import { INCIDENT_PRIORITIES, type IncidentPriority } from '../../domain/incidents';
import { ROUTES } from '../../routes';
import LiveMessage from './LiveMessage';

const FAILED = 'No se pudo guardar. Inténtalo de nuevo.';

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
  const { hydrated, saving, feedback, changed, onSubmit, selectProps } = useChoiceForm(
    initial,
    onChanged &&
      (async (next: IncidentPriority): Promise<SaveOutcome<IncidentPriority>> => {
        const { data, error } = await actions.incidents.setPriority({ id, prioridad: next });
        if (error || !data) return { error: isActionError(error) && error.message ? error.message : FAILED };
        onChanged(data.prioridad);
        return { saved: data.prioridad, text: 'Prioridad actualizada.' };
      }),
    FAILED,
  );
  const selectId = `prioridad-${id}`;

  return (
    <form
      method="post"
      action={formAction}
      className="flex flex-col gap-2"
      data-testid="control-prioridad"
      onSubmit={onSubmit}
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="volver" value={returnTo} />
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium text-ink">
          Prioridad
        </label>
        <select id={selectId} name="prioridad" {...selectProps}>
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

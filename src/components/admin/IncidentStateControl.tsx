import { actions, isActionError } from 'astro:actions';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './hydrated';
import { ROUTES } from '../../routes';
import { INCIDENT_STATES, type IncidentRecord, type IncidentState } from '../../domain/incidents';
import { callableCode } from './callable';
import LiveMessage from './LiveMessage';


type Feedback = { kind: 'ok' | 'error'; text: string } | null;

export interface IncidentStateControlProps {
  id: number;
  estado: IncidentState;
  /** The incident has an e-mail: 'Notificar al cliente' can be ticked. */
  hasEmail: boolean;
  /** Called with the incident as the server returned it after a change. */
  onChanged?: (incident: IncidentRecord) => void;
  /** Where the form posts without JavaScript (`incidents.setStateForm` on the page showing it). */
  formAction?: string;
  /** The page to come back to after a change without JavaScript (the list with its filters, or the incident). */
  returnTo?: string;
}

/**
 * The state dropdown and 'Notificar al cliente', as the incident list and the incident page show
 * them. Choosing a state saves nothing: 'Guardar' does (issue 25 §8), and while 'Notificar al cliente'
 * is ticked the control says that saving mails the customer. The form posts `incidents.setStateForm`
 * (src/actions/staff/incidents.ts), which comes back to `returnTo` with its outcome: that is how it
 * works without JavaScript, and on the incident page with it too (the page comes back with the new
 * badge and the timeline entry). Where `onChanged` is given (the list), the island calls the staff
 * action `incidents.setState` instead and says how it went, in place.
 */
export default function IncidentStateControl({
  id,
  estado: initial,
  hasEmail,
  onChanged,
  formAction = `${ROUTES.adminIncidents}?_action=incidents.setStateForm`,
  returnTo = ROUTES.adminIncidents,
}: IncidentStateControlProps) {
  // Once the island runs on the list, 'Guardar' calls the action in place; otherwise the form is posted.
  const hydrated = useHydrated();
  const inPlace = hydrated && onChanged !== undefined;
  const [saved, setSaved] = useState(initial);
  const [estado, setEstado] = useState(initial);
  const [notify, setNotify] = useState(true);
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  // A state chosen before the island ran is the one the select shows: keep it, so 'Guardar' saves it.
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    const shown = selectRef.current?.value;
    if (shown && shown !== initial) setEstado(shown as IncidentState);
  }, [initial]);
  const selectId = `estado-${id}`;
  const notifyId = `notificar-${id}`;

  const willMail = notify && hasEmail;
  const changed = estado !== saved;

  async function changeState(next: IncidentState) {
    setSaving(true);
    setFeedback(null);
    try {
      const { data, error } = await actions.incidents.setState({
        id,
        estado: next,
        notificar: notify && hasEmail,
      });
      if (error || !data) {
        const code = isActionError(error) ? callableCode(error.status) : 'internal';
        setFeedback({ kind: 'error', text: `Error al cambiar el estado (${code})` });
        return;
      }
      setEstado(data.incident.estado);
      setSaved(data.incident.estado);
      onChanged?.(data.incident);
      const note = data.notified.queued ? ' Se avisará al cliente por correo.' : '';
      setFeedback({ kind: 'ok', text: `Estado actualizado correctamente.${note}` });
    } catch {
      setFeedback({ kind: 'error', text: 'Error al cambiar el estado' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      method="post"
      action={formAction}
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        if (!hydrated) return;
        // The same state again: nothing to save (and no mail to send).
        if (!changed) {
          event.preventDefault();
          return;
        }
        if (inPlace) {
          event.preventDefault();
          void changeState(estado);
          return;
        }
        setSaving(true);
      }}
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="volver" value={returnTo} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium text-ink">
            Estado
          </label>
          <select
            ref={selectRef}
            id={selectId}
            name="estado"
            value={estado}
            disabled={saving && inPlace}
            onChange={(event) => {
              setEstado(event.target.value as IncidentState);
              setFeedback(null);
            }}
            className="rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 disabled:opacity-60"
          >
            {INCIDENT_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={notifyId} className="flex items-center gap-2 text-sm text-ink">
          <input
            id={notifyId}
            name="notificar"
            type="checkbox"
            checked={notify && hasEmail}
            disabled={!hasEmail}
            onChange={(event) => setNotify(event.target.checked)}
            className="size-4 accent-brand-700"
          />
          Notificar al cliente
          {!hasEmail ? <span className="text-xs text-muted">(sin correo)</span> : null}
        </label>
        <button
          type="submit"
          disabled={hydrated && (saving || !changed)}
          aria-describedby={willMail ? `${notifyId}-aviso` : undefined}
          className="self-start rounded-button bg-brand-900 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Guardar
        </button>
      </div>
      {willMail ? (
        <p id={`${notifyId}-aviso`} className="text-xs text-muted" data-testid="aviso-correo">
          Al guardar, se enviará un correo al cliente con el nuevo estado.
        </p>
      ) : null}
      <LiveMessage message={feedback} />
    </form>
  );
}

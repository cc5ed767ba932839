import { actions, isActionError } from 'astro:actions';
import { useState } from 'react';
import { useChoiceForm, type SaveOutcome } from './choice-form';
import { ROUTES } from '../../routes';
import { INCIDENT_STATES, type IncidentRecord, type IncidentState } from '../../domain/incidents';
import { callableCode } from './callable';
import LiveMessage from './LiveMessage';

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
  const [notify, setNotify] = useState(true);
  const { hydrated, saving, feedback, changed, onSubmit, selectProps } = useChoiceForm(
    initial,
    onChanged &&
      (async (next: IncidentState): Promise<SaveOutcome<IncidentState>> => {
        const { data, error } = await actions.incidents.setState({
          id,
          estado: next,
          notificar: notify && hasEmail,
        });
        if (error || !data) {
          const code = isActionError(error) ? callableCode(error.status) : 'internal';
          return { error: `Error al cambiar el estado (${code})` };
        }
        onChanged(data.incident);
        const note = data.notified.queued ? ' Se avisará al cliente por correo.' : '';
        return { saved: data.incident.estado, text: `Estado actualizado correctamente.${note}` };
      }),
    'Error al cambiar el estado',
  );
  const selectId = `estado-${id}`;
  const notifyId = `notificar-${id}`;

  const willMail = notify && hasEmail;

  return (
    <form method="post" action={formAction} className="flex flex-col gap-2" onSubmit={onSubmit}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="volver" value={returnTo} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium text-ink">
            Estado
          </label>
          <select id={selectId} name="estado" {...selectProps}>
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

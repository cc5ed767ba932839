import { firstError, SHORT_TEXT_MAX, type FieldErrors } from '../../domain/forms/common';
import { FORM_ACTIONS } from '../../routes';
import { AntiAbuseFields, primaryButtonClass, TextField } from './FormField';

export interface TrackingFormProps {
  values?: { numeroIncidencia?: string; email?: string };
  errors?: FieldErrors;
  /** The signed time the form was rendered (the page is on-demand). */
  startedAt: string;
}

/** Incident number + e-mail. Plain HTML: the answer always needs the server, so no island. */
export default function TrackingForm({ values = {}, errors, startedAt }: TrackingFormProps) {
  return (
    <form method="post" action={FORM_ACTIONS.incidentTrack} className="relative flex flex-col gap-5">
      <TextField
        id="seguimiento-numero"
        name="numeroIncidencia"
        label="Número de incidencia"
        placeholder="INC-20250131-1234"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
        maxLength={SHORT_TEXT_MAX}
        defaultValue={values.numeroIncidencia ?? ''}
        error={firstError(errors, 'numeroIncidencia')}
      />
      <TextField
        id="seguimiento-email"
        name="email"
        type="email"
        label="Correo electrónico"
        hint="El mismo correo que indicaste al abrir la incidencia."
        autoComplete="email"
        required
        maxLength={SHORT_TEXT_MAX}
        defaultValue={values.email ?? ''}
        error={firstError(errors, 'email')}
      />
      <AntiAbuseFields startedAt={startedAt} />
      <div>
        <button type="submit" className={`${primaryButtonClass} w-full sm:w-auto`}>
          Consultar estado
        </button>
      </div>
    </form>
  );
}

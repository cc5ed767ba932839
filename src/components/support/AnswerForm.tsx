import { firstError, LONG_TEXT_MAX, type FieldErrors } from '../../domain/forms/common';
import { FORM_ACTIONS } from '../../routes';
import { FILES_FIELD, type KeptFile } from '../../domain/attachments';
import { AntiAbuseFields, FormAlert, FileField, primaryButtonClass, TextArea } from './FormField';

export interface AnswerFormProps {
  /** The follow-up token the page was opened with: it names the incident. */
  token: string;
  values?: { respuesta?: string };
  errors?: FieldErrors;
  /** A refusal that is not about the text (too fast, too many, expired). */
  formError?: string;
  /** The signed time the form was rendered (the page is on-demand). */
  startedAt: string;
  /** Files a refused try kept: sent again unless unticked. */
  kept?: readonly KeptFile[];
  /** Said under the heading: a resolved incident reopens when answered (issue 39 §11). */
  note?: string;
}

/**
 * 'Responder' on the follow-up page opened with a token (issue 11): the visitor's answer joins the
 * incident's conversation. Plain HTML posted to the page itself (`incidents.answer`), no island.
 */
export default function AnswerForm({
  token,
  values = {},
  errors,
  formError,
  startedAt,
  kept,
  note,
}: AnswerFormProps) {
  return (
    <section
      id="responder"
      aria-labelledby="responder-titulo"
      className="rounded-card border border-line bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="responder-titulo" className="text-lg font-semibold text-brand-900">
        Responder
      </h2>
      {note ? (
        <p id="responder-nota" className="mt-2 text-sm text-ink">
          {note}
        </p>
      ) : null}
      <form
        method="post"
        encType="multipart/form-data"
        action={FORM_ACTIONS.incidentAnswer}
        className="relative mt-4 flex flex-col gap-5"
      >
        <input type="hidden" name="token" value={token} />
        <TextArea
          id="seguimiento-respuesta"
          name="respuesta"
          label="Tu respuesta"
          hint="Escribe aquí tu respuesta o la información que te pedimos. Hasta 5.000 caracteres."
          rows={5}
          maxLength={LONG_TEXT_MAX}
          defaultValue={values.respuesta ?? ''}
          error={firstError(errors, 'respuesta')}
        />
        <AntiAbuseFields startedAt={startedAt} />
        <FileField id="seguimiento-archivos" error={firstError(errors, FILES_FIELD)} kept={kept} />
        <FormAlert>{formError}</FormAlert>
        <div>
          <button type="submit" className={`${primaryButtonClass} w-full sm:w-auto`}>
            Enviar respuesta
          </button>
        </div>
      </form>
    </section>
  );
}

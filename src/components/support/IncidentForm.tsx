import type { SubmitEvent, ReactNode, Ref } from 'react';
import { firstError, LONG_TEXT_MAX, SHORT_TEXT_MAX, type FieldErrors } from '../../domain/forms/common';
import {
  EMPTY_PROBLEM_FIELD,
  EMPTY_PROBLEM_QUESTION,
  type IncidentFormValues,
} from '../../domain/forms/incident';
import { REMOTE_TOOLS } from '../../content/catalog/remote-tools';
import { FORM_ACTIONS } from '../../routes';
import { FILES_FIELD, type KeptFile } from '../../domain/attachments';
import {
  AntiAbuseFields,
  FormAlert,
  FileField,
  primaryButtonClass,
  Spinner,
  TextArea,
  TextField,
} from './FormField';
import { LineIcon } from '../ui/LineIcon';

export interface IncidentFormProps {
  /** Prefix of the element ids (unique per page). */
  idPrefix: string;
  values?: Partial<IncidentFormValues>;
  errors?: FieldErrors;
  /** Message shown above the buttons after a failed submission. */
  formError?: ReactNode;
  pending?: boolean;
  /** The signed time the form was rendered (on-demand pages); islands ask for one when the form is opened. */
  startedAt?: string;
  formRef?: Ref<HTMLFormElement>;
  onSubmit?: (event: SubmitEvent<HTMLFormElement>) => void;
  /** Files a refused try kept (a page without JavaScript): sent again unless unticked. */
  kept?: readonly KeptFile[];
  /** The 'Cancelar' button: closes this dialog (Invoker Commands) or links to a page. */
  cancel: { dialogId: string } | { href: string };
  /** Told the problem's text as it is typed (the dialog's help suggestions). */
  onProblemInput?: (text: string) => void;
  /** Shown right under the problem (the dialog's help suggestions). */
  afterProblem?: ReactNode;
}

/**
 * The 'Solicita ayuda' form (spec §2): problem, name, phone, e-mail, RNC, the remote-desktop tools,
 * 'Cancelar' and 'Abrir Incidencia'. No field is required. Without JavaScript it posts to
 * /soporte/nueva, which runs the action and shows the result.
 */
export default function IncidentForm({
  idPrefix,
  values = {},
  errors,
  formError,
  pending = false,
  startedAt,
  formRef,
  onSubmit,
  kept,
  cancel,
  onProblemInput,
  afterProblem,
}: IncidentFormProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  // Asked once whether to send it without a description: sending again now says yes.
  const askedEmpty = firstError(errors, 'problema') === EMPTY_PROBLEM_QUESTION;
  return (
    <form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      action={FORM_ACTIONS.incidentCreate}
      onSubmit={onSubmit}
      onInput={
        onProblemInput &&
        (({ target }) =>
          target instanceof HTMLTextAreaElement && target.name === 'problema' && onProblemInput(target.value))
      }
      className="relative flex flex-col gap-5"
      noValidate
    >
      {askedEmpty ? <input type="hidden" name={EMPTY_PROBLEM_FIELD} value="si" /> : null}
      <TextArea
        id={id('problema')}
        name="problema"
        label="¿En qué te podemos ayudar?"
        hint="Describe el problema: qué sistema usas, qué estabas haciendo y qué mensaje aparece."
        rows={5}
        maxLength={LONG_TEXT_MAX}
        defaultValue={values.problema ?? ''}
        error={firstError(errors, 'problema')}
      />
      {afterProblem}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id={id('nombre')}
          name="nombre"
          label="Nombre"
          autoComplete="name"
          maxLength={SHORT_TEXT_MAX}
          defaultValue={values.nombre ?? ''}
          error={firstError(errors, 'nombre')}
        />
        <TextField
          id={id('telefono')}
          name="telefono"
          type="tel"
          label="Teléfono"
          autoComplete="tel"
          maxLength={SHORT_TEXT_MAX}
          defaultValue={values.telefono ?? ''}
          error={firstError(errors, 'telefono')}
        />
        <TextField
          id={id('email')}
          name="email"
          type="text"
          inputMode="email"
          label="Correo electrónico"
          autoComplete="email"
          hint="Te enviaremos el número de incidencia a este correo."
          maxLength={SHORT_TEXT_MAX}
          defaultValue={values.email ?? ''}
          error={firstError(errors, 'email')}
        />
        <TextField
          id={id('rnc')}
          name="rnc"
          label="RNC de la empresa"
          autoComplete="off"
          maxLength={SHORT_TEXT_MAX}
          defaultValue={values.rnc ?? ''}
          error={firstError(errors, 'rnc')}
        />
      </div>
      <AntiAbuseFields startedAt={startedAt} />
      <FileField id={id('archivos')} error={firstError(errors, FILES_FIELD)} kept={kept} />

      <div className="rounded-card border border-brand-100 bg-brand-50 p-4">
        <p className="text-sm font-semibold text-brand-900">¿Necesitas asistencia remota?</p>
        <p className="mt-1 text-sm text-muted">
          Descarga una de estas herramientas para que un técnico se conecte a tu equipo.
        </p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {REMOTE_TOOLS.map((tool) => (
            <li key={tool.name}>
              <a
                href={tool.href}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1.5 rounded-button border border-line bg-white px-3 py-2 text-sm font-semibold text-brand-800 hover:border-brand-500"
              >
                {tool.name}
                <LineIcon className="size-3.5" weight="1.6" box={16}>
                  <path d="M6 3h7v7M13 3 5 11M3 6v7h7" />
                </LineIcon>
                <span className="sr-only">(se abre en una pestaña nueva)</span>
              </a>
            </li>
          ))}
        </ul>
      </div>

      <FormAlert>{formError}</FormAlert>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {'dialogId' in cancel ? (
          <button
            type="button"
            commandfor={cancel.dialogId}
            command="close"
            className="inline-flex min-h-11 items-center justify-center rounded-button border border-line bg-white px-5 py-2.5 font-semibold text-brand-900 hover:bg-surface"
          >
            Cancelar
          </button>
        ) : (
          <a
            href={cancel.href}
            className="inline-flex min-h-11 items-center justify-center rounded-button border border-line bg-white px-5 py-2.5 font-semibold text-brand-900 hover:bg-surface"
          >
            Cancelar
          </a>
        )}
        <button
          type="submit"
          className={primaryButtonClass}
          disabled={pending}
          aria-disabled={pending || undefined}
        >
          {pending ? (
            <>
              <Spinner />
              Enviando…
            </>
          ) : (
            'Abrir Incidencia'
          )}
        </button>
      </div>
    </form>
  );
}

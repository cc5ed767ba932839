import { actions, isInputError, type ActionError } from 'astro:actions';
import { useEffect, useId, useRef, useState } from 'react';
import { firstError, validateForm } from '../../domain/forms/common';
import {
  EMPTY_PROBLEM_QUESTION,
  INCIDENT_MESSAGES,
  incidentFormSchema,
  whatsappIncidentUrl,
} from '../../domain/forms/incident';
import { HELP_SUGGESTIONS_TITLE } from '../../domain/help';
import { ROUTES } from '../../routes';
import { FILES_FIELD, isFilesMessage, pickedFilesProblem } from '../../domain/attachments';
import IncidentForm from './IncidentForm';
import { useActionForm } from './useActionForm';
import { whatsappLink } from '../../lib/whatsapp';
import { DoneIcon, LineIcon } from '../ui/LineIcon';

export interface SupportWidgetProps {
  /** Company WhatsApp number, digits with country code (config `WHATSAPP_NUMBER`). */
  whatsappNumber: string;
  /** The signed time the page was rendered (on-demand pages); otherwise asked for when the dialog opens. */
  startedAt?: string;
  /**
   * The WhatsApp channel is on (issue 37): the dialog offers 'Escribir por WhatsApp' beside the form. As
   * the page was rendered (a prerendered page: at build); the form-stamp answer corrects it when the
   * dialog opens.
   */
  whatsappChannel?: boolean;
}

/** What the customer's first WhatsApp message says, ready to send ('tú' is ours; it is the customer's text). */
const WHATSAPP_SUPPORT_TEXT = 'Hola, necesito ayuda de soporte.';

/** A help article the dialog suggests (`GET /api/ayuda/sugerencias`). */
interface Suggestion {
  titulo: string;
  url: string;
  resumen: string;
}

/**
 * Up to three help articles for the problem as it is typed: asked 400 ms after the last keystroke,
 * the question before it cancelled; a failure shows nothing and never touches the form.
 */
function useHelpSuggestions() {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const state = useRef<{
    timer?: ReturnType<typeof setTimeout>;
    controller?: AbortController;
    asked: string;
  }>({ asked: '' });
  const clear = () => {
    clearTimeout(state.current.timer);
    state.current.controller?.abort();
    state.current.asked = '';
    setSuggestions([]);
  };
  const typed = (text: string) => {
    const current = state.current;
    clearTimeout(current.timer);
    current.timer = setTimeout(() => {
      const query = text.trim().slice(0, 300);
      if (query === current.asked) return;
      current.asked = query;
      current.controller?.abort();
      if (query.length < 3) return setSuggestions([]);
      const controller = (current.controller = new AbortController());
      fetch(`${ROUTES.helpSuggestions}?${new URLSearchParams({ q: query })}`, { signal: controller.signal })
        .then((response) =>
          response.ok ? (response.json() as Promise<{ articulos?: Suggestion[] }>) : { articulos: [] },
        )
        .then(({ articulos }) => setSuggestions(Array.isArray(articulos) ? articulos.slice(0, 3) : []))
        .catch(() => undefined);
    }, 400);
  };
  return { suggestions, typed, clear };
}

/** '¿Te sirve alguno de estos artículos?': each opens in a new tab, so the dialog keeps what was typed. */
function HelpSuggestions({ items, idPrefix }: { items: Suggestion[]; idPrefix: string }) {
  return (
    <div aria-live="polite">
      {items.length > 0 ? (
        <section
          aria-labelledby={`${idPrefix}-sugerencias`}
          className="rounded-card border border-accent-100 bg-white p-4 shadow-xs"
        >
          <h3 id={`${idPrefix}-sugerencias`} className="text-sm font-semibold text-brand-900">
            {HELP_SUGGESTIONS_TITLE}
          </h3>
          <ul className="mt-2 flex flex-col gap-2">
            {items.map((item) => (
              <li key={item.url}>
                <a
                  href={item.url}
                  target="_blank"
                  rel="noopener"
                  className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900"
                >
                  {item.titulo}
                  <span className="sr-only"> (se abre en una pestaña nueva)</span>
                </a>
                <p className="text-sm text-muted">{item.resumen}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** What to add under 'Hubo un error al registrar' so the visitor knows what to do next. */
function failureDetail(error: ActionError): string | undefined {
  if (isInputError(error)) return 'Revisa los campos marcados.';
  if (error.code === 'INTERNAL_SERVER_ERROR')
    return 'Tus datos siguen aquí: intenta nuevamente en unos momentos.';
  return error.message || undefined;
}

/** The thin cross of the dialog's and the notice's close buttons. */
function CloseMark({ className }: { className: string }) {
  return (
    <LineIcon className={className} weight="1.8" box={20}>
      <path d="M5 5l10 10M15 5 5 15" />
    </LineIcon>
  );
}

/**
 * The floating '🆘 Solicitar Ayuda' button (top right, below the header) and the 'Solicita ayuda'
 * dialog. The button opens the native <dialog> through the Invoker Commands API, so the island only
 * has to hydrate for the submission (mount it with `client:interaction`). Without JavaScript the form
 * posts to /soporte/nueva.
 */
export default function SupportWidget({
  whatsappNumber,
  startedAt,
  whatsappChannel = false,
}: SupportWidgetProps) {
  const baseId = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const dialogId = `soporte-dialogo-${baseId}`;
  const titleId = `${dialogId}-titulo`;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [formError, setFormError] = useState<string | undefined>();
  const [detail, setDetail] = useState<string | undefined>();
  const [registered, setRegistered] = useState<string | null>(null);
  const help = useHelpSuggestions();
  const { stamp, ensureStamp, whatsapp, pending, errors, onSubmit } = useActionForm({
    startedAt,
    validate: (data) => {
      const fileProblem = pickedFilesProblem(data.getAll(FILES_FIELD).filter((item) => item instanceof File));
      return (
        validateForm(incidentFormSchema, data) ?? (fileProblem ? { [FILES_FIELD]: [fileProblem] } : undefined)
      );
    },
    send: (data) => actions.incidents.create(data),
    // A refusal of the handler (a file not allowed) names its fields too.
    refusedFields: (error) =>
      isInputError(error)
        ? error.fields
        : isFilesMessage(error.message)
          ? { [FILES_FIELD]: [error.message] }
          : undefined,
    onInvalid: (invalid) => {
      // Asked whether to send it without a description (issue 39 §8): a question, not a failure.
      const onlyAsked =
        Object.keys(invalid).length === 1 && firstError(invalid, 'problema') === EMPTY_PROBLEM_QUESTION;
      setFormError(onlyAsked ? undefined : INCIDENT_MESSAGES.failure);
      setDetail(onlyAsked ? undefined : 'Revisa los campos marcados.');
    },
    onSending: () => {
      setFormError(undefined);
      setDetail(undefined);
    },
    onRefused: (error) => {
      setFormError(INCIDENT_MESSAGES.failure);
      setDetail(failureDetail(error));
    },
    onSent: (data) => {
      help.clear();
      dialogRef.current?.close();
      setRegistered(data.numeroIncidencia);
    },
    // The server could not be reached: the form stays open with every value.
    onUnreachable: () => {
      setFormError(INCIDENT_MESSAGES.failure);
      setDetail('No pudimos comunicarnos con el servidor. Revisa tu conexión e intenta nuevamente.');
    },
  });
  const offerWhatsapp = whatsapp ?? whatsappChannel;

  // The form's signed start time is asked for when the dialog opens. The first click opens it natively,
  // before this island hydrates (hydration starts on that same pointer event): ask when we find it open.
  useEffect(() => {
    if (dialogRef.current?.open) void ensureStamp();
  }, [ensureStamp]);

  // Each opening starts at the dialog's top (issue 39, polish): closed, a dialog keeps how far it was
  // scrolled, so one closed from 'Cancelar' reopened at its end, title and first field out of view.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const toTop = (event: Event) => {
      if ((event as ToggleEvent).newState === 'open') dialog.scrollTop = 0;
    };
    dialog.addEventListener('toggle', toTop);
    return () => dialog.removeEventListener('toggle', toTop);
  }, []);

  return (
    <>
      <button
        type="button"
        commandfor={dialogId}
        command="show-modal"
        onClick={() => void ensureStamp()}
        className="fixed top-[calc(var(--spacing-header)+0.75rem)] right-3 z-30 inline-flex min-h-11 items-center gap-2 rounded-full bg-sun-500 px-4 py-2.5 text-sm font-bold text-brand-950 shadow-lg ring-1 ring-sun-600/30 transition-transform hover:-translate-y-0.5 hover:bg-sun-100 motion-reduce:transition-none motion-reduce:hover:translate-y-0 sm:right-6 sm:text-base"
      >
        <span aria-hidden="true">🆘</span> Solicitar Ayuda
      </button>

      <dialog
        ref={dialogRef}
        id={dialogId}
        aria-labelledby={titleId}
        className="m-auto max-h-[95dvh] w-[min(42rem,calc(100vw-1.5rem))] overflow-y-auto overscroll-contain rounded-card bg-white p-0 text-ink shadow-2xl backdrop:bg-brand-950/60 backdrop:backdrop-blur-sm"
      >
        <div className="sticky top-0 z-10 flex items-start justify-between gap-4 border-b border-line bg-white px-5 py-4 sm:px-7">
          <div>
            <h2 id={titleId} className="text-xl font-bold text-brand-900">
              Solicita ayuda
            </h2>
            <p className="mt-1 text-sm text-muted">
              Cuéntanos qué sucede y abrimos una incidencia para darle seguimiento.
            </p>
          </div>
          <button
            type="button"
            commandfor={dialogId}
            command="close"
            className="grid size-10 shrink-0 place-items-center rounded-full text-muted hover:bg-surface hover:text-brand-900"
          >
            <CloseMark className="size-5" />
            <span className="sr-only">Cerrar</span>
          </button>
        </div>
        <div className="px-5 py-5 sm:px-7 sm:py-6">
          {offerWhatsapp ? (
            <p
              className="mb-5 flex flex-wrap items-center justify-between gap-3 rounded-card border border-accent-100 bg-white px-4 py-3 text-sm text-ink"
              data-testid="soporte-whatsapp"
            >
              <span>¿Prefieres escribirnos? Te atendemos por WhatsApp con el mismo seguimiento.</span>
              <a
                href={whatsappLink(whatsappNumber, WHATSAPP_SUPPORT_TEXT)}
                target="_blank"
                rel="noopener"
                className="inline-flex min-h-11 items-center rounded-button bg-accent-700 px-4 py-2 font-semibold text-white hover:bg-accent-600"
              >
                Escribir por WhatsApp
              </a>
            </p>
          ) : null}
          <IncidentForm
            idPrefix={dialogId}
            errors={errors}
            pending={pending}
            startedAt={stamp}
            onSubmit={onSubmit}
            cancel={{ dialogId }}
            onProblemInput={help.typed}
            afterProblem={<HelpSuggestions items={help.suggestions} idPrefix={dialogId} />}
            formError={
              formError ? (
                <>
                  <p className="font-semibold">{formError}</p>
                  {detail ? <p className="mt-1">{detail}</p> : null}
                </>
              ) : undefined
            }
          />
        </div>
      </dialog>

      {registered ? (
        <div
          role="alert"
          className="fixed inset-x-3 top-[calc(var(--spacing-header)+4.5rem)] z-40 rounded-card border border-accent-100 bg-white p-5 shadow-2xl sm:inset-x-auto sm:right-6 sm:w-[26rem]"
        >
          <div className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className="grid size-9 shrink-0 place-items-center rounded-full bg-accent-100 text-accent-700"
            >
              <DoneIcon className="size-5" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-brand-900">
                {INCIDENT_MESSAGES.success} <span className="font-mono whitespace-nowrap">{registered}</span>
              </p>
              <p className="mt-1 text-sm text-muted">
                Guarda este número para consultar el estado de tu solicitud.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <a
                  href={whatsappIncidentUrl(whatsappNumber, registered)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex min-h-10 items-center rounded-button bg-accent-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900"
                >
                  Continuar por WhatsApp<span className="sr-only"> (se abre en una pestaña nueva)</span>
                </a>
                <a
                  href={ROUTES.supportTracking}
                  className="inline-flex min-h-10 items-center rounded-button border border-line px-4 py-2 text-sm font-semibold text-brand-900 hover:bg-surface"
                >
                  Ver seguimiento
                </a>
              </div>
            </div>
            <button
              type="button"
              onClick={() => setRegistered(null)}
              className="grid size-9 shrink-0 place-items-center rounded-full text-muted hover:bg-surface hover:text-brand-900"
            >
              <CloseMark className="size-4" />
              <span className="sr-only">Cerrar aviso</span>
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}

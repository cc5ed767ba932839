import { actions, isInputError } from 'astro:actions';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { firstError, LONG_TEXT_MAX, SHORT_TEXT_MAX, validateForm, type FieldErrors } from '../../domain/forms/common';
import { CONTACT_MESSAGES, contactFormSchema, type ContactFormValues } from '../../domain/forms/contact';
import { FORM_ACTIONS } from '../../routes';
import { AntiAbuseFields, primaryButtonClass, Spinner, TextArea, TextField } from '../support/FormField';

export type ContactStatus = 'idle' | 'success' | 'error';

export interface ContactFormProps {
  /** Only for the no-JavaScript result page: the values sent, the server's errors and the outcome. */
  initialValues?: Partial<ContactFormValues>;
  initialErrors?: FieldErrors;
  initialStatus?: ContactStatus;
  /** A more specific explanation under the failure message (e.g. the rate limit). */
  initialDetail?: string;
  /** Server time the form was rendered (on-demand pages only). */
  startedAt?: string;
}

/**
 * The contact form (spec §2, §5): name, email and message, required in the browser and on the server.
 * Mount with `client:interaction`; without JavaScript it posts to /soporte, which shows the result.
 */
export default function ContactForm({ initialValues = {}, initialErrors, initialStatus = 'idle', initialDetail, startedAt }: ContactFormProps) {
  const idPrefix = `contacto-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const id = (name: string) => `${idPrefix}-${name}`;
  const startedRef = useRef<HTMLInputElement>(null);
  const sending = useRef(false);
  const [pending, setPending] = useState(false);
  const [status, setStatus] = useState<ContactStatus>(initialStatus);
  const [errors, setErrors] = useState<FieldErrors | undefined>(initialErrors);
  const [detail, setDetail] = useState<string | undefined>(initialDetail);

  // Hydration happens on the visitor's first interaction: from then on we measure time-to-submit.
  useEffect(() => {
    if (startedRef.current && !startedRef.current.value) startedRef.current.value = String(Date.now());
  }, []);

  const handleSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const invalid = validateForm(contactFormSchema, data);
    if (invalid) {
      setErrors(invalid);
      setStatus('idle');
      // The messages render on the next commit; focus the first invalid field then.
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    sending.current = true;
    setPending(true);
    setStatus('idle');
    setDetail(undefined);
    try {
      const { error } = await actions.contact.send(data);
      if (error) {
        setErrors(isInputError(error) ? error.fields : undefined);
        setStatus('error');
        setDetail(isInputError(error) ? 'Revisa los campos marcados.' : error.code === 'INTERNAL_SERVER_ERROR' ? undefined : error.message);
        return;
      }
      form.reset();
      if (startedRef.current) startedRef.current.value = String(Date.now());
      setErrors(undefined);
      setStatus('success');
    } catch {
      setStatus('error');
      setDetail('No pudimos comunicarnos con el servidor. Revisa tu conexión.');
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  return (
    <form method="post" action={FORM_ACTIONS.contactSend} onSubmit={handleSubmit} className="relative flex flex-col gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id={id('name')}
          name="name"
          label="Nombre"
          autoComplete="name"
          required
          maxLength={SHORT_TEXT_MAX}
          defaultValue={initialValues.name ?? ''}
          error={firstError(errors, 'name')}
        />
        <TextField
          id={id('email')}
          name="email"
          type="email"
          label="Correo electrónico"
          autoComplete="email"
          required
          maxLength={SHORT_TEXT_MAX}
          defaultValue={initialValues.email ?? ''}
          error={firstError(errors, 'email')}
        />
      </div>
      <TextArea
        id={id('message')}
        name="message"
        label="Mensaje"
        rows={6}
        required
        maxLength={LONG_TEXT_MAX}
        placeholder="Cuéntanos sobre tu empresa y qué necesitas."
        defaultValue={initialValues.message ?? ''}
        error={firstError(errors, 'message')}
      />
      <AntiAbuseFields startedAt={startedAt} startedRef={startedRef} />

      <div aria-live="polite" role="status" className="empty:absolute">
        {status === 'success' ? (
          <p className="rounded-button border border-accent-100 bg-accent-100/40 px-4 py-3 font-semibold text-accent-700">{CONTACT_MESSAGES.success}</p>
        ) : null}
      </div>
      {status === 'error' ? (
        <div role="alert" className="rounded-button border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-semibold">{CONTACT_MESSAGES.failure}</p>
          {detail ? <p className="mt-1">{detail}</p> : null}
        </div>
      ) : null}

      <div>
        <button type="submit" className={`${primaryButtonClass} w-full sm:w-auto`} disabled={pending} aria-disabled={pending || undefined}>
          {pending ? (
            <>
              <Spinner />
              Enviando…
            </>
          ) : (
            'Enviar mensaje'
          )}
        </button>
      </div>
    </form>
  );
}

import { actions, isInputError } from 'astro:actions';
import { useEffect, useId, useRef, useState } from 'react';
import {
  FORM_CONFIRM_MESSAGE,
  firstError,
  LONG_TEXT_MAX,
  SHORT_TEXT_MAX,
  validateForm,
  type FieldErrors,
} from '../../domain/forms/common';
import { CONTACT_MESSAGES, contactFormSchema, type ContactFormValues } from '../../domain/forms/contact';
import { FORM_ACTIONS } from '../../routes';
import {
  AntiAbuseFields,
  FormAlert,
  primaryButtonClass,
  Spinner,
  TextArea,
  TextField,
} from '../support/FormField';
import { useActionForm } from '../support/useActionForm';

/** `confirm`: sent without its start time (a prerendered page without JavaScript), shown again to send once more. */
export type ContactStatus = 'idle' | 'success' | 'error' | 'confirm';

export interface ContactFormProps {
  /** Only for the no-JavaScript result page: the values sent, the server's errors and the outcome. */
  initialValues?: Partial<ContactFormValues>;
  initialErrors?: FieldErrors;
  initialStatus?: ContactStatus;
  /** A more specific explanation under the failure message (e.g. the rate limit). */
  initialDetail?: string;
  /** The signed time the form was rendered (on-demand pages only; the island asks for one otherwise). */
  startedAt?: string;
}

/**
 * The contact form (spec §2, §5): name, email and message, required in the browser and on the server.
 * Mount with `client:interaction`; without JavaScript it posts to /soporte, which shows the result.
 */
export default function ContactForm({
  initialValues = {},
  initialErrors,
  initialStatus = 'idle',
  initialDetail,
  startedAt,
}: ContactFormProps) {
  const idPrefix = `contacto-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const id = (name: string) => `${idPrefix}-${name}`;
  const formRef = useRef<HTMLFormElement>(null);
  const [status, setStatus] = useState<ContactStatus>(initialStatus);
  const [detail, setDetail] = useState<string | undefined>(initialDetail);
  const { stamp, ensureStamp, pending, errors, onSubmit } = useActionForm({
    startedAt,
    initialErrors,
    validate: (data) => validateForm(contactFormSchema, data),
    send: (data) => actions.contact.send(data),
    onInvalid: (_errors, form) => {
      setStatus('idle');
      // The messages render on the next commit; focus the first invalid field then.
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    },
    onSending: () => {
      setStatus('idle');
      setDetail(undefined);
    },
    onRefused: (error) => {
      setStatus('error');
      setDetail(
        isInputError(error)
          ? 'Revisa los campos marcados.'
          : error.code === 'INTERNAL_SERVER_ERROR'
            ? undefined
            : error.message,
      );
    },
    onSent: () => setStatus('success'),
    onUnreachable: () => {
      setStatus('error');
      setDetail('No pudimos comunicarnos con el servidor. Revisa tu conexión.');
    },
  });

  // Hydration starts on the visitor's first interaction: a focus that woke the island came before React did.
  useEffect(() => {
    if (formRef.current?.contains(document.activeElement)) void ensureStamp();
  }, [ensureStamp]);

  return (
    <form
      ref={formRef}
      method="post"
      action={FORM_ACTIONS.contactSend}
      onSubmit={onSubmit}
      onFocus={() => void ensureStamp()}
      className="relative flex flex-col gap-5"
    >
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
      <AntiAbuseFields startedAt={stamp} />

      <div aria-live="polite" role="status" className="empty:absolute">
        {status === 'success' ? (
          <p className="rounded-button border border-accent-100 bg-accent-100/40 px-4 py-3 font-semibold text-accent-700">
            {CONTACT_MESSAGES.success}
          </p>
        ) : status === 'confirm' ? (
          <p className="rounded-button border border-brand-100 bg-brand-50 px-4 py-3 font-semibold text-brand-900">
            {FORM_CONFIRM_MESSAGE}
          </p>
        ) : null}
      </div>
      {status === 'error' ? (
        <FormAlert>
          <p className="font-semibold">{CONTACT_MESSAGES.failure}</p>
          {detail ? <p className="mt-1">{detail}</p> : null}
        </FormAlert>
      ) : null}

      <div>
        <button
          type="submit"
          className={`${primaryButtonClass} w-full sm:w-auto`}
          disabled={pending}
          aria-disabled={pending || undefined}
        >
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

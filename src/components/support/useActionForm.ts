import { isInputError, type ActionError } from 'astro:actions';
import { useRef, useState, type SubmitEvent } from 'react';
import { FORM_EXPIRED_MESSAGE, STARTED_FIELD, type FieldErrors } from '../../domain/forms/common';
import { useFormStamp } from './useFormStamp';

/** What an action called from the browser answers (Astro's `SafeResult`): its data or its error. */
type ActionAnswer<D> = { data: D; error: undefined } | { data: undefined; error: ActionError };

export interface ActionFormOptions<D> {
  /** The signed start time the page rendered (on-demand pages); asked for on first use otherwise. */
  startedAt?: string | undefined;
  /** The field messages to start with (a result page without JavaScript). */
  initialErrors?: FieldErrors | undefined;
  /** The browser's own check of the form: the messages per field, or none (null) to send it. */
  validate: (data: FormData) => FieldErrors | null | undefined;
  /** Calls the action with the form's data (its start time set). */
  send: (data: FormData) => Promise<ActionAnswer<D>>;
  /** The field messages of a refusal (default: a refused input's fields, none otherwise). */
  refusedFields?: (error: ActionError) => FieldErrors | undefined;
  /** The check found problems (their messages are shown already). */
  onInvalid?: (errors: FieldErrors, form: HTMLFormElement) => void;
  /** The form is on its way: clear the last outcome. */
  onSending?: () => void;
  /** The action refused it; the values stay. */
  onRefused: (error: ActionError) => void;
  /** The action took it: the form is emptied and its start time dropped already. */
  onSent: (data: D, form: HTMLFormElement) => void;
  /** The server could not be reached; the values stay. */
  onUnreachable: () => void;
}

const inputFields = (error: ActionError) => (isInputError(error) ? error.fields : undefined);

/**
 * The plumbing of an island's form posted to an Astro Action (the contact form, the incident
 * dialog with its files): the signed start time (useFormStamp, with its `whatsapp` answer), one
 * submission at a time, `pending` while it goes, the browser's check first, each field's message from
 * the check or the server's refusal, a new start time after a refusal as expired, and the form emptied
 * on success. What each outcome says stays with the form (`onRefused`, `onSent`, `onUnreachable`);
 * without JavaScript the same form posts itself, and its page reads the outcome with `formOutcomeOf`
 * (src/actions/form.ts), as the pages of the forms that are never islands (the follow-up's answer, the
 * rating, the look-up) do.
 */
export function useActionForm<D>(options: ActionFormOptions<D>) {
  const { value: stamp, ensure: ensureStamp, reset: resetStamp, whatsapp } = useFormStamp(options.startedAt);
  const sending = useRef(false);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FieldErrors | undefined>(options.initialErrors);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const invalid = options.validate(data);
    if (invalid) {
      setErrors(invalid);
      options.onInvalid?.(invalid, form);
      return;
    }
    sending.current = true;
    setPending(true);
    options.onSending?.();
    try {
      data.set(STARTED_FIELD, await ensureStamp());
      const { data: sent, error } = await options.send(data);
      if (error) {
        setErrors((options.refusedFields ?? inputFields)(error));
        options.onRefused(error);
        // The values stay; a new start time lets the next try through.
        if (error.message === FORM_EXPIRED_MESSAGE) {
          resetStamp();
          void ensureStamp();
        }
        return;
      }
      form.reset();
      resetStamp();
      setErrors(undefined);
      options.onSent(sent as D, form);
    } catch {
      options.onUnreachable();
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  return { stamp, ensureStamp, whatsapp, pending, errors, onSubmit };
}

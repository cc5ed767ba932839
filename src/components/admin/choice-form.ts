import { useEffect, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useHydrated } from './hydrated';

export type Feedback = { kind: 'ok' | 'error'; text: string } | null;

/** What a save in place gives back: the value the server kept and what to announce, or the error to announce. */
export type SaveOutcome<T> = { saved: T; text: string } | { error: string };

/**
 * The one behaviour of a staff choice posted by a small form (the incident's 'Estado' and 'Prioridad'):
 * choosing saves nothing, 'Guardar' does. Without JavaScript, and wherever `saveInPlace` is not given,
 * the form is posted (an unchanged choice is not: there is nothing to save). Once the island runs and
 * `saveInPlace` is given (the incident list), 'Guardar' calls it in place and announces its outcome;
 * `failed` is announced when it throws. A choice made before the island ran is the one the select
 * shows: it is kept (spread `selectProps` on the select), so 'Guardar' saves it.
 */
export function useChoiceForm<T extends string>(
  initial: T,
  saveInPlace: ((next: T) => Promise<SaveOutcome<T>>) | undefined,
  failed: string,
) {
  const hydrated = useHydrated();
  const inPlace = hydrated && saveInPlace !== undefined;
  const [saved, setSaved] = useState(initial);
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    const shown = selectRef.current?.value;
    if (shown && shown !== initial) setValue(shown as T);
  }, [initial]);
  const changed = value !== saved;

  async function save(next: T) {
    if (!saveInPlace) return;
    setSaving(true);
    setFeedback(null);
    try {
      const outcome = await saveInPlace(next);
      if ('error' in outcome) {
        setFeedback({ kind: 'error', text: outcome.error });
        return;
      }
      setSaved(outcome.saved);
      setValue(outcome.saved);
      setFeedback({ kind: 'ok', text: outcome.text });
    } catch {
      setFeedback({ kind: 'error', text: failed });
    } finally {
      setSaving(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    if (!hydrated) return;
    if (!changed) {
      event.preventDefault();
      return;
    }
    if (inPlace) {
      event.preventDefault();
      void save(value);
      return;
    }
    setSaving(true);
  }

  function choose(next: T) {
    setValue(next);
    setFeedback(null);
  }

  /** The select's own props: its value, disabled while saving in place, and the choice kept on change. */
  const selectProps = {
    ref: selectRef,
    value,
    disabled: saving && inPlace,
    onChange: (event: ChangeEvent<HTMLSelectElement>) => choose(event.target.value as T),
    className: CHOICE_SELECT_CLASS,
  };

  return { hydrated, value, saving, feedback, changed, onSubmit, selectProps };
}

const CHOICE_SELECT_CLASS =
  'rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 disabled:opacity-60';

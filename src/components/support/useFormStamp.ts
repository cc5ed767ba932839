import { useCallback, useRef, useState } from 'react';
import { ROUTES } from '../../routes';

/**
 * The signed start time of an island's form (the hidden `startedAt` field), held as state so that a
 * re-render never empties the field. On-demand pages render it (`initial`); on prerendered pages the
 * island asks the server for one (`ROUTES.formStamp`) when the form is first used: `ensure()` on focus
 * or open, and awaited again on submit, which sends what it resolves to ('' when offline). `reset()`
 * drops it, so the next use asks for a new one (after a message sent, or one refused as expired).
 * `whatsapp`: whether the server's answer said the WhatsApp channel is on (null until it answered).
 */
export function useFormStamp(initial = '') {
  const [value, setValue] = useState(initial);
  const current = useRef(initial);
  const pending = useRef<Promise<string> | null>(null);
  const [whatsapp, setWhatsapp] = useState<boolean | null>(null);

  const ensure = useCallback((): Promise<string> => {
    if (current.current) return Promise.resolve(current.current);
    pending.current ??= fetch(ROUTES.formStamp, { cache: 'no-store' })
      .then((response) =>
        response.ok ? (response.json() as Promise<{ startedAt?: unknown; whatsapp?: unknown }>) : null,
      )
      .then((body) => {
        if (typeof body?.whatsapp === 'boolean') setWhatsapp(body.whatsapp);
        const stamp = typeof body?.startedAt === 'string' ? body.startedAt : '';
        current.current = stamp;
        setValue(stamp);
        return stamp;
      })
      // Offline: the field stays empty; the submission fails as the server cannot be reached anyway.
      .catch(() => '')
      .finally(() => {
        pending.current = null;
      });
    return pending.current;
  }, []);

  const reset = useCallback(() => {
    current.current = '';
    setValue('');
  }, []);

  return { value, ensure, reset, whatsapp };
}

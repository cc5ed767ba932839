import { useCallback, useRef } from 'react';
import { ROUTES } from '../../routes';

/**
 * The signed start time of an island's form (the hidden `startedAt` field). On-demand pages render it;
 * on prerendered pages the island asks the server for one (`ROUTES.formStamp`) when the form is first
 * used: `ensure()` on focus or open, and awaited again on submit. `reset()` drops it, so the next use
 * asks for a new one (after a message sent, or one refused as expired).
 */
export function useFormStamp() {
  const ref = useRef<HTMLInputElement>(null);
  const pending = useRef<Promise<void> | null>(null);

  const ensure = useCallback((): Promise<void> => {
    if (!ref.current || ref.current.value) return Promise.resolve();
    pending.current ??= fetch(ROUTES.formStamp, { cache: 'no-store' })
      .then((response) => (response.ok ? (response.json() as Promise<{ startedAt?: unknown }>) : null))
      .then((body) => {
        if (ref.current && typeof body?.startedAt === 'string') ref.current.value = body.startedAt;
      })
      // Offline: the field stays empty and the submission says so (or asks again next time).
      .catch(() => undefined)
      .finally(() => {
        pending.current = null;
      });
    return pending.current;
  }, []);

  const reset = useCallback(() => {
    if (ref.current) ref.current.value = '';
  }, []);

  return { ref, ensure, reset };
}

/**
 * `client:interaction` — hydrate an island on the visitor's first interaction with it.
 *
 * Loading starts as soon as the pointer hovers, touches or focuses the island (usually 100-300 ms
 * before the click lands). A click that arrives before hydration has finished is held back and
 * replayed on the same element once React is attached, so the first click on "¿No sabes qué sistema
 * necesitas?" or "Abrir Incidencia" still takes effect, even on a slow phone.
 */
import type { ClientDirective } from 'astro';

const WAKE_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let state: 'idle' | 'loading' | 'ready' = 'idle';
  let pending: HTMLElement | null = null;

  const holdClick = (event: Event) => {
    if (state === 'ready') return;
    // The click may land on an icon (an SVG element) inside the control: replay it on the control.
    const origin = event.target instanceof Element ? event.target : null;
    const target =
      origin?.closest<HTMLElement>('button, a, input, select, textarea, label, summary, [role="button"]') ??
      (origin instanceof HTMLElement ? origin : null);
    if (!target) return;
    // A button that the platform already handles (Invoker Commands: it opens its <dialog> natively)
    // keeps its native action; hydration just continues in the background.
    if (target.hasAttribute('commandfor')) {
      void wake();
      return;
    }
    // Keep the native action (a form submit, a link) from running without its handler.
    event.preventDefault();
    event.stopPropagation();
    pending = target;
    void wake();
  };

  const wake = async () => {
    if (state !== 'idle') return;
    state = 'loading';
    for (const type of WAKE_EVENTS) el.removeEventListener(type, wake, true);
    const hydrate = await load();
    await hydrate();
    // Let React finish attaching its listeners before replaying.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    state = 'ready';
    el.removeEventListener('click', holdClick, true);
    const target = pending;
    pending = null;
    if (target?.isConnected) target.click();
  };

  for (const type of WAKE_EVENTS) el.addEventListener(type, wake, { capture: true, passive: true });
  el.addEventListener('click', holdClick, true);
};

export default interaction;

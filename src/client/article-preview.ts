/**
 * The article editor's preview as you type (issue 23): the body's Markdown is sent, a moment after the
 * last key, to the staff endpoint that renders it as the public page does (`/api/staff/vista-previa`,
 * src/server/content/render.ts), and the pane beside the text shows the answer. Without JavaScript the
 * pane shows what the page was rendered with, and 'Vista previa' posts the form to refresh it.
 */
const DELAY_MS = 350;

const box = document.querySelector<HTMLTextAreaElement>('textarea#cuerpo');
const pane = document.querySelector<HTMLElement>('[data-vista-previa]');
const endpoint = pane?.dataset.vistaPrevia;

if (box && pane && endpoint) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;
  let shown = box.value;

  const update = async () => {
    const text = box.value;
    if (text === shown) return;
    pending?.abort();
    const controller = (pending = new AbortController());
    pane.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ cuerpo: text }),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (!response.ok) return;
      const { html } = (await response.json()) as { html?: unknown };
      if (typeof html !== 'string' || controller.signal.aborted) return;
      // The server's HTML: the public page's renderer, with its allow-list sanitiser.
      pane.innerHTML = html;
      shown = text;
    } catch {
      // Offline or aborted by a newer key: the pane keeps the last preview.
    } finally {
      if (pending === controller) pane.removeAttribute('aria-busy');
    }
  };

  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void update(), DELAY_MS);
  });
}

/**
 * Live updates of the staff pages (issue 22, docs/decisions/0018). One EventSource per page on
 * `/api/staff/eventos`; when an event concerns what the page shows, the page's own address is fetched
 * again (its filters are in the address) and its live regions (`[data-live-region]`, the sidebar's
 * lists) are replaced by the new ones, keeping whatever a field holds that differs from what the
 * server rendered, the focus and the caret. The reply box is never in a region. Without JavaScript the
 * pages work as before: a reload shows the same.
 *
 * On an incident's page it also shows who else has it open ('También está viendo: …') and, when a reply
 * lands while the reply box holds text, '{nombre} respondió mientras escribías' with that reply.
 * Browser notifications (a new incident; a customer's answer on an incident assigned to me) once the
 * staff member has allowed them with the staff home's button.
 */
interface LiveData {
  kind: 'incident.created' | 'incident.changed' | 'message.created' | 'message.changed';
  numero?: string;
  change?: string;
  byId?: string | null;
  byName?: string | null;
  assignedTo?: string | null;
}

const root = document.getElementById('en-vivo');
const me = root?.dataset.yo ?? '';
const path = location.pathname.replace(/\/$/, '');
const incidentMatch = /^\/admin\/incidencias\/([^/]+)$/.exec(path);
const incident = incidentMatch ? decodeURIComponent(incidentMatch[1]!) : null;
const page = incident
  ? 'incident'
  : path === '/admin/incidencias'
    ? 'list'
    : path === '/admin/mensajes'
      ? 'inbox'
      : path === '/admin'
        ? 'home'
        : 'other';

/** Whether this event changes what the page shows (the sidebar counts: every contact message change). */
function concerns(data: LiveData): boolean {
  if (data.kind.startsWith('message.')) return true;
  if (page === 'list') return true;
  return page === 'incident' && data.numero === incident;
}

function dirtyOrFocused(field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): boolean {
  if (field === document.activeElement) return true;
  if (field instanceof HTMLSelectElement)
    return [...field.options].some((option) => option.selected !== option.defaultSelected);
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio'))
    return field.checked !== field.defaultChecked;
  if (field instanceof HTMLInputElement && field.type === 'file') return false;
  return field.value !== field.defaultValue;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const fieldKey = (field: Field) =>
  field.id
    ? `#${field.id}`
    : `${field.form?.getAttribute('action') ?? ''}|${field.name}|${field.type}|${field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox') ? field.value : ''}`;

/** Replaces a region by its new version, keeping what its fields hold, the focus and the caret. */
function swap(current: Element, next: Element): void {
  const kept = new Map<
    string,
    { value: string; checked: boolean; focused: boolean; start: number | null; end: number | null }
  >();
  for (const field of current.querySelectorAll<Field>('input, textarea, select')) {
    if (!dirtyOrFocused(field)) continue;
    const text = field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement;
    let start: number | null = null;
    let end: number | null = null;
    try {
      start = text ? field.selectionStart : null;
      end = text ? field.selectionEnd : null;
    } catch {
      // Inputs without a caret (number, email) refuse selectionStart.
    }
    kept.set(fieldKey(field), {
      value: field.value,
      checked: field instanceof HTMLInputElement ? field.checked : false,
      focused: field === document.activeElement,
      start,
      end,
    });
  }
  const adopted = document.importNode(next, true);
  current.replaceWith(adopted);
  if (!kept.size) return;
  for (const field of adopted.querySelectorAll<Field>('input, textarea, select')) {
    const was = kept.get(fieldKey(field));
    if (!was) continue;
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio'))
      field.checked = was.checked;
    else if (!(field instanceof HTMLInputElement && field.type === 'file')) field.value = was.value;
    if (was.focused) {
      field.focus({ preventScroll: true });
      if (was.start !== null && 'setSelectionRange' in field)
        try {
          field.setSelectionRange(was.start, was.end ?? was.start);
        } catch {
          // As above.
        }
    }
  }
}

const REGIONS = '[data-live-region], #lateral-lista, #movil-lista';
/**
 * When this page last acted in place (a button pressed, a form sent): a change of mine that comes back
 * right after it is already shown here, and fetching the page again would only wipe the control's own
 * 'Prioridad actualizada.' or 'Estado actualizado.'. My other tabs and pages still update.
 */
let actedAt = 0;
const acted = () => (actedAt = Date.now());
document.addEventListener('click', (event) => {
  if ((event.target as Element | null)?.closest?.('button')) acted();
});
document.addEventListener('submit', acted);
let fetching: Promise<void> | null = null;
let again = false;
/** Timeline entries already shown, so that a new reply can be told from the old ones. */
const seenEntries = () => document.querySelectorAll('[data-live-region="conversacion"] > li').length;

async function refresh(): Promise<Document | null> {
  // Marked as the page's own fetch, not a use of the session (its idle limit still counts).
  const response = await fetch(location.href, {
    headers: { Accept: 'text/html', 'X-Staff-Background': '1' },
    credentials: 'same-origin',
  });
  if (!response.ok || response.redirected) return null;
  const html = new DOMParser().parseFromString(await response.text(), 'text/html');
  let swapped = false;
  for (const current of document.querySelectorAll(REGIONS)) {
    const key = current.getAttribute('data-live-region');
    const next = key ? html.querySelector(`[data-live-region="${key}"]`) : html.getElementById(current.id);
    // A region showing a refused form's messages stays as it is until that form is dealt with.
    const refused = [...current.querySelectorAll('[role="alert"]')].some((alert) =>
      alert.textContent?.trim(),
    );
    if (next && !refused && next.outerHTML !== current.outerHTML) {
      swap(current, next);
      swapped = true;
    }
  }
  // Astro's islands unmount their framework component on this event once they are out of the page
  // (the event view transitions send): the replaced ones free their React roots.
  if (swapped) document.dispatchEvent(new Event('astro:after-swap'));
  return html;
}

/** Refreshes once for a burst of events; returns after the page shows them. */
function refreshSoon(): Promise<void> {
  if (fetching) {
    again = true;
    return fetching;
  }
  fetching = (async () => {
    // A moment's spread, so that the staff browsers showing the same page do not all ask at once.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
    do {
      again = false;
      try {
        await refresh();
      } catch {
        // The next event (or a reload) tries again.
      }
    } while (again);
    fetching = null;
  })();
  return fetching;
}

function say(element: HTMLElement, text: string): void {
  element.textContent = text;
  element.hidden = text === '';
}

/** '{nombre} respondió mientras escribías', with the new reply, above the reply box. */
function warnReply(before: number, name: string | null): void {
  const box = document.querySelector<HTMLTextAreaElement>('textarea#texto');
  const warning = document.getElementById('respondio-mientras');
  if (!box || !warning || box.value.trim() === '') return;
  const entries = [...document.querySelectorAll<HTMLElement>('[data-live-region="conversacion"] > li')].slice(
    before,
  );
  const reply = entries
    .reverse()
    .find((entry) => entry.dataset.tipo === 'reply' || entry.dataset.tipo === 'answer');
  if (!reply) return;
  const heading = document.createElement('p');
  heading.className = 'font-semibold';
  heading.textContent = `${name || reply.dataset.autor || 'Alguien'} respondió mientras escribías`;
  const hint = document.createElement('p');
  hint.className = 'text-xs';
  hint.textContent = 'Revisa su respuesta antes de enviar la tuya. Puedes enviarla de todos modos.';
  // The entry as it shows in the timeline, out of its list.
  const copy = document.createElement('div');
  copy.className = `${reply.className} mt-2`;
  copy.append(...[...reply.childNodes].map((node) => node.cloneNode(true)));
  warning.replaceChildren(heading, copy, hint);
  warning.hidden = false;
}

function notify(data: LiveData): void {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const numero = data.numero ?? '';
  const open = (title: string, body: string) => {
    const shown = new Notification(title, {
      body,
      tag: `${data.kind}:${numero}:${data.change ?? ''}`,
      lang: 'es',
    });
    shown.onclick = () => {
      window.focus();
      location.href = `/admin/incidencias/${encodeURIComponent(numero)}`;
    };
  };
  if (data.kind === 'incident.created') open('Nueva incidencia', numero);
  else if (data.kind === 'incident.changed' && data.change === 'answer' && data.assignedTo === me)
    open('Respuesta del cliente', numero);
}

function presence(numero: string, viewers: Array<{ id: string; name: string }>): void {
  const line = document.getElementById('tambien-viendo');
  if (!line || numero !== incident) return;
  const others = viewers.filter((viewer) => viewer.id !== me).map((viewer) => viewer.name);
  say(line, others.length ? `También está viendo: ${others.join(', ')}` : '');
}

if (root && 'EventSource' in window) {
  const url = new URL(root.dataset.eventos ?? '/api/staff/eventos', location.href);
  if (root.dataset.desde) url.searchParams.set('desde', root.dataset.desde);
  if (incident) url.searchParams.set('incidencia', incident);
  const source = new EventSource(url);
  source.addEventListener('message', (message: MessageEvent<string>) => {
    let data: LiveData;
    try {
      data = JSON.parse(message.data) as LiveData;
    } catch {
      return;
    }
    notify(data);
    if (!concerns(data)) return;
    if (data.byId === me && Date.now() - actedAt < 5000 && page === 'list') return;
    const before = seenEntries();
    const replied =
      page === 'incident' &&
      data.kind === 'incident.changed' &&
      (data.change === 'reply' || data.change === 'answer') &&
      data.byId !== me;
    void refreshSoon().then(() => {
      if (replied) warnReply(before, data.byName ?? null);
      root.dataset.ultimo = message.lastEventId;
    });
  });
  source.addEventListener('presence', (message: MessageEvent<string>) => {
    try {
      const data = JSON.parse(message.data) as {
        numero: string;
        viewers: Array<{ id: string; name: string }>;
      };
      presence(data.numero, data.viewers);
    } catch {
      // Ignored: the next presence event says it again.
    }
  });
  source.addEventListener('reset', () => void refreshSoon());
  source.addEventListener('open', () => (root.dataset.conectado = 'si'));
  window.addEventListener('pagehide', () => source.close());
}

// The staff home's 'Activar avisos del navegador' (hidden without JavaScript, and once the browser has
// an answer): permission is asked only when the button is pressed, never on a page load.
const allowBox = document.getElementById('avisos');
const allow = document.querySelector<HTMLButtonElement>('[data-activar-avisos]');
const allowStatus = document.getElementById('avisos-estado');
if (allowBox && allow && allowStatus && 'Notification' in window) {
  allowBox.hidden = Notification.permission !== 'default';
  const show = () => {
    const permission = Notification.permission;
    allow.hidden = permission !== 'default';
    // Always in the page (a live region that appears is not always read out): only its text changes.
    allowStatus.textContent =
      permission === 'granted'
        ? 'Avisos del navegador activados: te avisaremos de nuevas incidencias y de las respuestas de clientes en las tuyas.'
        : permission === 'denied'
          ? 'El navegador tiene los avisos bloqueados para este sitio; puedes permitirlos en su configuración.'
          : '';
  };
  show();
  allow.addEventListener('click', () => {
    void Notification.requestPermission().then(show);
  });
}

export {};

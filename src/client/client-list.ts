/**
 * The Clientes page with JavaScript (its HTML works without it):
 * - each row's 'Bienvenida' form sends the welcome mail in place, through the `clients.sendWelcome`
 *   action: '📧 Bienvenida' → '🕓 Enviando...' → '✅ Enviado' (disabled), the success message for
 *   3 seconds, a failure as an alert with the spec's callable code (§8) and the button back. A second
 *   click while the first is on its way sends nothing (the server shares one send as well). Without
 *   JavaScript the form posts to the client's page, which sends it and says so.
 * - the add-client form cannot be sent twice while the first submit is on its way.
 */
import { actions, isActionError } from 'astro:actions';
import { callableCode, withTimeout } from '../components/admin/callable';
import { WELCOME_LABELS, WELCOME_SUCCESS_MS, WELCOME_TEXT } from '../components/admin/clients-text';

type Outcome = { kind: 'ok' | 'error'; text: string };

/** The outcome in the row's live region, as the staff pages show one (a status, or an alert). */
function announce(region: Element, outcome: Outcome | null): void {
  if (!outcome) {
    region.replaceChildren();
    return;
  }
  const box = document.createElement('div');
  box.setAttribute('role', outcome.kind === 'error' ? 'alert' : 'status');
  box.className =
    outcome.kind === 'ok'
      ? 'rounded-button px-3 py-1.5 text-xs bg-accent-100 text-accent-700'
      : 'rounded-button px-3 py-1.5 text-xs bg-red-50 text-red-800';
  const text = document.createElement('p');
  text.textContent = outcome.text;
  box.append(text);
  region.replaceChildren(box);
}

function label(button: HTMLButtonElement, state: keyof typeof WELCOME_LABELS, name: string): void {
  button.textContent = WELCOME_LABELS[state];
  button.setAttribute('aria-label', `${WELCOME_LABELS[state]} — ${name}`);
}

const sending = new WeakSet<HTMLElement>();

async function sendWelcome(row: HTMLElement, button: HTMLButtonElement): Promise<void> {
  if (sending.has(row) || button.disabled) return;
  const region = row.querySelector('[data-welcome-message]');
  const name = row.querySelector('h2')?.textContent?.trim() ?? '';
  sending.add(row);
  button.disabled = true;
  label(button, 'sending', name);
  if (region) announce(region, null);
  let outcome: Outcome;
  try {
    const { data, error } = await withTimeout(
      actions.clients.sendWelcome({ id: Number(row.dataset.welcome) }),
    );
    outcome =
      error || !data?.correoBienvenidaEnviado
        ? {
            kind: 'error',
            text: WELCOME_TEXT.failed(isActionError(error) ? callableCode(error.status) : 'internal'),
          }
        : { kind: 'ok', text: WELCOME_TEXT.sent(row.dataset.cliente ?? '') };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'CallTimeoutError';
    outcome = { kind: 'error', text: WELCOME_TEXT.failed(timedOut ? 'deadline-exceeded' : 'internal') };
  } finally {
    sending.delete(row);
  }
  if (outcome.kind === 'ok') {
    label(button, 'sent', name);
  } else {
    label(button, 'idle', name);
    button.disabled = false;
  }
  if (!region) return;
  announce(region, outcome);
  if (outcome.kind === 'ok')
    setTimeout(() => {
      if (region.textContent === outcome.text) announce(region, null);
    }, WELCOME_SUCCESS_MS);
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const row = form.closest<HTMLElement>('[data-welcome]');
  if (row) {
    event.preventDefault();
    const button = form.querySelector('button');
    if (button) void sendWelcome(row, button);
    return;
  }
  if (form.matches('[data-client-form]')) {
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (form.dataset.sending) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = '1';
    if (button) {
      button.textContent = 'Guardando...';
      button.disabled = true;
    }
  }
});

// Back to a page kept by the browser's back/forward cache: the add-client form can be sent again.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-client-form][data-sending]')) {
    delete form.dataset.sending;
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!button) continue;
    button.textContent = 'Guardar cliente';
    button.disabled = false;
  }
});

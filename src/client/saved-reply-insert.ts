/**
 * 'Insertar respuesta guardada' on an incident's page with JavaScript (its HTML works without it: the
 * 'Insertar' button reloads the page with `?respuesta=`): the text filled for this incident by the
 * `replies.fill` action is appended to what is already in the box (a blank line between), the box is
 * focused at its end, and the live region says what was inserted. Nothing is sent: the staff member
 * reviews the text and answers with 'Responder al cliente'.
 */
import { actions } from 'astro:actions';
import { appendToReply } from '../domain/saved-replies';

function say(region: HTMLElement, text: string, kind: 'status' | 'alert'): void {
  region.replaceChildren();
  const line = document.createElement('p');
  line.setAttribute('role', kind);
  line.className = kind === 'alert' ? 'text-sm text-red-800' : 'text-sm text-accent-700';
  line.textContent = text;
  region.append(line);
}

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-insertar-respuesta]')) {
  const form = button.form;
  const select = form?.querySelector<HTMLSelectElement>('select[name="respuesta"]');
  const box = form?.querySelector<HTMLTextAreaElement>('textarea[name="texto"]');
  const region = document.getElementById('respuesta-insertada');
  const numero = form?.querySelector<HTMLInputElement>('input[name="numero"]')?.value;
  if (!form || !select || !box || !region || !numero) continue;
  button.addEventListener('click', async (event) => {
    event.preventDefault();
    if (!select.value) {
      say(region, 'Elige una respuesta guardada para insertarla.', 'alert');
      select.focus();
      return;
    }
    button.disabled = true;
    try {
      const { data, error } = await actions.replies.fill({ numero, id: Number(select.value) });
      if (error || !data) {
        say(region, error?.message || 'No se pudo insertar la respuesta. Inténtalo de nuevo.', 'alert');
        return;
      }
      box.value = appendToReply(box.value, data.text);
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
      say(region, `Se insertó «${data.title}». Revísala antes de enviarla.`, 'status');
    } catch {
      say(region, 'No se pudo insertar la respuesta. Revisa tu conexión e inténtalo de nuevo.', 'alert');
    } finally {
      button.disabled = false;
    }
  });
}

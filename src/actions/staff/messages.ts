/**
 * The contact inbox's 'Marcar como atendido' / 'Marcar como pendiente' (`messages.mark`), posted to the
 * inbox with its filter in the URL: a write goes back (303) to the same filtered list with `hecho=…`.
 */
import { messageViewQuery, parseMessageView } from '../../domain/messages.ts';
import { ROUTES } from '../../routes.ts';
import { setMessageHandled } from '../../server/contact/index.ts';
import { getDb } from '../../server/db/index.ts';
import { getLogger } from '../../server/log.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { INTERNAL_MESSAGE, staffForm } from './common.ts';

/** What the inbox says after each write (`?hecho=`). */
export const MESSAGE_DONE = {
  atendido: 'Mensaje marcado como atendido.',
  pendiente: 'Mensaje marcado como pendiente.',
  'ya-atendido': 'Ese mensaje ya estaba marcado como atendido.',
  'ya-pendiente': 'Ese mensaje ya estaba pendiente.',
} as const;

export const mark = staffForm('messages.mark', INTERNAL_MESSAGE, async (form, { staff, actor, context }) => {
  const intent = field(form, '_intent');
  const rawId = field(form, 'id');
  const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : null;
  if ((intent !== 'atendido' && intent !== 'pendiente') || id === null)
    refuse('BAD_REQUEST', 'Acción desconocida.');
  const outcome = await setMessageHandled(getDb(), { id, handled: intent === 'atendido', actor });
  if (outcome === 'not-found') refuse('NOT_FOUND', 'Ese mensaje ya no existe.');
  if (outcome === 'changed')
    getLogger().info(
      { event: `contact.${intent}`, messageId: id, actor: staff.email },
      'contact message marked',
    );
  const done: keyof typeof MESSAGE_DONE = outcome === 'changed' ? intent : `ya-${intent}`;
  const query = messageViewQuery(parseMessageView(context.url.searchParams));
  return seeOtherTo(`${ROUTES.adminMessages}${query}${query ? '&' : '?'}hecho=${done}`);
});

export const messageActions = { mark };

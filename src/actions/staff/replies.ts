/**
 * 'Respuestas guardadas' (issue 22). In Configuración, plain forms posted to the settings page:
 * `replies.create`, `replies.edit` and `replies.remove` (after its confirmation step, a link); each goes
 * back (303) to the section with `hecho=…`; a refused one shows the page again with what was typed and
 * each field's message. On an incident's page, `replies.fill` (JSON, for the page's script) answers
 * the text filled for that incident; without JavaScript the page itself fills it (`?respuesta=`).
 */
import { ActionError, defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { SAVED_REPLY_MESSAGES } from '../../domain/saved-replies.ts';
import { ROUTES } from '../../routes.ts';
import { getDb } from '../../server/db/index.ts';
import { incidentByNumber } from '../../server/incidents/index.ts';
import { mailBrand } from '../../server/mail/index.ts';
import {
  createSavedReply,
  deleteSavedReply,
  editSavedReply,
  fillSavedReplyFor,
  SavedReplyRefusal,
} from '../../server/replies/index.ts';
import { actionFailed } from '../guards.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { INTERNAL_MESSAGE, staffForm, staffOnly } from './common.ts';

/** What the section says after each write (`?hecho=`). */
export const REPLIES_DONE = {
  'respuesta-creada': 'La respuesta guardada se creó.',
  'respuesta-editada': 'La respuesta guardada se actualizó.',
  'respuesta-eliminada': 'La respuesta guardada se eliminó.',
  'respuesta-no-encontrada': 'Esa respuesta guardada ya no existía.',
} as const;

export const REPLIES_SECTION = 'respuestas';

const back = (done: keyof typeof REPLIES_DONE) =>
  seeOtherTo(`${ROUTES.adminSettings}?hecho=${done}#${REPLIES_SECTION}`);

/** The saved reply's id from the form, or a refusal. */
function replyId(form: FormData): number {
  const raw = field(form, 'id');
  if (!/^[1-9]\d{0,9}$/.test(raw)) refuse('BAD_REQUEST', SAVED_REPLY_MESSAGES.notFound);
  return Number(raw);
}

/** A refusal of the rules, as the form shows it: 400 with each field's message; 404 when it is gone. */
function refuseReply(error: unknown, verb: 'guardó' | 'actualizó'): never {
  if (!(error instanceof SavedReplyRefusal)) throw error;
  if (error.notFound) refuse('NOT_FOUND', SAVED_REPLY_MESSAGES.notFound);
  refuse('BAD_REQUEST', `No se ${verb} la respuesta: revisa los campos marcados.`, error.errors);
}

const inputOf = (form: FormData) => ({ title: field(form, 'titulo'), body: field(form, 'texto') });

export const create = staffForm('replies.create', SAVED_REPLY_MESSAGES.failed, async (form, { actor }) => {
  await createSavedReply(getDb(), inputOf(form), actor).catch((error: unknown) =>
    refuseReply(error, 'guardó'),
  );
  return back('respuesta-creada');
});

export const edit = staffForm('replies.edit', SAVED_REPLY_MESSAGES.failed, async (form, { actor }) => {
  const id = replyId(form);
  await editSavedReply(getDb(), id, inputOf(form), actor).catch((error: unknown) =>
    refuseReply(error, 'actualizó'),
  );
  return back('respuesta-editada');
});

export const remove = staffForm(
  'replies.remove',
  'No se pudo eliminar la respuesta guardada. Inténtalo de nuevo.',
  async (form, { actor }) =>
    back(
      (await deleteSavedReply(getDb(), replyId(form), actor))
        ? 'respuesta-eliminada'
        : 'respuesta-no-encontrada',
    ),
);

/** The text of a saved reply filled for an incident (the incident page's 'Insertar', with JavaScript). */
export const fill = defineAction({
  input: z.object({ numero: z.string().max(40), id: z.coerce.number().int().positive() }),
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      const db = getDb();
      const incident = await incidentByNumber(db, input.numero);
      if (!incident) throw new ActionError({ code: 'NOT_FOUND', message: 'La incidencia no existe.' });
      const filled = await fillSavedReplyFor(db, input.id, { incident, staff, brand: mailBrand() });
      if (!filled) throw new ActionError({ code: 'NOT_FOUND', message: SAVED_REPLY_MESSAGES.notFound });
      return filled;
    } catch (error) {
      actionFailed(error, 'replies.fill', INTERNAL_MESSAGE);
    }
  },
});

export const replyActions = { create, edit, remove, fill };

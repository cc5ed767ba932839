/**
 * Staff writes on clients. `clients.create` (a form: the add-client form posts it, and so can scripts)
 * and `clients.sendWelcome` (JSON: the list's in-place button) are the fixed interface; the rest are the
 * client page's forms: 'Editar', 'Estado del proyecto', 'Agregar nota', 'Archivar' / 'Restaurar', the
 * welcome mail without JavaScript, and 'Importar CSV' (preview, then confirmation).
 */
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { WELCOME_TEXT } from '../../components/admin/clients-text.ts';
import {
  CLIENT_FIELDS,
  clientInputSchema,
  clientNoteSchema,
  isProjectState,
  STALE_EDIT_MESSAGE,
  type ClientFieldName,
} from '../../domain/forms/client.ts';
import { adminClientPath, ROUTES } from '../../routes.ts';
import { staffActor } from '../../server/auth/index.ts';
import {
  addClientNote,
  createClient,
  setClientArchived,
  setClientState,
  updateClient,
} from '../../server/clients/index.ts';
import {
  checkImportSize,
  importClients,
  ImportRefusal,
  previewImport,
  signUpload,
  uploadNonce,
  verifyUpload,
} from '../../server/clients/index.ts';
import {
  ClientNotFoundError,
  deliverWelcomeMail,
  sendWelcome as sendWelcomeMail,
} from '../../server/clients/index.ts';
import { getDb } from '../../server/db/index.ts';
import { getLogger } from '../../server/log.ts';
import { field, fieldErrors, readForm, refuse, seeOtherTo } from '../form.ts';
import { actionFailed } from '../guards.ts';
import { INTERNAL_MESSAGE, staffForm, staffOnly } from './common.ts';

const NOT_FOUND_MESSAGE = 'El cliente no existe.';

/** What the client page says after each write (`?hecho=`). */
export const CLIENT_DONE = {
  editado: 'Cambios guardados.',
  estado: 'Estado del proyecto actualizado.',
  nota: 'Nota agregada.',
  archivado: 'Cliente archivado. Ya no aparece en la lista de clientes activos.',
  restaurado: 'Cliente restaurado.',
  bienvenida: 'Correo de bienvenida enviado.',
  reunion: 'Invitación enviada al cliente. Recibirás una copia por correo.',
  'reunion-cancelada': 'Reunión cancelada. El cliente recibirá la cancelación por correo.',
} as const;
export type ClientDone = keyof typeof CLIENT_DONE;

/** The client page with a write's outcome. */
export const clientDone = (id: number, done: ClientDone, anchor = '') =>
  seeOtherTo(`${adminClientPath(id)}?hecho=${done}${anchor}`);

export const create = defineAction({
  // A form action: the add-client form posts to /admin/clientes?_action=clients.create.
  accept: 'form',
  input: clientInputSchema,
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      const created = await createClient(getDb(), input, new Date(), staffActor(context, staff));
      // Posted from the page: the list shows it first and the form says so (a reload adds nothing).
      return {
        ...created,
        ...seeOtherTo(`${ROUTES.adminClients}?creado=${created.client.id}#nuevo-cliente`),
      };
    } catch (error) {
      actionFailed(error, 'clients.create', INTERNAL_MESSAGE);
    }
  },
});

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Sends the welcome mail once: the one path of both welcome actions. */
async function welcome(id: number, context: Parameters<typeof staffOnly>[0]) {
  const staff = await staffOnly(context);
  try {
    return await sendWelcomeMail(getDb(), id, deliverWelcomeMail, staffActor(context, staff));
  } catch (error) {
    if (error instanceof ClientNotFoundError)
      throw new ActionError({ code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE });
    actionFailed(error, 'clients.sendWelcome', INTERNAL_MESSAGE);
  }
}

export const sendWelcome = defineAction({
  input: idSchema,
  handler: async (input, context) => {
    const client = await welcome(input.id, context);
    return { id: client.id, correoBienvenidaEnviado: client.correoBienvenidaEnviado };
  },
});

/** The welcome mail without JavaScript (the list's and the client page's 'Bienvenida' forms). */
export const sendWelcomeForm = defineAction({
  accept: 'form',
  input: idSchema,
  handler: async (input, context) => {
    try {
      await welcome(input.id, context);
    } catch (error) {
      if (error instanceof ActionError && error.code === 'INTERNAL_SERVER_ERROR')
        refuse('BAD_REQUEST', WELCOME_TEXT.failed('internal'));
      throw error;
    }
    return clientDone(input.id, 'bienvenida');
  },
});

/** The client a form names: its hidden `id`, else the page it was posted to (`/admin/clientes/{id}`); or a 404 refusal. */
export function clientId(form: FormData, context: ActionAPIContext): number {
  const id = Number(field(form, 'id') || context.params.id);
  return Number.isInteger(id) && id > 0 ? id : refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
}

const CLIENT_FIELD_NAMES = CLIENT_FIELDS.map(({ name }) => name) as ClientFieldName[];

/** 'Editar': every field, with optimistic concurrency on the client's `version`. */
export const update = staffForm('clients.update', INTERNAL_MESSAGE, async (form, { actor, context }) => {
  const id = clientId(form, context);
  const parsed = clientInputSchema.safeParse(readForm(form, CLIENT_FIELD_NAMES));
  if (!parsed.success)
    refuse(
      'BAD_REQUEST',
      'No se guardaron los cambios. Revisa los campos marcados.',
      fieldErrors(parsed.error.issues),
    );
  const version = Number(field(form, 'version'));
  const outcome = await updateClient(
    getDb(),
    id,
    parsed.data,
    Number.isInteger(version) ? version : 0,
    actor,
  );
  if (outcome.kind === 'saved') return clientDone(id, 'editado');
  if (outcome.kind === 'stale') refuse('CONFLICT', STALE_EDIT_MESSAGE);
  return refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
});

/** 'Estado del proyecto'. */
export const setProjectState = staffForm(
  'clients.setProjectState',
  INTERNAL_MESSAGE,
  async (form, { actor, context }) => {
    const id = clientId(form, context);
    const estado = field(form, 'estadoProyecto');
    if (!isProjectState(estado))
      refuse('BAD_REQUEST', 'Elige un estado del proyecto de la lista.', {
        estadoProyecto: 'Elige un estado del proyecto de la lista.',
      });
    if (await setClientState(getDb(), id, estado, actor)) return clientDone(id, 'estado');
    return refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
  },
);

/** 'Agregar nota'. */
export const addNote = staffForm('clients.addNote', INTERNAL_MESSAGE, async (form, { actor, context }) => {
  const id = clientId(form, context);
  const parsed = clientNoteSchema.safeParse({ nota: form.get('nota') });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    refuse('BAD_REQUEST', errors.nota ?? 'Nota no válida.', { nota: errors.nota ?? 'Nota no válida.' });
  }
  if (await addClientNote(getDb(), id, parsed.data.nota, actor)) return clientDone(id, 'nota');
  return refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
});

/** 'Archivar' (`archivar=1`) and 'Restaurar' (`archivar=0`). */
export const archive = staffForm('clients.archive', INTERNAL_MESSAGE, async (form, { actor, context }) => {
  const id = clientId(form, context);
  const archived = field(form, 'archivar') === '1';
  if (await setClientArchived(getDb(), id, archived, actor))
    return clientDone(id, archived ? 'archivado' : 'restaurado');
  return refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
});

/** 'Importar CSV', step one: the preview, and the file to carry back, signed for this staff member. */
export const importPreview = staffForm('clients.importPreview', INTERNAL_MESSAGE, async (form, { staff }) => {
  const file = form.get('archivo');
  if (!(file instanceof File) || file.size === 0) refuse('BAD_REQUEST', 'Elige un archivo CSV.');
  try {
    checkImportSize(file.size);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const preview = await previewImport(getDb(), bytes);
    return {
      preview,
      carried: {
        contenido: Buffer.from(bytes).toString('base64'),
        firma: signUpload(staff.id, bytes),
        nombre: file.name.slice(0, 200),
      },
    };
  } catch (error) {
    if (error instanceof ImportRefusal) refuse('BAD_REQUEST', error.message);
    throw error;
  }
});

/** 'Importar CSV', step two: the carried file, checked against its signature, written all or nothing. */
export const importConfirm = staffForm(
  'clients.importConfirm',
  INTERNAL_MESSAGE,
  async (form, { staff, actor }) => {
    const contenido = form.get('contenido');
    const bytes =
      typeof contenido === 'string' ? new Uint8Array(Buffer.from(contenido, 'base64')) : new Uint8Array();
    const firma = form.get('firma');
    if (!verifyUpload(staff.id, bytes, firma))
      refuse('BAD_REQUEST', 'La vista previa caducó o no es válida. Vuelve a subir el archivo.');
    try {
      // Single-use: the signature's nonce is recorded with the import, so posting it again imports nothing.
      const outcome = await importClients(getDb(), bytes, actor, new Date(), uploadNonce(firma));
      getLogger().info(
        { event: 'clients.imported', ...outcome, actor: staff.email },
        'clients imported from CSV',
      );
      return seeOtherTo(
        `${ROUTES.adminClientsImport}?importados=${outcome.imported}&omitidas=${outcome.skipped}`,
      );
    } catch (error) {
      if (error instanceof ImportRefusal) refuse('BAD_REQUEST', error.message);
      throw error;
    }
  },
);

export const clientActions = {
  create,
  sendWelcome,
  sendWelcomeForm,
  update,
  setProjectState,
  addNote,
  archive,
  importPreview,
  importConfirm,
};

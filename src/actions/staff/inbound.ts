/**
 * 'Correo entrante' in Configuración (issue 21): on each refused message ('Rechazados'),
 * 'Crear incidencia' (`inbound.createIncident`: it opens an incident through the one inbound path) and
 * 'Descartar' (`inbound.discard`). Plain forms posted to the settings page; each goes back (303) to the
 * section with `hecho=…`.
 */
import { ROUTES } from '../../routes.ts';
import { getDb } from '../../server/db/index.ts';
import { inboundSettings } from '../../server/channels/index.ts';
import { discardRefused, openIncidentFromRefused } from '../../server/channels/index.ts';
import { getLogger } from '../../server/log.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { staffForm } from './common.ts';

/** What 'Correo entrante' says after each write (`?hecho=`); `incidencia` names the number (`&numero=`). */
export const INBOUND_DONE = {
  incidencia: 'Se abrió la incidencia desde el correo y se envió la confirmación al remitente.',
  descartado: 'El correo se descartó: ya no está en la lista.',
  'ya-revisado': 'Ese correo ya no estaba en la lista: otra persona lo atendió.',
} as const;

const SECTION = 'correo-entrante';

const back = (done: keyof typeof INBOUND_DONE, numero?: string) =>
  seeOtherTo(`${ROUTES.adminSettings}?hecho=${done}${numero ? `&numero=${numero}` : ''}#${SECTION}`);

/** The refused message's id from the form, or a refusal. */
function messageId(form: FormData): number {
  const raw = field(form, 'id');
  if (!/^[1-9]\d{0,9}$/.test(raw)) refuse('BAD_REQUEST', 'No se reconoce ese correo.');
  return Number(raw);
}

export const createIncident = staffForm(
  'inbound.createIncident',
  'No se pudo abrir la incidencia desde el correo. Inténtalo de nuevo.',
  async (form, { staff, actor }) => {
    const id = messageId(form);
    const outcome = await openIncidentFromRefused(getDb(), id, inboundSettings(), actor);
    if (outcome.status === 'no-sender')
      refuse(
        'BAD_REQUEST',
        'Ese correo no trae remitente: no se puede abrir una incidencia con él. Puedes descartarlo.',
      );
    if (outcome.status === 'gone') return back('ya-revisado');
    getLogger().info(
      {
        event: 'inbound.admitted',
        inboundId: id,
        numeroIncidencia: outcome.numeroIncidencia,
        actor: staff.email,
      },
      'refused mail opened an incident',
    );
    return back('incidencia', outcome.numeroIncidencia);
  },
);

export const discard = staffForm(
  'inbound.discard',
  'No se pudo descartar el correo. Inténtalo de nuevo.',
  async (form, { staff, actor }) => {
    const id = messageId(form);
    const outcome = await discardRefused(getDb(), id, actor);
    if (outcome === 'gone') return back('ya-revisado');
    getLogger().info(
      { event: 'inbound.discarded', inboundId: id, actor: staff.email },
      'refused mail discarded',
    );
    return back('descartado');
  },
);

export const inboundActions = { createIncident, discard };

/**
 * 'Correo entrante' in Configuración (issue 21): on each refused message ('Rechazados'),
 * 'Crear incidencia' (`inbound.createIncident`: it opens an incident through the one inbound path) and
 * 'Descartar' (`inbound.discard`). Plain forms posted to the settings page; each goes back (303) to the
 * section with `hecho=…`. Also the block of a customer's address on its channel (issue 37):
 * 'Bloquear número' / 'Bloquear dirección' on the incident page (`inbound.block`) and 'Desbloquear' there
 * or in the section's 'Bloqueados' (`inbound.unblock`), each back where it was posted from.
 */
import { isChannelId, type ChannelId } from '../../domain/channels.ts';
import { incidentPath, ROUTES } from '../../routes.ts';
import { blockSender, unblockSender } from '../../server/channels/index.ts';
import { incidentByNumber } from '../../server/incidents/index.ts';
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
  desbloqueado: 'Se desbloqueó el remitente: sus mensajes vuelven a llegar a las incidencias.',
  'ya-desbloqueado': 'Ese remitente ya no estaba bloqueado: no cambió nada.',
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

/** What the incident page says after a block or its lifting (`?hecho=`), with the channel's word ('número'). */
export const BLOCK_DONE = {
  bloqueado: (word: string) =>
    `Bloqueaste este ${word}: sus mensajes nuevos se guardan en «Rechazados» (Configuración) y no abren, reabren ni avisan nada.`,
  'ya-bloqueado': (word: string) => `Ese ${word} ya estaba bloqueado: no cambió nada.`,
  desbloqueado: (word: string) =>
    `Desbloqueaste este ${word}: sus mensajes vuelven a llegar a las incidencias.`,
  'ya-desbloqueado': (word: string) => `Ese ${word} no estaba bloqueado: no cambió nada.`,
} as const;
export type BlockDone = keyof typeof BLOCK_DONE;

/** The incident whose customer's address is blocked or unblocked, with its channel and address. */
async function incidentSender(
  form: FormData,
): Promise<{ numero: string; channel: ChannelId; address: string }> {
  const incident = await incidentByNumber(getDb(), field(form, 'numero'));
  if (!incident) return refuse('NOT_FOUND', 'No encontramos esa incidencia.');
  const address = (incident.channelAddress ?? '').trim();
  if (!isChannelId(incident.channel) || !address)
    refuse('BAD_REQUEST', 'Esta incidencia no tiene un número ni una dirección que bloquear.');
  return { numero: incident.numeroIncidencia, channel: incident.channel as ChannelId, address };
}

const toIncident = (numero: string, done: BlockDone) => seeOtherTo(`${incidentPath(numero)}?hecho=${done}`);

export const block = staffForm(
  'inbound.block',
  'No se pudo bloquear al remitente. Inténtalo de nuevo.',
  async (form, { staff, actor }) => {
    const sender = await incidentSender(form);
    const outcome = await blockSender(getDb(), sender.channel, sender.address, actor);
    getLogger().info(
      { event: 'sender.blocked', channel: sender.channel, outcome, actor: staff.email },
      'sender blocked',
    );
    return toIncident(sender.numero, outcome === 'blocked' ? 'bloqueado' : 'ya-bloqueado');
  },
);

/** From the incident page (`numero`), or from 'Bloqueados' in Configuración (`canal` and `direccion`). */
export const unblock = staffForm(
  'inbound.unblock',
  'No se pudo desbloquear al remitente. Inténtalo de nuevo.',
  async (form, { staff, actor }) => {
    const fromList = field(form, 'numero') === '';
    let sender: { numero: string; channel: ChannelId; address: string };
    if (fromList) {
      const channel = field(form, 'canal');
      const address = field(form, 'direccion');
      if (!isChannelId(channel) || !address) refuse('BAD_REQUEST', 'No se reconoce ese remitente.');
      sender = { numero: '', channel: channel as ChannelId, address };
    } else sender = await incidentSender(form);
    const outcome = await unblockSender(getDb(), sender.channel, sender.address, actor);
    getLogger().info(
      { event: 'sender.unblocked', channel: sender.channel, outcome, actor: staff.email },
      'sender unblocked',
    );
    if (fromList) return back(outcome === 'unblocked' ? 'desbloqueado' : 'ya-desbloqueado');
    return toIncident(sender.numero, outcome === 'unblocked' ? 'desbloqueado' : 'ya-desbloqueado');
  },
);

export const inboundActions = { createIncident, discard, block, unblock };

/**
 * The channels a customer reaches the desk through besides the support form (issue 37): their ids, as
 * stored (`inbound_messages.channel`, `incidents.channel`, `customer_notices.channel`, an answer's
 * `via`), the origin an incident opened by one of them shows ('Origen'), and the words the staff
 * screens and mails use of each. Every use of a channel's name goes through here, so that the next
 * channel is one entry more. Free of server code: components read it too.
 */

/** Channel ids, as stored. */
export const MAIL_CHANNEL = 'correo';
export const WHATSAPP_CHANNEL = 'whatsapp';
export const CHANNEL_IDS = [MAIL_CHANNEL, WHATSAPP_CHANNEL] as const;
export type ChannelId = (typeof CHANNEL_IDS)[number];

export function isChannelId(value: unknown): value is ChannelId {
  return typeof value === 'string' && (CHANNEL_IDS as readonly string[]).includes(value);
}

/** The origin of an incident the support form opened (no channel's message). */
export const FORM_ORIGIN = 'Formulario' as const;

/** What staff read of each channel. */
export interface ChannelWords {
  /** The incident's 'Origen' when a message of this channel opened it. */
  origin: string;
  /** Beside an entry that came by it: 'por correo'. */
  via: string;
  /** The author of an incident it opened, in the timeline: 'Correo entrante'. */
  source: string;
  /** The author of the channel's own reports on our messages (a bounce): 'Servidor de correo'. */
  server: string;
  /** A customer's address on it, as a noun: 'dirección', 'número' (its block: 'Bloquear número'). */
  address: string;
  /** Why a message of a blocked sender was refused ('Rechazados'): 'Dirección bloqueada'. */
  blocked: string;
}

export const CHANNEL_WORDS = {
  correo: {
    origin: 'Correo',
    via: 'por correo',
    source: 'Correo entrante',
    server: 'Servidor de correo',
    address: 'dirección',
    blocked: 'Dirección bloqueada',
  },
  whatsapp: {
    origin: 'WhatsApp',
    via: 'por WhatsApp',
    source: 'WhatsApp',
    server: 'WhatsApp',
    address: 'número',
    blocked: 'Número bloqueado',
  },
} as const satisfies Record<ChannelId, ChannelWords>;

/** The origin label of a channel ('Correo', 'WhatsApp'). */
export const channelOrigin = (channel: ChannelId) => CHANNEL_WORDS[channel].origin;

/** The origin of the mail channel, 'Correo'. */
export const MAIL_ORIGIN = CHANNEL_WORDS.correo.origin;
/** The origin of the WhatsApp channel, 'WhatsApp'. */
export const WHATSAPP_ORIGIN = CHANNEL_WORDS.whatsapp.origin;

/** The channel an origin names, or null for the support form (and anything else). */
export function channelOfOrigin(origin: string | null | undefined): ChannelId | null {
  return CHANNEL_IDS.find((channel) => CHANNEL_WORDS[channel].origin === origin) ?? null;
}

/** Where an incident came from: the support form, or a channel's message (issues 21 and 37). */
export const INCIDENT_ORIGINS = [FORM_ORIGIN, MAIL_ORIGIN, WHATSAPP_ORIGIN] as const;

/**
 * What became of a staff reply sent by a channel that sends it itself (WhatsApp, issue 37), as the
 * reply shows it: the delivery worker's own state ('Enviando…', 'Enviado', 'No se pudo entregar: …')
 * until Meta's statuses say more ('Entregado', 'Leído').
 */
export interface NoticeDelivery {
  estado: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
  /** 'Enviando…', 'Enviado', 'Entregado', 'Leído' or 'No se pudo entregar: …'. */
  texto: string;
  /** How many attempts the delivery worker made. */
  intentos: number;
  /** The last attempt's failure while it is still being tried ('No se pudo entregar: …; se reintentará'). */
  ultimoError?: string;
  /** It went as the approved template (past the 24-hour window): 'Pasaron más de 24 horas: se envió la plantilla'. */
  plantilla?: string;
}

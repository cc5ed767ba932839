/**
 * The welcome e-mail to a client (the spec's callable 'enviarCorreoBienvenida').
 *
 * The flag `correoBienvenidaEnviado` is set only after the mail was handed to the mail server, and
 * concurrent requests for the same client (a double click) share one send.
 *
 * The mail is sent now through the configured transport, not queued: the button reports the outcome.
 */
import type { AuditActor } from '../audit/index.ts';
import { getConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { mailBrand, sendNow } from '../mail/index.ts';
import { welcomeMail, type WelcomeMailData } from '../mail/index.ts';
import type { ClientRecord } from '../../domain/forms/client.ts';
import { getClient, markWelcomeSent } from './records.ts';

export type { WelcomeMailData };

export class ClientNotFoundError extends Error {
  override name = 'ClientNotFoundError';
}

export type DeliverWelcome = (data: WelcomeMailData) => Promise<void>;

/** Sends the welcome mail now; throws (MailDeliveryError) when the mail server did not accept it. */
export const deliverWelcomeMail: DeliverWelcome = async (data) => {
  await sendNow(welcomeMail(mailBrand(getConfig()), data), 'client.welcome');
};

const inFlight = new Map<number, Promise<ClientRecord>>();

/** Sends the welcome mail to a client once; resolves with the client marked as sent. */
export function sendWelcome(
  db: Db,
  clientId: number,
  deliver: DeliverWelcome = deliverWelcomeMail,
  /** Who sent it and from where: recorded with the flag, once per mail actually sent. */
  audit?: AuditActor,
): Promise<ClientRecord> {
  const running = inFlight.get(clientId);
  if (running) return running;
  const work = (async () => {
    const client = await getClient(db, clientId);
    if (!client) throw new ClientNotFoundError(`No existe el cliente ${clientId}`);
    if (client.correoBienvenidaEnviado) return client;
    await deliver({
      nombreRepresentante: client.nombreRepresentante,
      email: client.email,
      razonSocial: client.razonSocial,
      tipoProyecto: client.tipoProyecto,
    });
    await markWelcomeSent(db, clientId, audit);
    getLogger().info({ event: 'welcome.sent', clientId }, 'welcome mail sent');
    return { ...client, correoBienvenidaEnviado: true };
  })().finally(() => inFlight.delete(clientId));
  inFlight.set(clientId, work);
  return work;
}

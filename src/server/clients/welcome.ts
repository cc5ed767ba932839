/**
 * The welcome e-mail to a client (the spec's callable 'enviarCorreoBienvenida').
 *
 * The flag `correoBienvenidaEnviado` is set only after the mail was handed to the mail server, and
 * concurrent requests for the same client (a double click) share one send.
 *
 * NOT CONNECTED YET: `deliverWelcomeMail` is the one place to wire to the mail module's `sendNow`
 * (sent now, not only queued, because the button reports the outcome) after the merge, with the
 * content of `welcomeMail()` (welcome-mail.ts). Until then it fails honestly and the staff see
 * 'Hubo un error al enviar el correo'.
 */
import type { Db } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { getClient, markWelcomeSent, type ClientView } from './index.ts';

export interface WelcomeMailData {
  nombreRepresentante: string;
  email: string;
  razonSocial: string;
  tipoProyecto: string;
}

export class WelcomeMailUnavailableError extends Error {
  override name = 'WelcomeMailUnavailableError';
}

export class ClientNotFoundError extends Error {
  override name = 'ClientNotFoundError';
}

export type DeliverWelcome = (data: WelcomeMailData) => Promise<void>;

/** Sends the welcome mail now; throws when it was not accepted. To be connected to the mail module. */
export const deliverWelcomeMail: DeliverWelcome = async () => {
  throw new WelcomeMailUnavailableError('El módulo de correo aún no está conectado al correo de bienvenida.');
};

const inFlight = new Map<number, Promise<ClientView>>();

/** Sends the welcome mail to a client once; resolves with the client marked as sent. */
export function sendWelcome(db: Db, clientId: number, deliver: DeliverWelcome = deliverWelcomeMail): Promise<ClientView> {
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
    await markWelcomeSent(db, clientId);
    getLogger().info({ event: 'welcome.sent', clientId }, 'welcome mail sent');
    return { ...client, correoBienvenidaEnviado: true };
  })().finally(() => inFlight.delete(clientId));
  inFlight.set(clientId, work);
  return work;
}

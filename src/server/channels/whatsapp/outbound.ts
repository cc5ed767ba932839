/**
 * The WhatsApp channel's side of a customer notice (src/server/channels/delivery.ts). Meta's API is an
 * outside service: nothing is sent inside the desk's transaction. `deliver` takes the notice there and
 * leaves it `pending` in `customer_notices`, which is this channel's outbox; the delivery worker sends it
 * after the commit (`send`), retried with back-off, so that a crash or an outage of Meta loses nothing.
 */
import type { Channel } from '../channel.ts';

export const whatsappDelivery: Pick<Channel, 'deliver'> = {
  // The customer's number (its wa_id) is the incident's address on the channel; without one, nothing goes.
  async deliver(_notice, { incident }) {
    return incident.channelAddress ? { outcome: 'queued', deferred: true } : { outcome: 'no-address' };
  },
};

/**
 * The channels the desk speaks through, by id (src/domain/channels.ts): the one place that lists them.
 * A new channel is a folder under src/server/channels/ and one entry here. Both are always registered:
 * an incident keeps its channel whatever the settings say now (a WhatsApp incident's notices wait for
 * the delivery worker while the channel is off); only the channel's routes answer 404 when it is off.
 */
import type { ChannelId } from '../../domain/channels.ts';
import type { Channel } from './channel.ts';
import { mailChannel } from './mail/channel.ts';
import { whatsappChannel } from './whatsapp/channel.ts';

const channels = new Map<ChannelId, Channel>([
  [mailChannel.id, mailChannel],
  [whatsappChannel.id, whatsappChannel],
]);

/** Adds a channel (the WhatsApp channel, when its settings turn it on); the function returned takes it out. */
export function registerChannel(channel: Channel): () => void {
  const before = channels.get(channel.id);
  channels.set(channel.id, channel);
  return () => {
    if (channels.get(channel.id) !== channel) return;
    if (before) channels.set(channel.id, before);
    else channels.delete(channel.id);
  };
}

/** The channel of this id; an incident of a channel not running here is reached by mail. */
export function channelOf(id: string): Channel {
  return channels.get(id as ChannelId) ?? mailChannel;
}

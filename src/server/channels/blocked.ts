/**
 * Blocked senders (issue 37: "the same screening as mail applies: … a blocked number"), the same for
 * every channel: a staff member blocks the customer's address of an incident (its WhatsApp number, its
 * mail address) from the incident page, and the one intake (intake.ts) refuses every later message from
 * it, before the channel's own rules: stored (nothing is lost; it shows in 'Rechazados' with
 * 'Número bloqueado' or 'Dirección bloqueada', from where 'Crear incidencia' still works), never joined to
 * an incident, never opening or reopening one, nobody told. Blocking and unblocking are audited.
 */
import type { Transaction } from 'kysely';
import { BLOCKED_REASON } from '../../domain/inbound.ts';
import type { ChannelId } from '../../domain/channels.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/index.ts';

/** The reason a blocked sender's message is stored with: `blocked:whatsapp` ('Número bloqueado'). */
export const blockedReason = (channel: string) => `${BLOCKED_REASON}:${channel}`;

/** A sender as the channels store one: a mail address in lower case, a number's digits. */
export const senderKey = (address: string) => address.trim().toLowerCase();

export interface BlockedSender {
  channel: string;
  address: string;
  blockedBy: string;
  blockedAt: string;
}

const iso = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

/** Whether `address` is blocked on `channel` (in the message's transaction). */
export async function isSenderBlocked(
  trx: Transaction<Database> | Db,
  channel: string,
  address: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('blockedSenders')
    .select('id')
    .where('channel', '=', channel)
    .where('address', '=', senderKey(address))
    .executeTakeFirst();
  return Boolean(row);
}

/** The block of `address` on `channel`, if any (the incident page's 'Desbloquear'). */
export async function senderBlock(db: Db, channel: string, address: string): Promise<BlockedSender | null> {
  const row = await db
    .selectFrom('blockedSenders')
    .select(['channel', 'address', 'blockedBy', 'blockedAt'])
    .where('channel', '=', channel)
    .where('address', '=', senderKey(address))
    .executeTakeFirst();
  return row ? { ...row, blockedAt: iso(row.blockedAt) } : null;
}

/** Every block, newest first ('Bloqueados' in Configuración). */
export async function blockedSenders(db: Db): Promise<BlockedSender[]> {
  const rows = await db
    .selectFrom('blockedSenders')
    .select(['channel', 'address', 'blockedBy', 'blockedAt'])
    .orderBy('blockedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, blockedAt: iso(row.blockedAt) }));
}

/** Blocks `address` on `channel`; `unchanged` when it already was. Audited (`sender.blocked`). */
export async function blockSender(
  db: Db,
  channel: ChannelId,
  address: string,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<'blocked' | 'unchanged'> {
  const key = senderKey(address);
  if (!key) throw new Error('blockSender: an empty address');
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('blockedSenders')
      .values({ channel, address: key, blockedBy: actor.actorEmail ?? '', blockedAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['channel', 'address']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'unchanged';
    await recordEvent(trx, { ...actor, action: 'sender.blocked', subject: key, detail: channel }, now);
    return 'blocked';
  });
}

/** Lifts the block of `address` on `channel`; `unchanged` when there was none. Audited (`sender.unblocked`). */
export async function unblockSender(
  db: Db,
  channel: ChannelId,
  address: string,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<'unblocked' | 'unchanged'> {
  const key = senderKey(address);
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('blockedSenders')
      .where('channel', '=', channel)
      .where('address', '=', key)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return 'unchanged';
    await recordEvent(trx, { ...actor, action: 'sender.unblocked', subject: key, detail: channel }, now);
    return 'unblocked';
  });
}

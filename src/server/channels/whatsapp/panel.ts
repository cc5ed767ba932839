/**
 * What the 'Correo entrante' panel in Configuración says of the WhatsApp channel (issue 37): when its
 * webhook last brought a message, and the last thing that went wrong (a message that could not be
 * stored, a file that could not be fetched, an error Meta reported about the number). Kept in the
 * `inbound_polls` row of channel `whatsapp` (the mailbox reader keeps its own there): `last_round_at`
 * the last verified POST, `last_ok_at` the last message received, `last_error`/`last_error_at`.
 * Writing it never fails what the webhook does.
 */
import type { Db } from '../../db/index.ts';

/** The `inbound_polls.channel` of the WhatsApp webhook. */
export const WHATSAPP_PANEL = 'whatsapp';

export interface WhatsAppPanelStatus {
  /** The last verified POST of Meta's webhook. */
  lastPostAt: string | null;
  /** The last customer message it brought. */
  lastMessageAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

const iso = (value: string | Date | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : value;

async function write(
  db: Db,
  values: { lastRoundAt: string; lastOkAt?: string; lastError?: string; lastErrorAt?: string },
): Promise<void> {
  await db
    .insertInto('inboundPolls')
    .values({ channel: WHATSAPP_PANEL, lastOkAt: null, lastError: null, lastErrorAt: null, ...values })
    .onConflict((oc) => oc.column('channel').doUpdateSet(values))
    .execute()
    .catch(() => {});
}

/** A verified POST arrived (with `messages` customer messages in it). */
export function noteWebhook(db: Db, messages: number, now: Date): Promise<void> {
  const at = now.toISOString();
  return write(db, { lastRoundAt: at, ...(messages > 0 && { lastOkAt: at }) });
}

/** Something went wrong: said on the panel until something else does. */
export function noteError(db: Db, error: string, now: Date): Promise<void> {
  const at = now.toISOString();
  return write(db, { lastRoundAt: at, lastError: error.slice(0, 500), lastErrorAt: at });
}

/** The channel's line on the panel, or null when its webhook never received anything. */
export async function whatsappPanelStatus(db: Db): Promise<WhatsAppPanelStatus | null> {
  const row = await db
    .selectFrom('inboundPolls')
    .selectAll()
    .where('channel', '=', WHATSAPP_PANEL)
    .executeTakeFirst();
  if (!row) return null;
  return {
    lastPostAt: iso(row.lastRoundAt),
    lastMessageAt: iso(row.lastOkAt),
    lastError: row.lastError,
    lastErrorAt: iso(row.lastErrorAt),
  };
}

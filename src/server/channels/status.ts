/**
 * What 'Correo entrante' (Configuración) says of the inbound channels (issue 21): how the mailbox
 * reader's last round ended (`inbound_polls`, written by src/server/channels/mail/imap.ts) and what came in
 * today, Santo Domingo time, by outcome.
 */
import { TZDate } from '@date-fns/tz';
import { TIME_ZONE } from '../../domain/dates.ts';
import type { Db } from '../db/index.ts';
import type { InboundOutcome } from '../db/index.ts';
import { IMAP_POLLER } from './mail/imap.ts';

export interface PollStatus {
  lastRoundAt: string;
  lastOkAt: string | null;
  /** The error of the last round, or null when it went well. */
  lastError: string | null;
  lastErrorAt: string | null;
  idle: boolean;
}

const iso = (value: string | Date | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : value;

/** The mailbox reader's last round, or null when it never ran. */
export async function mailboxPollStatus(db: Db): Promise<PollStatus | null> {
  const row = await db
    .selectFrom('inboundPolls')
    .selectAll()
    .where('channel', '=', IMAP_POLLER)
    .executeTakeFirst();
  if (!row) return null;
  return {
    lastRoundAt: iso(row.lastRoundAt)!,
    lastOkAt: iso(row.lastOkAt),
    lastError: row.lastError,
    lastErrorAt: iso(row.lastErrorAt),
    idle: Boolean(row.idle),
  };
}

/** Midnight of `now`'s day in Santo Domingo, as a UTC instant. */
export function startOfLocalDay(now: Date): Date {
  const local = new TZDate(now.getTime(), TIME_ZONE);
  return new Date(new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), TIME_ZONE).getTime());
}

/** Messages received today (Santo Domingo), in all and by outcome. */
export async function receivedToday(
  db: Db,
  now: Date = new Date(),
): Promise<{ total: number; byOutcome: Partial<Record<InboundOutcome, number>> }> {
  const rows = await db
    .selectFrom('inboundMessages')
    .select(['outcome', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('receivedAt', '>=', startOfLocalDay(now).toISOString())
    .groupBy('outcome')
    .execute();
  const byOutcome: Partial<Record<InboundOutcome, number>> = {};
  for (const row of rows) byOutcome[row.outcome] = Number(row.count);
  return { total: Object.values(byOutcome).reduce((sum, count) => sum + count, 0), byOutcome };
}

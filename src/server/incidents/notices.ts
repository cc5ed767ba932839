/**
 * Who is mailed when an incident arrives, and how much (issue 13: no stranger can send mail through
 * the site). The visitor's confirmation counts against two caps per UTC day: 3 per address, and
 * `VISITOR_MAIL_DAILY_CAP` for all visitor mails together; past either the incident is still stored
 * and the staff still told, only the visitor's mail is skipped. The staff inbox gets one notice per
 * incident until a real burst: more than {@link FLOOD_INCIDENTS_PER_HOUR} incidents in the last hour,
 * or {@link NOTICES_PER_HOUR} staff-inbox mails already queued in it (issue 39 §3: it was 4, so an
 * ordinary busy hour's fifth incident came as a digest saying 'más incidencias de lo habitual'); then
 * the incidents are marked and one digest at most every `STAFF_DIGEST_INTERVAL_SECONDS` lists them,
 * each linked to its page, so a flood puts at most about 14 mails an hour into the inbox (10 notices,
 * 4 digests) and every incident is in a notice or a digest.
 */
import { sql, type Kysely } from 'kysely';
import { utcDay } from '../../domain/incidents.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import { reserveHit } from '../limits/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { incidentDigestMail, type DigestIncident } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';

export const CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;
/** `VISITOR_MAIL_DAILY_CAP`'s default. */
export const DEFAULT_CUSTOMER_MAIL_DAILY_CAP = 500;
export const FLOOD_INCIDENTS_PER_HOUR = 10;
export const NOTICES_PER_HOUR = 10;
export const STAFF_INBOX_KINDS = ['incident.staff-notice', 'incident.staff-digest'] as const;
const HOUR_MS = 60 * 60 * 1000;
/** Longer than any UTC day has left: the day is in the key, so the count never restarts within it. */
const DAY_KEY_WINDOW_MS = 2 * 24 * HOUR_MS;

export type CustomerMailRefusal = 'address-cap' | 'daily-cap';

/**
 * Reserves one customer mail under the caps, in the transaction that queues it (a rolled-back incident
 * uses no allowance). Null when it may be sent; otherwise which cap was reached.
 */
export async function reserveCustomerMail(
  trx: Kysely<Database>,
  input: { kind: 'confirmation' | 'state'; address: string; dailyCap: number; now: Date },
): Promise<CustomerMailRefusal | null> {
  const day = utcDay(input.now);
  const at = input.now.getTime();
  if (input.kind === 'confirmation') {
    const address = input.address.trim().toLowerCase();
    if (
      (await reserveHit(trx, `visitor-mail:${day}:${address}`, DAY_KEY_WINDOW_MS, at)) >
      CONFIRMATIONS_PER_ADDRESS_PER_DAY
    )
      return 'address-cap';
  }
  if (
    input.dailyCap > 0 &&
    (await reserveHit(trx, `visitor-mail:${day}`, DAY_KEY_WINDOW_MS, at)) > input.dailyCap
  )
    return 'daily-cap';
  return null;
}

/** Whether the staff inbox gets this incident's notice now (else the incident waits for a digest). */
export async function noticeNow(trx: Kysely<Database>, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - HOUR_MS).toISOString();
  const incidents = await trx
    .selectFrom('incidents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('fecha', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(incidents.n) > FLOOD_INCIDENTS_PER_HOUR) return false;
  const mails = await trx
    .selectFrom('mailOutbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', 'in', [...STAFF_INBOX_KINDS])
    .where('createdAt', '>', since)
    .executeTakeFirstOrThrow();
  return Number(mails.n) < NOTICES_PER_HOUR;
}

/** Marks an incident whose notice waits for the next digest. */
export async function holdNotice(trx: Kysely<Database>, incidentId: number): Promise<void> {
  await trx.updateTable('incidents').set({ staffNoticePending: true }).where('id', '=', incidentId).execute();
}

export interface DigestOptions {
  brand: MailBrand;
  staffInbox: string;
  intervalMs: number;
  now?: Date;
}

/**
 * Queues one digest of the held incidents when the last one is at least `intervalMs` old; returns how
 * many incidents it lists (0: nothing held, or too soon). Claiming the held rows is one update, so two
 * processes never list the same incident twice.
 */
export async function sendStaffDigestIfDue(db: Db, options: DigestOptions): Promise<number> {
  const now = options.now ?? new Date();
  const last = await db
    .selectFrom('mailOutbox')
    .select('createdAt')
    .where('kind', '=', 'incident.staff-digest')
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && now.getTime() - Date.parse(last.createdAt) < options.intervalMs) return 0;
  const listed = await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('incidents')
      .set({ staffNoticePending: false })
      // The literal matches the partial index's condition, so SQLite uses it too.
      .where(sql<boolean>`staff_notice_pending = true`)
      .returning(['id', 'numeroIncidencia', 'nombre', 'problema', 'fecha'])
      .execute();
    if (!claimed.length) return 0;
    // An incident held for its customer's answers (conversation.ts) is listed with the last one, not as new.
    const answers = await trx
      .selectFrom('incidentEntries')
      .select(['incidentId', 'body', 'createdAt'])
      .where('kind', '=', 'answer')
      .where(
        'incidentId',
        'in',
        claimed.map((incident) => incident.id),
      )
      .orderBy('createdAt', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const lastAnswer = new Map(answers.map((answer) => [answer.incidentId, answer]));
    const held: DigestIncident[] = claimed.map(({ id, ...incident }) => {
      const answer = lastAnswer.get(id);
      return answer ? { ...incident, answer: { body: answer.body, at: answer.createdAt } } : incident;
    });
    held.sort(
      (a, b) => a.fecha.localeCompare(b.fecha) || a.numeroIncidencia.localeCompare(b.numeroIncidencia),
    );
    await enqueueMail(
      trx,
      { kind: 'incident.staff-digest', ...incidentDigestMail(options.brand, options.staffInbox, held) },
      now,
    );
    return held.length;
  });
  return listed;
}

/**
 * The messages that came in, of `npm run data` (issue 21; issue 40: each area moves its own rows):
 * each by its de-duplication key (so that the same mail delivered after a move is still a duplicate),
 * with what became of it, the incident it joined or opened by number, who dealt with it when it was
 * refused, and its original (one gzip, base64) while it is kept. `inbound_messages` is written by the
 * intake (intake.ts) and, for a move, here; the originals by mail/original.ts.
 */
import { INCIDENT_NUMBER_PATTERN } from '../../domain/incidents.ts';
import { MAIL_CHANNEL } from '../../domain/channels.ts';
import {
  email,
  optionalText,
  RecordRefused,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Outcome,
} from '../data-records.ts';
import type { Db, InboundOutcome } from '../db/index.ts';
import { originalGzip, writeOriginal } from './mail/original.ts';

/**
 * A message that came in (`inbound_messages`), by its de-duplication key, with what became of it, the
 * incident it joined or opened by number, who dealt with it when it was refused, and its original
 * (gzip, base64) while it is kept.
 */
export interface ExportedInboundMessage {
  channel: string;
  dedupKey: string;
  messageId: string | null;
  sender: string;
  subject: string;
  outcome: InboundOutcome;
  reason: string | null;
  numeroIncidencia: string | null;
  receivedAt: string;
  reviewedAt: string | null;
  reviewedByEmail: string | null;
  rawGzipBase64: string | null;
}

/** Every message, oldest first, and the de-duplication key of each by its id here (the entries name them). */
export async function exportInboundMessages(
  db: Db,
): Promise<{ messages: ExportedInboundMessage[]; keys: Map<number, string> }> {
  const inbound = await db
    .selectFrom('inboundMessages')
    .leftJoin('incidents', 'incidents.id', 'inboundMessages.incidentId')
    .selectAll('inboundMessages')
    .select('incidents.numeroIncidencia')
    .orderBy('inboundMessages.receivedAt')
    .orderBy('inboundMessages.id')
    .execute();
  // Each original's parts joined into one gzip, as exports have always carried it (the import splits it again).
  const originals = new Map<number, string>();
  for (const row of inbound) {
    if (row.originalParts === null) continue;
    const gzip = await originalGzip(db, row.id);
    if (gzip) originals.set(row.id, gzip.toString('base64'));
  }
  return {
    keys: new Map(inbound.map((row) => [row.id, row.dedupKey])),
    messages: inbound.map((row) => ({
      channel: row.channel,
      dedupKey: row.dedupKey,
      messageId: row.messageId,
      sender: row.sender,
      subject: row.subject,
      outcome: row.outcome,
      reason: row.reason,
      numeroIncidencia: row.numeroIncidencia ?? null,
      receivedAt: row.receivedAt,
      reviewedAt: row.reviewedAt ?? null,
      reviewedByEmail: row.reviewedBy ?? null,
      rawGzipBase64: originals.get(row.id) ?? null,
    })),
  };
}

const INBOUND_OUTCOMES: readonly InboundOutcome[] = [
  'answer',
  'unverified',
  'new-incident',
  'bounce',
  'report',
  'ignored',
  'rejected',
];

/**
 * The messages of one import, before the incidents (whose entries name them): {@link importRecord}
 * stores each once by its de-duplication key (one already here is skipped, its id still serves the
 * entries that name it), {@link idOf} gives that id, and {@link linkToIncidents}, once the incidents
 * are in, joins each message imported to the incident it names, when that incident is here.
 */
export function inboundImport() {
  const ids = new Map<string, number>();
  const toLink: Array<{ id: number; numero: string }> = [];
  return {
    async importRecord(trx: Db, record: Record<string, unknown>): Promise<Outcome> {
      const dedupKey = text(record.dedupKey, 600).trim();
      const receivedAt = toIsoTime(record.receivedAt);
      const outcome = INBOUND_OUTCOMES.find((known) => known === record.outcome);
      if (!dedupKey) throw new RecordRefused('falta la clave del mensaje (dedupKey).');
      if (!receivedAt) throw new RecordRefused('la fecha de recepción falta o no es una fecha.');
      if (!outcome) throw new RecordRefused(`el resultado «${text(record.outcome, 40)}» no existe.`);
      const reviewedAt = toIsoTime(record.reviewedAt);
      const raw =
        typeof record.rawGzipBase64 === 'string' && record.rawGzipBase64
          ? Buffer.from(record.rawGzipBase64, 'base64')
          : null;
      const inserted = await trx
        .insertInto('inboundMessages')
        .values({
          channel: text(record.channel, 40) || MAIL_CHANNEL,
          dedupKey,
          messageId: optionalText(record.messageId, 500),
          sender: text(record.sender, 320).trim().toLowerCase(),
          subject: text(record.subject, 500),
          outcome,
          reason: optionalText(record.reason, 100),
          incidentId: null,
          receivedAt,
          reviewedAt,
          reviewedBy: reviewedAt
            ? email(
                record.reviewedByEmail,
                STAFF_EMAIL,
                'el correo de quien revisó un correo rechazado',
                true,
              )
            : null,
        })
        .onConflict((conflict) => conflict.column('dedupKey').doNothing())
        .returning('id')
        .executeTakeFirst();
      const id =
        inserted?.id ??
        (
          await trx
            .selectFrom('inboundMessages')
            .select('id')
            .where('dedupKey', '=', dedupKey)
            .executeTakeFirstOrThrow()
        ).id;
      // The original, one gzip in the export, kept in parts (original.ts).
      if (inserted && raw)
        await writeOriginal(trx, Number(id), new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
      ids.set(dedupKey, Number(id));
      const numero = text(record.numeroIncidencia, 40).trim();
      if (inserted && INCIDENT_NUMBER_PATTERN.test(numero)) toLink.push({ id: Number(id), numero });
      return inserted ? 'imported' : 'skipped';
    },
    idOf: (dedupKey: string): number | undefined => ids.get(dedupKey),
    async linkToIncidents(trx: Db): Promise<void> {
      for (const { id, numero } of toLink) {
        const incident = await trx
          .selectFrom('incidents')
          .select('id')
          .where('numeroIncidencia', '=', numero)
          .executeTakeFirst();
        if (incident)
          await trx
            .updateTable('inboundMessages')
            .set({ incidentId: incident.id })
            .where('id', '=', id)
            .execute();
      }
    },
  };
}

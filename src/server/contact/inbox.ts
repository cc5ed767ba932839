/**
 * The contact inbox of the staff area (`/admin/mensajes`, issue 11): the messages of the contact form,
 * newest first, filtered by 'Pendientes' / 'Atendidos' and searched by name, e-mail or text (the staff
 * search's index, src/server/search/), 'Marcar como atendido' / 'Marcar como pendiente' with who
 * and when (and an audit event in the same transaction), the count of pending messages the sidebar
 * shows, and the CSV export of the filtered list.
 *
 * Every query of a filter walks its partial index of migration 0015 (`created_at desc, id desc` where
 * `handled_at` is / is not null), so a page stops reading at the page and the count reads the pending
 * entries only.
 */
import { formatStaffDateTime, inSantoDomingoTime } from '../../domain/dates.ts';
import { PENDING_COUNT_CAP, type MessageView } from '../../domain/messages.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import { recordLiveEvent } from '../live/index.ts';
import type { ContactMessage } from '../db/index.ts';
import { searchCondition } from '../search/index.ts';

export const MESSAGE_PAGE_SIZE = 20;

/** A contact message as the inbox shows it (the row without its search columns). */
export interface InboxMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  /** When it was marked 'atendido' (ISO 8601 UTC) and by whom; null while pending. */
  handledAt: string | null;
  handledByEmail: string | null;
}

export interface MessagePage {
  items: InboxMessage[];
  page: number;
  pageSize: number;
  hasNext: boolean;
}

type Filters = Pick<MessageView, 'estado' | 'q'>;

function toInboxMessage(row: Pick<ContactMessage, keyof InboxMessage>): InboxMessage {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    message: row.message,
    createdAt: row.createdAt,
    handledAt: row.handledAt ?? null,
    handledByEmail: row.handledByEmail ?? null,
  };
}

const COLUMNS = ['id', 'name', 'email', 'message', 'createdAt', 'handledAt', 'handledByEmail'] as const;

/** The messages of a filter and search, in list order (newest first, then the higher id). */
function filtered(db: Db, { estado, q }: Filters) {
  let query = db
    .selectFrom('contactMessages')
    .select(COLUMNS)
    .where('handledAt', estado === 'atendidos' ? 'is not' : 'is', null);
  // The staff search's index (issue 22): words of the name, e-mail or text, accents, case and word forms aside.
  if (q) query = query.where(searchCondition(db, 'messages', 'contact_messages.id', q));
  return query.orderBy('createdAt', 'desc').orderBy('id', 'desc');
}

/** One page of the inbox, newest first. */
export async function listMessages(
  db: Db,
  view: MessageView,
  pageSize = MESSAGE_PAGE_SIZE,
): Promise<MessagePage> {
  const rows = await filtered(db, view)
    .limit(pageSize + 1)
    .offset((view.pagina - 1) * pageSize)
    .execute();
  return {
    items: rows.slice(0, pageSize).map(toInboxMessage),
    page: view.pagina,
    pageSize,
    hasNext: rows.length > pageSize,
  };
}

/**
 * How many messages nobody has marked 'atendido' yet, counted up to {@link PENDING_COUNT_CAP}: the
 * sidebar's 'Mensajes' badge on every staff page, and the dashboard. Read from the pending messages'
 * partial index, and never more than the cap's entries of it, so its cost stays flat however many
 * messages wait (an exact count of 100,000 pending ones walked the whole index on every staff page).
 * Show it with `formatPendingCount` (src/domain/messages.ts): the cap reads "999+".
 */
export async function countPendingMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('contactMessages')
        .select('id')
        .where('handledAt', 'is', null)
        .limit(PENDING_COUNT_CAP)
        .as('pending'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** What marking did: written, already in that state (someone else was first), or no such message. */
export type MarkOutcome = 'changed' | 'unchanged' | 'not-found';

/**
 * 'Marcar como atendido' (`handled`) records who and when; 'Marcar como pendiente' clears both. The
 * audit event is recorded in the same transaction, and only when something changed, so two staff
 * members marking the same message at once leave one event and the first one's name.
 */
export async function setMessageHandled(
  db: Db,
  input: { id: number; handled: boolean; actor: AuditActor },
  now: Date = new Date(),
): Promise<MarkOutcome> {
  const { id, handled, actor } = input;
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('contactMessages')
      .set(
        handled
          ? {
              handledAt: now.toISOString(),
              handledById: actor.actorId ?? null,
              handledByEmail: actor.actorEmail,
            }
          : { handledAt: null, handledById: null, handledByEmail: null },
      )
      .where('id', '=', id)
      .where('handledAt', handled ? 'is' : 'is not', null)
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!updated) {
      const exists = await trx
        .selectFrom('contactMessages')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      return exists ? 'unchanged' : 'not-found';
    }
    await recordLiveEvent(trx, { kind: 'message.changed', messageId: id }, now);
    await recordEvent(
      trx,
      {
        ...actor,
        action: handled ? 'contact.handled' : 'contact.pending',
        subject: id,
        detail: updated.email,
      },
      now,
    );
    return 'changed';
  });
}

export const MESSAGES_CSV_MAX_ROWS = 100_000;
const CSV_BATCH = 1000;

/** The filtered inbox (every page) as CSV (see csv.ts: formula-safe, BOM), dates in Santo Domingo time. */
export async function exportMessagesCsv(db: Db, view: Filters): Promise<string> {
  const header = [
    inSantoDomingoTime('Fecha'),
    'Nombre',
    'Correo',
    'Mensaje',
    'Estado',
    'Atendido por',
    inSantoDomingoTime('Atendido el'),
  ];
  const lines: string[][] = [];
  // Keyset batches: each starts after the last row of the one before, in list order.
  let last: { createdAt: string; id: number } | undefined;
  while (lines.length < MESSAGES_CSV_MAX_ROWS) {
    const after = last;
    let query = filtered(db, view);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('createdAt', '<', after.createdAt),
          eb.and([eb('createdAt', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    const rows = (await query.limit(Math.min(CSV_BATCH, MESSAGES_CSV_MAX_ROWS - lines.length)).execute()).map(
      toInboxMessage,
    );
    for (const message of rows)
      lines.push([
        formatStaffDateTime(message.createdAt),
        message.name,
        message.email,
        message.message,
        message.handledAt ? 'Atendido' : 'Pendiente',
        message.handledByEmail ?? '',
        message.handledAt ? formatStaffDateTime(message.handledAt) : '',
      ]);
    if (rows.length < CSV_BATCH) break;
    last = rows.at(-1)!;
  }
  return toCsv(header, lines);
}

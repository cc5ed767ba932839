/**
 * The what's-new announcements (issue 23, migration 0036, docs/decisions/0019): the one writer of
 * `announcements` and the reads of 'Anuncios' and the site's toast. Like the articles, every write
 * checks the version (optimistic concurrency), bumps it, records an audit event and says the content
 * changed once committed (the toast of every page follows: src/server/content/public-pages.ts).
 *
 * Order: the newest start day first, then the newest announcement; the toast shows the first active
 * one (start ≤ today ≤ end, in Santo Domingo) the visitor has not seen.
 */
import { randomBytes } from 'node:crypto';
import {
  announcementKeyFrom,
  isAnnouncementActive,
  type AnnouncementInput,
} from '../../domain/site-content.ts';
import { santoDomingoToday } from '../../domain/forms/meeting.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { Selectable } from 'kysely';
import type { AnnouncementsTable } from '../db/index.ts';
import { contentChanged } from './changes.ts';
import { versionedWrite, type VersionedOutcome, type VersionedWrite } from './versioned.ts';

export interface Announcement extends AnnouncementInput {
  id: number;
  /** The toast's key: `whatsnew-{key}` in local storage. */
  key: string;
  version: number;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

export type { VersionedOutcome } from './versioned.ts';

function toAnnouncement(row: Selectable<AnnouncementsTable>): Announcement {
  return {
    id: Number(row.id),
    key: row.key,
    title: row.title,
    message: row.message,
    link: row.link,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    version: Number(row.version),
    createdAt: String(row.createdAt),
    createdBy: row.createdBy,
    updatedAt: String(row.updatedAt),
    updatedBy: row.updatedBy,
  };
}

/** Every announcement, in the toast's order (newest start day first, then the newest). */
export async function listAnnouncements(db: Db): Promise<Announcement[]> {
  const rows = await db
    .selectFrom('announcements')
    .selectAll()
    .orderBy('startsOn', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toAnnouncement);
}

export async function announcementById(db: Db, id: number): Promise<Announcement | null> {
  const row = await db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAnnouncement(row) : null;
}

/** The announcements the toast offers at `now`, in order. */
export async function activeAnnouncements(db: Db, now: Date = new Date()): Promise<Announcement[]> {
  const today = santoDomingoToday(now);
  return (await listAnnouncements(db)).filter((item) => isAnnouncementActive(item, today));
}

const fieldsRow = (input: AnnouncementInput) => ({
  title: input.title,
  message: input.message,
  link: input.link,
  startsOn: input.startsOn,
  endsOn: input.endsOn,
});

export async function createAnnouncement(
  db: Db,
  input: AnnouncementInput,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<Announcement> {
  const at = now.toISOString();
  const created = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('announcements')
      .values({
        ...fieldsRow(input),
        key: announcementKeyFrom(input.title, randomBytes(4).toString('hex')),
        createdAt: at,
        createdBy: actor?.actorEmail ?? null,
        updatedAt: at,
        updatedBy: actor?.actorEmail ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (actor)
      await recordEvent(
        trx,
        { ...actor, action: 'announcement.created', subject: Number(row.id), detail: input.title },
        now,
      );
    return toAnnouncement(row);
  });
  contentChanged(db);
  return created;
}

/** One versioned write of an announcement (src/server/content/versioned.ts). */
function versioned(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date,
  write: VersionedWrite<Announcement>['write'],
): Promise<VersionedOutcome<Announcement>> {
  return versionedWrite(db, {
    table: 'announcements',
    id,
    version,
    actor,
    now,
    read: announcementById,
    write,
  });
}

export async function updateAnnouncement(
  db: Db,
  id: number,
  version: number,
  input: AnnouncementInput,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<Announcement>> {
  return versioned(db, id, version, actor, now, async (_current, trx) => {
    await trx.updateTable('announcements').set(fieldsRow(input)).where('id', '=', id).execute();
    return { action: 'announcement.edited', detail: input.title };
  });
}

/** Deletes an announcement seen at `version`; its key is never given again (keys carry a random tail). */
export async function deleteAnnouncement(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<VersionedOutcome<Announcement>> {
  return versioned(db, id, version, actor, now, async (current, trx) => {
    await trx.deleteFrom('announcements').where('id', '=', id).execute();
    return { action: 'announcement.deleted', detail: current.title };
  });
}

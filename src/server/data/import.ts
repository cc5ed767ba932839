/**
 * The import of a JSON file of records (`npm run data -- import`): our exports (export.ts, any
 * version), and the original site's document exports (spec §3). This module reads the file, orders
 * the areas and reports; each area reads its records and stores them through its own module (issue
 * 40, 'One writer per table'): channels/ (inbound messages, with their originals), incidents/,
 * clients/ (with the meetings module's writer), contact/, replies/, content/ (articles with their
 * images, announcements, logos, the content imports done), by the shared reading of
 * src/server/data-records.ts.
 *
 * Accepted shapes: incidents and clients shaped as documents, as an array or as a map of document id →
 * document, under `incidencias`/`clientes` (or our own `incidents`/`clients`/`contactMessages`); every
 * field added since the first version is optional. Timestamps may be ISO strings, epoch milliseconds or
 * timestamp objects (`{seconds, nanoseconds}` / `{_seconds, _nanoseconds}`). An import is idempotent
 * (a record already present is skipped, with everything nested in it) and atomic (one transaction).
 *
 * A record that cannot be stored as the site would have stored it is refused, with its reason
 * (`onRefused`), and the others imported: a missing or malformed number, date or state, and any
 * e-mail that fails the rule of the form that creates such a record (a client's, the contact form's;
 * staff members' e-mails the client form's rule): a field holding `a@x, b@y` would otherwise later
 * send the welcome mail and invitations to both.
 *
 * Staff accounts are not moved: each staff e-mail is mapped to the target database's account with
 * that e-mail; with none, the e-mail is kept with no id (`''` where the column cannot be null: the
 * assigner of an assignment, a meeting's organiser), and an incident assigned to such an account is
 * imported unassigned, its assignments still listed in its timeline.
 */
import { staffIds } from '../auth/index.ts';
import { inboundImport } from '../channels/index.ts';
import { importClient } from '../clients/index.ts';
import { importContactMessage } from '../contact/index.ts';
import {
  clientLogosInOrder,
  importAnnouncement,
  importArticle,
  importArticleImages,
  importClientLogo,
  importContentImports,
} from '../content/index.ts';
import { asList, asRecord, blobsOf, RecordRefused, text, type Outcome } from '../data-records.ts';
import type { Db } from '../db/index.ts';
import { importIncident } from '../incidents/index.ts';
import { importSavedReply } from '../replies/index.ts';

export { toIsoTime } from '../data-records.ts';

type Kind =
  | 'incidents'
  | 'clients'
  | 'contactMessages'
  | 'inboundMessages'
  | 'savedReplies'
  | 'articles'
  | 'announcements'
  | 'clientLogos';
export type ImportSummary = Record<Kind, { imported: number; skipped: number; invalid: number }>;

/** A record left out (counted as invalid): which one, and why, in Spanish. */
export interface ImportRefusal {
  kind: Kind;
  /** What names the record: an incident's number, a client's company, a message's e-mail and time. */
  record: string;
  reason: string;
}

export interface ImportOptions {
  /** Called after each record; throwing aborts the import (nothing is kept). */
  onProgress?: (done: number, total: number) => void;
  /** Called for each record refused, with its reason. */
  onRefused?: (refusal: ImportRefusal) => void;
}

/**
 * The areas in the order they are imported: the inbound messages before the incidents, whose entries
 * name them; the article images (not counted, see {@link importData}) before the articles.
 */
const ORDER = [
  'inboundMessages',
  'incidents',
  'clients',
  'contactMessages',
  'savedReplies',
  'articles',
  'announcements',
  'clientLogos',
] as const satisfies readonly Kind[];

/** Splits a parsed JSON file into the kinds of records it holds. */
export function collectRecords(input: unknown): Record<Kind, unknown[]> {
  const records: Record<Kind, unknown[]> = {
    incidents: [],
    clients: [],
    contactMessages: [],
    inboundMessages: [],
    savedReplies: [],
    articles: [],
    announcements: [],
    clientLogos: [],
  };
  const classify = (item: unknown) => {
    if (!item || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    if ('numeroIncidencia' in record) records.incidents.push(record);
    else if ('razonSocial' in record) records.clients.push(record);
    else if ('message' in record && 'email' in record) records.contactMessages.push(record);
  };
  if (Array.isArray(input)) {
    input.forEach(classify);
    return records;
  }
  if (input && typeof input === 'object') {
    const root = input as Record<string, unknown>;
    records.incidents.push(...asList(root.incidencias ?? root.incidents));
    records.clients.push(...asList(root.clientes ?? root.clients));
    records.contactMessages.push(...asList(root.contactMessages ?? root.contact_messages ?? root.mensajes));
    records.inboundMessages.push(...asList(root.inboundMessages));
    records.savedReplies.push(...asList(root.savedReplies));
    records.articles.push(...asList(root.articles));
    records.announcements.push(...asList(root.announcements));
    records.clientLogos.push(...asList(root.clientLogos));
  }
  return records;
}

/** What names a record in a refusal. */
function recordName(kind: Kind, record: Record<string, unknown>): string {
  if (kind === 'incidents') return text(record.numeroIncidencia, 40) || '(sin número)';
  if (kind === 'clients') return text(record.razonSocial, 200) || '(sin razón social)';
  if (kind === 'inboundMessages') return text(record.dedupKey, 200) || '(sin clave)';
  if (kind === 'savedReplies') return text(record.title, 200) || '(sin título)';
  if (kind === 'articles') return `${text(record.kind, 20)}/${text(record.slug, 200)}`;
  if (kind === 'announcements') return text(record.key, 200) || '(sin clave)';
  if (kind === 'clientLogos') return text(record.name, 200) || '(sin nombre)';
  return `${text(record.email, 200) || '(sin correo)'} ${text(record.createdAt ?? record.fecha, 40)}`.trim();
}

/** Imports every record of a parsed file in one transaction and reports what happened to each kind. */
export async function importData(
  db: Db,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const records = collectRecords(input);
  // In the order the summary has always been printed in (scripts/data.ts).
  const summary = Object.fromEntries(
    Object.keys(records).map((kind) => [kind, { imported: 0, skipped: 0, invalid: 0 }]),
  ) as ImportSummary;
  const total = Object.values(records).reduce((sum, list) => sum + list.length, 0);
  const root =
    input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const blobs = blobsOf(input);
  let done = 0;
  await db.transaction().execute(async (trx) => {
    const staff = await staffIds(trx);
    const inbound = inboundImport();
    // The images before the articles that name them (an image left out is no record of its own).
    const images = await importArticleImages(trx, root.articleImages, blobs);
    const importers: Record<Kind, (record: Record<string, unknown>) => Promise<Outcome>> = {
      inboundMessages: (record) => inbound.importRecord(trx, record),
      incidents: (record) => importIncident(trx, record, { staff, blobs, inboundId: inbound.idOf }),
      clients: (record) => importClient(trx, record, staff),
      contactMessages: (record) => importContactMessage(trx, record, staff),
      savedReplies: (record) => importSavedReply(trx, record),
      articles: (record) => importArticle(trx, record, images),
      announcements: (record) => importAnnouncement(trx, record),
      clientLogos: (record) => importClientLogo(trx, record),
    };
    for (const kind of ORDER) {
      const list = kind === 'clientLogos' ? clientLogosInOrder(records[kind]) : records[kind];
      for (const raw of list) {
        const record = asRecord(raw);
        try {
          summary[kind][await importers[kind](record)] += 1;
        } catch (error) {
          if (!(error instanceof RecordRefused)) throw error;
          summary[kind].invalid += 1;
          options.onRefused?.({ kind, record: recordName(kind, record), reason: error.message });
        }
        done += 1;
        options.onProgress?.(done, total);
      }
    }
    await importContentImports(trx, root.contentImports);
    // Each message imported now joins the incident it names, when that incident is here.
    await inbound.linkToIncidents(trx);
  });
  return summary;
}

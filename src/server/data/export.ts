/**
 * The export of the site's records (`npm run data -- export`, the file import.ts reads back). Each area
 * reads its own rows through its own module (issue 40, 'One writer per table'); this module only
 * orders the areas and lays out the file, whose shape is kept from one version to the next
 * (tests/integration/data-round-trip.test.ts):
 * - incidents with their history, conversation (replies, internal notes, the visitor's answers),
 *   assignments, follow-up tokens and the mails we sent about them (incidents/);
 * - clients with their timeline and meetings (clients/); contact messages with their handled state
 *   (contact/); the messages that came in, with their outcome and original while kept (channels/);
 * - the team's saved replies (replies/); the articles of 'Contenido' with their old addresses, their
 *   images, the announcements, the logos and the one-time content imports done (content/);
 * - the files' bytes (`blobs`: the incidents' files, attachments/, then the articles' images);
 * and a CSV summary of each kind.
 *
 * Staff accounts (Better Auth's tables) are not moved: a column that holds a staff account's id is
 * exported as that account's e-mail (auth/ names them; import.ts maps each back to the target's account).
 */
import { CLIENT_FIELDS } from '../../domain/forms/client.ts';
import { exportAttachmentBlobs } from '../attachments/index.ts';
import { staffEmails } from '../auth/index.ts';
import { exportInboundMessages, type ExportedInboundMessage } from '../channels/index.ts';
import { exportClients, type ExportedClient } from '../clients/index.ts';
import { exportContactMessages, type ExportedContactMessage } from '../contact/index.ts';
import {
  exportAnnouncements,
  exportArticleImages,
  exportArticles,
  exportClientLogos,
  exportContentImports,
  type ExportedAnnouncement,
  type ExportedArticle,
  type ExportedArticleImage,
  type ExportedClientLogo,
} from '../content/index.ts';
import { toCsv } from '../csv.ts';
import type { ExportedBlobs } from '../data-records.ts';
import type { Db } from '../db/index.ts';
import { exportIncidents, historyText, type ExportedIncident } from '../incidents/index.ts';
import { exportSavedReplies, type ExportedSavedReply } from '../replies/index.ts';

export interface ExportData {
  exportedAt: string;
  /** The bytes of every exported file, base64, by SHA-256 (issue 21); absent when there are none. */
  blobs?: ExportedBlobs;
  incidents: ExportedIncident[];
  clients: ExportedClient[];
  contactMessages: ExportedContactMessage[];
  /** Files exported before issue 21's panel have none. */
  inboundMessages?: ExportedInboundMessage[];
  /** Files exported before issue 22's saved replies have none. */
  savedReplies?: ExportedSavedReply[];
  /** Files exported before issue 23's articles have none. */
  articles?: ExportedArticle[];
  /** Images uploaded into articles' texts (migration 0037), their files' bytes in `blobs`; files exported before them have none. */
  articleImages?: ExportedArticleImage[];
  /** Files exported before issue 23's announcements and logos have none. */
  announcements?: ExportedAnnouncement[];
  clientLogos?: ExportedClientLogo[];
  /** The one-time imports done (`content_imports`), so the target never imports the Markdown articles again. */
  contentImports?: string[];
}

/** Reads every record, with everything nested in it, in a stable order. */
export async function exportData(db: Db): Promise<ExportData> {
  const staff = await staffEmails(db);
  // The messages first: the incidents' entries name them by their keys.
  const inbound = await exportInboundMessages(db);
  const incidents = await exportIncidents(db, staff, inbound.keys);
  // The files' bytes in this order: the incidents' files, then the articles' images.
  const blobs: ExportedBlobs = {};
  await exportAttachmentBlobs(db, blobs);
  const articleImages = await exportArticleImages(db, blobs);
  return {
    exportedAt: new Date().toISOString(),
    ...(Object.keys(blobs).length ? { blobs } : {}),
    incidents,
    clients: await exportClients(db, staff),
    contactMessages: await exportContactMessages(db, staff),
    inboundMessages: inbound.messages,
    savedReplies: await exportSavedReplies(db),
    articles: await exportArticles(db),
    ...(articleImages.length ? { articleImages } : {}),
    announcements: await exportAnnouncements(db),
    clientLogos: await exportClientLogos(db),
    contentImports: await exportContentImports(db),
  };
}

/** The form's fields, then what the site adds. */
const CLIENT_COLUMNS: Array<Exclude<keyof ExportedClient, 'archivedAt' | 'events' | 'meetings'>> = [
  ...CLIENT_FIELDS.map((field) => field.name),
  'estadoProyecto',
  'fechaRegistro',
  'correoBienvenidaEnviado',
];

/** The three CSV files of an export. */
export function exportCsv(data: ExportData): Record<'incidents' | 'clients' | 'contact_messages', string> {
  return {
    incidents: toCsv(
      ['numeroIncidencia', 'fecha', 'estado', 'nombre', 'telefono', 'email', 'rnc', 'problema', 'historial'],
      data.incidents.map((i) => [
        i.numeroIncidencia,
        i.fecha,
        i.estado,
        i.nombre,
        i.telefono,
        i.email,
        i.rnc,
        i.problema,
        historyText(i.historial),
      ]),
    ),
    clients: toCsv(
      CLIENT_COLUMNS,
      data.clients.map((c) => CLIENT_COLUMNS.map((column) => c[column])),
    ),
    contact_messages: toCsv(
      ['createdAt', 'name', 'email', 'message'],
      data.contactMessages.map((m) => [m.createdAt, m.name, m.email, m.message]),
    ),
  };
}

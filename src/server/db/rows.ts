/**
 * The one writer of each table that has search columns: every insert goes through it, so the
 * `*_norm` copies the staff search compares are always derived the same way. The schema makes those
 * columns required, so an insert built without these functions does not compile.
 */
import type { Insertable } from 'kysely';
import { normalizeForSearch } from '../text.ts';
import type {
  ClientsTable,
  ContactMessagesTable,
  IncidentsTable,
  NewClient,
  NewContactMessage,
  NewIncident,
} from './schema.ts';

type IncidentSearchColumns = 'nombreNorm' | 'rncNorm';
type ClientSearchColumns = 'razonSocialNorm' | 'emailNorm' | 'rncNorm';

/** The search columns of an incident, from its name and RNC (also for updates that change them). */
export function incidentSearchColumns(fields: {
  nombre: string;
  rnc: string;
}): Pick<NewIncident, IncidentSearchColumns> {
  return { nombreNorm: normalizeForSearch(fields.nombre), rncNorm: normalizeForSearch(fields.rnc) };
}

/**
 * An `incidents` row ready to insert: the given fields plus their search columns; its last activity
 * is its creation unless given (an import carries its history). An import or a seed that carries a
 * history gives `resolvedAt` too (`firstResolvedAt` of src/domain/dashboard.ts).
 */
export function incidentRow(
  fields: Omit<Insertable<IncidentsTable>, IncidentSearchColumns | 'lastActivityAt'> & {
    lastActivityAt?: string;
  },
): NewIncident {
  return {
    ...fields,
    lastActivityAt: fields.lastActivityAt ?? fields.fecha,
    ...incidentSearchColumns(fields),
  };
}

function clientSearchColumns(fields: {
  razonSocial: string;
  email: string;
  rnc: string;
}): Pick<NewClient, ClientSearchColumns> {
  return {
    razonSocialNorm: normalizeForSearch(fields.razonSocial),
    emailNorm: normalizeForSearch(fields.email),
    rncNorm: normalizeForSearch(fields.rnc),
  };
}

/** A `clients` row ready to insert: the given fields plus their search columns. */
export function clientRow(fields: Omit<Insertable<ClientsTable>, ClientSearchColumns>): NewClient {
  return { ...fields, ...clientSearchColumns(fields) };
}

/** The editable fields of a client ('Editar'). */
export type ClientEditableFields = Pick<
  NewClient,
  'razonSocial' | 'nombreRepresentante' | 'telefono' | 'email' | 'rnc' | 'tipoProyecto'
>;

/** The `set` of an edit: every editable field plus the search columns derived from them, as at insert. */
export function clientEditRow(
  fields: ClientEditableFields,
): ClientEditableFields & Pick<NewClient, ClientSearchColumns> {
  return { ...fields, ...clientSearchColumns(fields) };
}

type ContactMessageSearchColumns = 'nameNorm' | 'emailNorm' | 'messageNorm';

/** A `contact_messages` row ready to insert: the given fields plus the inbox's search columns. */
export function contactMessageRow(
  fields: Omit<Insertable<ContactMessagesTable>, ContactMessageSearchColumns>,
): NewContactMessage {
  return {
    ...fields,
    nameNorm: normalizeForSearch(fields.name),
    emailNorm: normalizeForSearch(fields.email),
    messageNorm: normalizeForSearch(fields.message),
  };
}

/**
 * The database as TypeScript sees it. Property names are the spec's names in camelCase; Kysely's
 * `CamelCasePlugin` maps them to the snake_case columns of the migrations. Times are ISO 8601 UTC
 * strings in both engines (PostgreSQL `timestamptz` values are parsed back to ISO strings).
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export type IncidentState = 'Registrado' | 'En Proceso' | 'Resuelto';

export interface IncidentsTable {
  id: Generated<number>;
  numeroIncidencia: string;
  problema: string;
  nombre: string;
  telefono: string;
  email: string;
  rnc: string;
  estado: IncidentState;
  fecha: string;
  /** `normalizeForSearch(nombre)`, kept by the incidents module for the staff filters. */
  nombreNorm: Generated<string>;
  rncNorm: Generated<string>;
}

export interface IncidentEventsTable {
  id: Generated<number>;
  incidentId: number;
  estado: IncidentState;
  fecha: string;
  /** E-mail of the staff member who made the change; null for the creation entry. */
  actor: string | null;
}

export interface ClientsTable {
  id: Generated<number>;
  razonSocial: string;
  nombreRepresentante: string;
  telefono: string;
  email: string;
  rnc: string;
  tipoProyecto: string;
  estadoProyecto: Generated<string>;
  fechaRegistro: string;
  correoBienvenidaEnviado: Generated<boolean>;
  /** `normalizeForSearch(...)` copies for the client search. */
  razonSocialNorm: Generated<string>;
  emailNorm: Generated<string>;
  rncNorm: Generated<string>;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  createdAt: string;
}

export type MailStatus = 'pending' | 'sent' | 'failed';

export interface MailOutboxTable {
  id: Generated<number>;
  /** What caused the mail, e.g. `incident.created`; for logs and tests. */
  kind: string;
  toAddress: string;
  replyTo: string | null;
  subject: string;
  textBody: string;
  htmlBody: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface PageViewsTable {
  /** Calendar day in Santo Domingo, `yyyy-mm-dd` (see src/server/analytics). */
  day: string;
  path: string;
  count: number;
}

export interface Database {
  incidents: IncidentsTable;
  incidentEvents: IncidentEventsTable;
  clients: ClientsTable;
  contactMessages: ContactMessagesTable;
  mailOutbox: MailOutboxTable;
  pageViews: PageViewsTable;
}

export type Incident = Selectable<IncidentsTable>;
export type NewIncident = Insertable<IncidentsTable>;
export type IncidentEvent = Selectable<IncidentEventsTable>;
export type Client = Selectable<ClientsTable>;
export type ContactMessage = Selectable<ContactMessagesTable>;
export type OutboxMail = Selectable<MailOutboxTable>;

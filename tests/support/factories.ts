/**
 * Valid records with overrides, inserted through the site's own writers (src/server/db/rows.ts), for
 * the tests, the benchmarks and any seed script. Runs under Node's type stripping too (scripts):
 * `.ts` import extensions and erasable syntax only.
 */
import { firstResolvedAt } from '../../src/domain/dashboard.ts';
import { INITIAL_STATE, type HistoryEntry } from '../../src/domain/incidents.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import type { Db } from '../../src/server/db/index.ts';
import { clientRow, contactMessageRow, incidentRow } from '../../src/server/db/rows.ts';
import type { NewClient, NewContactMessage, NewIncident } from '../../src/server/db/schema.ts';

type IncidentInput = Omit<NewIncident, 'nombreNorm' | 'rncNorm'>;
type ClientInput = Omit<NewClient, 'razonSocialNorm' | 'emailNorm' | 'rncNorm'>;
type ContactMessageInput = {
  name: string;
  email: string;
  message: string;
  createdAt: string;
  handledAt?: string | null;
  handledById?: string | null;
  handledByEmail?: string | null;
};

let sequence = 0;
/** A number of its own for each built incident (1000…9999, then it wraps: pass one when building more). */
const nextSuffix = () => 1000 + (sequence++ % 9000);

/** An incident row ready to insert: a valid incident of 1 January 2025, with these overrides. */
export function buildIncident(overrides: Partial<IncidentInput> = {}): NewIncident {
  return incidentRow({
    numeroIncidencia: `INC-20250101-${nextSuffix()}`,
    problema: 'El sistema no imprime las facturas.',
    nombre: 'José Pérez',
    telefono: '809-555-0142',
    email: 'jose@cliente.example',
    rnc: '101850043',
    estado: INITIAL_STATE,
    fecha: '2025-01-01T10:00:00.000Z',
    ...overrides,
  });
}

/**
 * Inserts incidents with their history, 500 rows per statement. Each gets `history` when given, else
 * its creation entry (the initial state, its date, no actor), as the site writes it. Returns the ids
 * in the order given.
 */
export async function insertIncidents(
  db: Db,
  list: ReadonlyArray<Partial<IncidentInput>>,
  history?: (row: NewIncident) => HistoryEntry[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < list.length; start += 500) {
    const rows = list.slice(start, start + 500).map(buildIncident);
    const histories = rows.map((row) =>
      history ? history(row) : [{ estado: INITIAL_STATE, fecha: row.fecha, actor: null }],
    );
    // As the site keeps it: the first time the history reaches 'Resuelto' (migration 0019).
    for (const [index, row] of rows.entries()) row.resolvedAt ??= firstResolvedAt(histories[index]!);
    const inserted = await db.insertInto('incidents').values(rows).returning('id').execute();
    const events = inserted.flatMap(({ id }, index) =>
      histories[index]!.map((entry) => ({ incidentId: id, ...entry })),
    );
    if (events.length) await db.insertInto('incidentEvents').values(events).execute();
    ids.push(...inserted.map(({ id }) => id));
  }
  return ids;
}

/** Inserts one incident with its history (see {@link insertIncidents}); returns its id and row. */
export async function insertIncident(
  db: Db,
  overrides: Partial<IncidentInput> = {},
  history?: HistoryEntry[],
): Promise<NewIncident & { id: number }> {
  const row = buildIncident(overrides);
  const [id] = await insertIncidents(db, [row], history ? () => history : undefined);
  return { ...row, id: id! };
}

/** What the add-client form sends for Farmacia Los Álamos (the input of `createClient`). */
export const ALAMOS_FORM = {
  razonSocial: 'Farmacia Los Álamos SRL',
  nombreRepresentante: 'Carmen Rodríguez',
  telefono: '8095550142',
  email: 'carmen@losalamos.com.do',
  rnc: '101850043',
  tipoProyecto: 'Implementación AdmCloud',
} as const;

/** A client row ready to insert: a valid pending client, with these overrides. */
export function buildClient(overrides: Partial<ClientInput> = {}): NewClient {
  return clientRow({
    razonSocial: 'Colmado La Esquina SRL',
    nombreRepresentante: 'Ana Pérez',
    telefono: '+1 809-555-0100',
    email: 'ana@example.com',
    rnc: '101010101',
    tipoProyecto: 'Implementación AdmCloud',
    fechaRegistro: '2025-01-01T10:00:00.000Z',
    ...overrides,
  });
}

export async function insertClient(
  db: Db,
  overrides: Partial<ClientInput> = {},
): Promise<NewClient & { id: number }> {
  const row = buildClient(overrides);
  const { id } = await db.insertInto('clients').values(row).returning('id').executeTakeFirstOrThrow();
  return { ...row, id };
}

/** A contact message row ready to insert, as the contact form stores it (search columns derived), with these overrides. */
export function buildContactMessage(overrides: Partial<ContactMessageInput> = {}): NewContactMessage {
  return contactMessageRow({
    name: 'Pedro Núñez',
    email: 'pedro@cliente.example',
    message: 'Necesito una cotización.',
    createdAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  });
}

export async function insertContactMessage(
  db: Db,
  overrides: Partial<ContactMessageInput> = {},
): Promise<NewContactMessage & { id: number }> {
  const row = buildContactMessage(overrides);
  const { id } = await db.insertInto('contactMessages').values(row).returning('id').executeTakeFirstOrThrow();
  return { ...row, id };
}

/** A staff account as Better Auth stores it (no password: enough for what names and assigns it). */
export async function insertStaffAccount(
  db: Db,
  account: { id: string; email: string; name?: string },
): Promise<void> {
  const now = new Date('2025-01-01T00:00:00.000Z').toISOString();
  await db
    .withoutPlugins()
    .insertInto('user')
    .values({
      id: account.id,
      name: account.name ?? '',
      email: account.email,
      emailVerified: isPostgres(db) ? true : 1,
      image: null,
      createdAt: now,
      updatedAt: now,
      mustChangePassword: isPostgres(db) ? false : 0,
      twoFactorEnabled: null,
    })
    .execute();
}

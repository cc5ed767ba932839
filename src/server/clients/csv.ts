/**
 * Clients as CSV (issue 12): 'Exportar CSV' of the filtered list, and 'Importar CSV' of a file with
 * the add-client columns under the same headers as the export. The import is two steps: a preview
 * (each row valid, with its errors, or a duplicate; the RNC/cédula warnings shown but never refusing)
 * and a confirmation that validates the same file again and writes all its valid rows in one
 * transaction, or nothing. Parsed with `csv-parse`, written with `csv-stringify` (src/server/csv.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import {
  CLIENT_FIELDS,
  clientInputSchema,
  isProjectState,
  PROJECT_STATES,
  type ClientFieldName,
  type ClientInput,
  type ClientRecord,
  type ProjectState,
} from '../../domain/forms/client.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { getAuthSecret } from '../auth/index.ts';
import { toCsv, unFormulaSafe } from '../csv.ts';
import { isPostgres } from '../db/index.ts';
import type { Db } from '../db/index.ts';
import { clientRow } from '../db/index.ts';
import { clientWarnings, normalizeDominicanPhone } from './records.ts';
import { rncKey, rncKeySql } from './match.ts';
import { formatNumber } from '../../domain/numbers.ts';
import { formatStaffDateTime, inSantoDomingoTime } from '../../domain/dates.ts';

/** The largest file 'Importar CSV' takes. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** The most data rows (header excluded) one import takes. */
export const IMPORT_MAX_ROWS = 5000;

const STATE_HEADER = 'Estado del proyecto';
const YES = 'sí';
const NO = 'no';

/** The export's columns, in order: the add-client fields under their form labels, then the rest. */
export const CLIENT_CSV_HEADER: readonly string[] = [
  'Id',
  ...CLIENT_FIELDS.map((field) => field.label),
  STATE_HEADER,
  inSantoDomingoTime('Fecha de registro'),
  'Correo de bienvenida enviado',
  'Archivado',
  inSantoDomingoTime('Fecha de archivo'),
];

/** The CSV of these clients (formula-safe, BOM, CRLF), its dates in Santo Domingo time as the header says. */
export function clientsCsv(clients: readonly ClientRecord[]): string {
  return toCsv(
    [...CLIENT_CSV_HEADER],
    clients.map((client) => [
      client.id,
      ...CLIENT_FIELDS.map((field) => client[field.name]),
      client.estadoProyecto,
      formatStaffDateTime(client.fechaRegistro),
      client.correoBienvenidaEnviado ? YES : NO,
      client.archivedAt ? YES : NO,
      client.archivedAt ? formatStaffDateTime(client.archivedAt) : '',
    ]),
  );
}

/** The whole file was refused: nothing to preview. */
export class ImportRefusal extends Error {
  override name = 'ImportRefusal';
}

export type ImportRowStatus = 'valid' | 'invalid' | 'duplicate';

/** One data row of the file as the preview shows it. */
export interface ImportRow {
  /** The line of the file it starts on (the header is line 1). */
  line: number;
  status: ImportRowStatus;
  /** The values read (trimmed, the export's formula guard undone). */
  values: Record<ClientFieldName, string>;
  estadoProyecto: ProjectState;
  /** Spanish, one per problem: why the row is not imported. */
  errors: string[];
  /** Spanish: RNC/cédula warnings; the row is still imported. */
  warnings: string[];
}

export interface ImportPreview {
  rows: ImportRow[];
  valid: number;
  invalid: number;
  duplicate: number;
}

const formatCount = (count: number) => formatNumber(count);

/** Refuses a file over the size limit (before reading it). */
export function checkImportSize(bytes: number): void {
  if (bytes > IMPORT_MAX_BYTES)
    throw new ImportRefusal(
      `El archivo pesa ${formatNumber(bytes / 1024 / 1024, 1)} MB y el máximo es 2 MB. Divídelo en varios archivos e impórtalos uno a uno.`,
    );
}

/** The records of the file: the header row first. Refuses what is not a readable CSV within the limits. */
function readRecords(bytes: Uint8Array): string[][] {
  checkImportSize(bytes.byteLength);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportRefusal(
      'El archivo no está en UTF-8. En Excel, guárdalo como «CSV UTF-8 (delimitado por comas)» y vuelve a subirlo.',
    );
  }
  // Excel in Spanish writes ';' between cells: the header line tells which one this file uses.
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      // One past the limit is enough to know it is too long.
      to: IMPORT_MAX_ROWS + 2,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ImportRefusal(
      `No se pudo leer el archivo como CSV${line ? ` (cerca de la línea ${line})` : ''}: revisa que las comillas estén cerradas.`,
    );
  }
  if (records.length === 0) throw new ImportRefusal('El archivo está vacío.');
  if (records.length - 1 > IMPORT_MAX_ROWS)
    throw new ImportRefusal(
      `El archivo tiene más de ${formatCount(IMPORT_MAX_ROWS)} filas, el máximo por importación. Divídelo en varios archivos e impórtalos uno a uno.`,
    );
  if (records.length === 1)
    throw new ImportRefusal('El archivo no tiene filas de clientes, solo los encabezados.');
  return records;
}

const RNC_LABEL = CLIENT_FIELDS.find((field) => field.name === 'rnc')!.label;
/** A row whose RNC is only dashes, dots or spaces. */
export const RNC_WITHOUT_NUMBER = 'no tiene ningún número. Escribe el RNC o la cédula del cliente.';

/** Reads and checks every row, without the duplicate check against the database. */
function readRows(bytes: Uint8Array): Array<Omit<ImportRow, 'status'> & { key: string }> {
  const [header, ...data] = readRecords(bytes);
  const names = header!.map((cell) => cell.trim());
  const columnOf = new Map<string, number>();
  names.forEach((name, index) => {
    if (!columnOf.has(name)) columnOf.set(name, index);
  });
  const missing = CLIENT_FIELDS.filter((field) => !columnOf.has(field.label)).map(
    (field) => `«${field.label}»`,
  );
  if (missing.length)
    throw new ImportRefusal(
      `${missing.length === 1 ? 'Falta la columna' : 'Faltan las columnas'} ${missing.join(', ')}. Usa los encabezados del archivo que da «Exportar CSV».`,
    );
  const stateColumn = columnOf.get(STATE_HEADER);
  // csv-parse counts lines; data rows are read in file order, so each row's line is tracked from the
  // number of line breaks inside it (a quoted cell may span several lines).
  let line = 1 + lineBreaks(header!);
  return data.map((record) => {
    line += 1;
    const startLine = line;
    line += lineBreaks(record);
    const cell = (index: number | undefined) =>
      index === undefined ? '' : unFormulaSafe((record[index] ?? '').trim()).trim();
    const values = Object.fromEntries(
      CLIENT_FIELDS.map((field) => [field.name, cell(columnOf.get(field.label))]),
    ) as Record<ClientFieldName, string>;
    const errors: string[] = [];
    const parsed = clientInputSchema.safeParse(values);
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = CLIENT_FIELDS.find((item) => item.name === issue.path[0]);
        const message = `${field?.label ?? 'Fila'}: ${issue.message}`;
        if (!seen.has(message)) errors.push(message);
        seen.add(message);
      }
    }
    const key = rncKey(values.rnc);
    // An RNC of only dashes, dots or spaces matches nothing, so it could never be found a duplicate.
    if (values.rnc && !key) errors.push(`${RNC_LABEL}: ${RNC_WITHOUT_NUMBER}`);
    const rawState = cell(stateColumn).toLowerCase();
    let estadoProyecto: ProjectState = 'pendiente';
    if (rawState) {
      if (isProjectState(rawState)) estadoProyecto = rawState;
      else
        errors.push(`${STATE_HEADER}: «${rawState}» no es un estado válido (${PROJECT_STATES.join(', ')}).`);
    }
    return {
      line: startLine,
      values,
      estadoProyecto,
      errors,
      warnings: values.rnc && key ? clientWarnings(values) : [],
      key,
    };
  });
}

function lineBreaks(record: string[]): number {
  let count = 0;
  for (const cell of record) count += cell.match(/\r\n|\n|\r/g)?.length ?? 0;
  return count;
}

/** Which of these RNC keys already belong to a client: key → the first such client's name. */
async function existingKeys(db: Db, keys: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const unique = [...new Set(keys.filter(Boolean))];
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    const rows = await db
      .selectFrom('clients')
      .select([rncKeySql.as('key'), 'razonSocial'])
      .where(rncKeySql, 'in', chunk)
      .orderBy('id')
      .execute();
    for (const row of rows) if (!found.has(row.key)) found.set(row.key, row.razonSocial);
  }
  return found;
}

/** The preview: every row with its status, errors and warnings (`db` may be a transaction). */
export async function previewImport(db: Db, bytes: Uint8Array): Promise<ImportPreview> {
  const read = readRows(bytes);
  const existing = await existingKeys(
    db,
    read.map((row) => row.key),
  );
  const firstLineOf = new Map<string, number>();
  const rows: ImportRow[] = read.map(({ key, ...row }) => {
    if (row.errors.length) return { ...row, status: 'invalid' };
    const client = existing.get(key);
    if (client !== undefined)
      return {
        ...row,
        status: 'duplicate',
        errors: [`Ya existe un cliente con este RNC: «${client}». Se omite.`],
      };
    const first = firstLineOf.get(key);
    if (first !== undefined)
      return {
        ...row,
        status: 'duplicate',
        errors: [`Repite el RNC de la fila de la línea ${first} de este archivo. Se omite.`],
      };
    firstLineOf.set(key, row.line);
    return { ...row, status: 'valid' };
  });
  const count = (status: ImportRowStatus) => rows.filter((row) => row.status === status).length;
  return { rows, valid: count('valid'), invalid: count('invalid'), duplicate: count('duplicate') };
}

export interface ImportOutcome {
  imported: number;
  skipped: number;
}

const BATCH = 400;
/** The advisory lock of client imports on PostgreSQL (any constant no other code uses). */
const IMPORT_LOCK_KEY = 1_214_012;

/**
 * Writes the valid rows of the file, validated again inside the transaction (a client added since
 * the preview makes its row a duplicate): all of them, each with its 'created' timeline entry, and one
 * audit event; or nothing at all if anything fails.
 */
export async function importClients(
  db: Db,
  bytes: Uint8Array,
  actor?: AuditActor,
  now: Date = new Date(),
  /** The confirmation's nonce ({@link uploadNonce}): used once, in this transaction, or refused. */
  nonce?: string,
): Promise<ImportOutcome> {
  return db.transaction().execute(async (trx) => {
    // Two imports at once (a double submit) must not both find a row new: PostgreSQL serialises them
    // on a lock held until commit; SQLite already runs one write transaction at a time.
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`.execute(trx);
    if (nonce !== undefined) await useNonce(trx, nonce, now.getTime());
    const preview = await previewImport(trx, bytes);
    const valid = preview.rows.filter((row) => row.status === 'valid');
    const skipped = preview.rows.length - valid.length;
    if (valid.length === 0) return { imported: 0, skipped };
    const at = now.toISOString();
    for (let start = 0; start < valid.length; start += BATCH) {
      const batch = valid.slice(start, start + BATCH);
      const inserted = await trx
        .insertInto('clients')
        .values(
          batch.map(({ values, estadoProyecto }) =>
            clientRow({
              ...(values satisfies ClientInput),
              telefono: normalizeDominicanPhone(values.telefono),
              email: values.email.toLowerCase(),
              estadoProyecto,
              fechaRegistro: at,
              correoBienvenidaEnviado: false,
            }),
          ),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('clientEvents')
        .values(
          inserted.map(({ id }) => ({
            clientId: id,
            kind: 'created' as const,
            actorId: actor?.actorId ?? null,
            actorEmail: actor?.actorEmail ?? null,
            detail: IMPORTED_DETAIL,
            createdAt: at,
          })),
        )
        .execute();
    }
    if (actor)
      await recordEvent(
        trx,
        {
          ...actor,
          action: 'client.imported',
          subject: null,
          detail: `${valid.length} clientes importados; ${skipped} filas omitidas`,
        },
        now,
      );
    return { imported: valid.length, skipped };
  });
}

/** The `detail` of the 'created' timeline entry of an imported client. */
export const IMPORTED_DETAIL = 'csv';

/*
 * Between the preview and the confirmation the file travels back in the confirmation form (base64 in
 * a hidden field of a multipart form), with a MAC binding it to the staff member and the time of the
 * preview: the server keeps nothing, any process with the same AUTH_SECRET can confirm, and what is
 * written is exactly the file that was previewed, validated again.
 */
const PURPOSE = 'vertice:client-import:v2:';
/** A preview older than this must be uploaded again. */
export const IMPORT_PREVIEW_MAX_AGE_MS = 60 * 60 * 1000;

function uploadMac(secret: string, staffId: string, time: string, nonce: string, bytes: Uint8Array): string {
  const digest = createHash('sha256').update(bytes).digest('base64url');
  return createHmac('sha256', secret)
    .update(`${PURPOSE}${staffId}:${time}:${nonce}:${digest}`)
    .digest('base64url');
}

/**
 * The signature the confirmation form carries with the file: `<ms>.<nonce>.<mac>`. The nonce, fresh
 * for each preview, makes the confirmation single-use ({@link importClients} records it).
 */
export function signUpload(
  staffId: string,
  bytes: Uint8Array,
  now = Date.now(),
  secret = getAuthSecret(),
): string {
  const time = String(Math.trunc(now));
  const nonce = randomBytes(16).toString('base64url');
  return `${time}.${nonce}.${uploadMac(secret, staffId, time, nonce, bytes)}`;
}

const SIGNATURE = /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** The nonce of a signature made by {@link signUpload} (check it with {@link verifyUpload} first). */
export function uploadNonce(signature: unknown): string | undefined {
  return typeof signature === 'string' ? SIGNATURE.exec(signature)?.[2] : undefined;
}

/** What a confirmation posted again is told: the import it confirms was already made. */
export const IMPORT_ALREADY_DONE =
  'Esta vista previa ya se importó. Para importar de nuevo, vuelve a subir el archivo.';

/** Records the confirmation's nonce, refusing one already used; forgets those past their hour. */
async function useNonce(trx: Db, nonce: string, now: number): Promise<void> {
  await trx
    .deleteFrom('clientImportNonces')
    .where('usedAt', '<', now - IMPORT_PREVIEW_MAX_AGE_MS - 60_000)
    .execute();
  const used = await trx
    .selectFrom('clientImportNonces')
    .select('nonce')
    .where('nonce', '=', nonce)
    .executeTakeFirst();
  if (used) throw new ImportRefusal(IMPORT_ALREADY_DONE);
  await trx.insertInto('clientImportNonces').values({ nonce, usedAt: now }).execute();
}

/** True when `signature` was made by {@link signUpload} for this staff member and file, within the hour. */
export function verifyUpload(
  staffId: string,
  bytes: Uint8Array,
  signature: unknown,
  now = Date.now(),
  secret = getAuthSecret(),
): boolean {
  if (typeof signature !== 'string') return false;
  const match = SIGNATURE.exec(signature);
  if (!match) return false;
  const time = Number(match[1]);
  if (time > now + 60_000 || now - time > IMPORT_PREVIEW_MAX_AGE_MS) return false;
  const expected = Buffer.from(uploadMac(secret, staffId, match[1]!, match[2]!, bytes));
  const given = Buffer.from(match[3]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

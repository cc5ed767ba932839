/**
 * Clients of the consultancy, as the staff manage them: list with search, creation (normalised
 * phone, non-blocking RNC/cédula check; the action checks the form with src/domain/forms/client.ts)
 * and the welcome-mail flag.
 */
import { sql, type SqlBool } from 'kysely';
import { stdnum } from 'stdnum';
import type { ClientInput, ClientRecord } from '../../domain/forms/client.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { clientRow } from '../db/rows.ts';
import type { Client } from '../db/schema.ts';
import { normalizeForSearch } from '../text.ts';

const DO_AREA_CODES = ['809', '829', '849'];

/**
 * `+1 809-555-0142` when the number is a Dominican one written any usual way (10 digits, or 11 with
 * the leading 1); anything else is kept as typed, since the spec sets no format.
 */
export function normalizeDominicanPhone(raw: string): string {
  const trimmed = raw.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length === 10 && DO_AREA_CODES.includes(digits.slice(0, 3)) && /^[\d\s()+.-]+$/.test(trimmed)) {
    return `+1 ${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  }
  return trimmed;
}

/**
 * A warning (never a refusal) when the tax id is neither a valid RNC (9 digits, check digit) nor a
 * valid cédula (11 digits, Luhn, with the known legacy exceptions) — per python-stdnum's rules.
 */
export function taxIdWarning(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  const validators = stdnum['DO'];
  if (digits.length === 9 && validators?.['rnc']) {
    return validators['rnc'].validate(raw).isValid
      ? null
      : 'El RNC no pasa la verificación del dígito verificador; revíselo.';
  }
  if (digits.length === 11 && validators?.['cedula']) {
    return validators['cedula'].validate(raw).isValid
      ? null
      : 'La cédula no pasa la verificación del dígito verificador; revísela.';
  }
  return 'El RNC debe tener 9 dígitos (o 11 si es una cédula); revíselo.';
}

export async function createClient(
  db: Db,
  input: ClientInput,
  now: Date = new Date(),
  /** Who added it and from where: an audit event is recorded in the same transaction. */
  audit?: AuditActor,
): Promise<{ client: ClientRecord; warnings: string[] }> {
  const telefono = normalizeDominicanPhone(input.telefono);
  const email = input.email.toLowerCase();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('clients')
      .values(
        clientRow({
          razonSocial: input.razonSocial,
          nombreRepresentante: input.nombreRepresentante,
          telefono,
          email,
          rnc: input.rnc,
          tipoProyecto: input.tipoProyecto,
          estadoProyecto: 'pendiente',
          fechaRegistro: now.toISOString(),
          correoBienvenidaEnviado: false,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    if (audit)
      await recordEvent(
        trx,
        { ...audit, action: 'client.created', subject: inserted.id, detail: inserted.razonSocial },
        now,
      );
    return inserted;
  });
  const warning = taxIdWarning(input.rnc);
  return { client: toView(row), warnings: warning ? [warning] : [] };
}

function toView({ razonSocialNorm: _a, emailNorm: _b, rncNorm: _c, ...client }: Client): ClientRecord {
  // SQLite hands booleans back as 0/1.
  return { ...client, correoBienvenidaEnviado: Boolean(client.correoBienvenidaEnviado) };
}

export const CLIENT_LIST_LIMIT = 500;

/** Newest first; `search` matches razonSocial, email or RNC (substring, case and accents ignored). */
export async function listClients(db: Db, search?: string): Promise<ClientRecord[]> {
  let query = db.selectFrom('clients').selectAll();
  const term = search ? normalizeForSearch(search).slice(0, 100) : '';
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const like = (column: string) => sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
    query = query.where((eb) => eb.or([like('razonSocialNorm'), like('emailNorm'), like('rncNorm')]));
  }
  const rows = await query
    .orderBy('fechaRegistro', 'desc')
    .orderBy('id', 'desc')
    .limit(CLIENT_LIST_LIMIT)
    .execute();
  return rows.map(toView);
}

export async function getClient(db: Db, id: number): Promise<ClientRecord | null> {
  const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toView(row) : null;
}

export async function markWelcomeSent(db: Db, id: number, audit?: AuditActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('clients').set({ correoBienvenidaEnviado: true }).where('id', '=', id).execute();
    if (audit) await recordEvent(trx, { ...audit, action: 'client.welcome', subject: id });
  });
}

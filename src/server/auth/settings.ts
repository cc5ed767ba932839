/**
 * What a staff member does to their own account at /admin/configuracion: change the password (the
 * rules of strength.ts, then Better Auth checks the current one and stores the new hash; every other
 * session ends and a notice is queued to the account's address), list their sessions and end them.
 */
import { APIError } from 'better-auth/api';
import { UAParser } from 'ua-parser-js';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { getConfig } from '../config.ts';
import { getDb, type Db } from '../db/index.ts';
import { clearHits, reserveHit } from '../limits/index.ts';
import { getLogger } from '../log.ts';
import { enqueueMail } from '../mail/index.ts';
import { mailBrand } from '../mail/index.ts';
import { passwordChangedMail } from '../mail/index.ts';
import { setMustChangePassword } from './accounts.ts';
import { removeFirstPasswordOf } from './first-password.ts';
import { getAuth, withClientIp, type StaffAuth, type StaffMember } from './auth.ts';
import { normalStaffName } from '../staff-names.ts';
import { MAX_PASSWORD_LENGTH, PASSWORD_PROBLEM_MESSAGES, passwordProblem } from './strength.ts';

/** The password form's fields, by name, with their labels. */
export const PASSWORD_FIELDS = {
  actual: 'Contraseña actual',
  nueva: 'Nueva contraseña',
  repeticion: 'Repite la nueva contraseña',
} as const;
export type PasswordField = keyof typeof PASSWORD_FIELDS;
export type PasswordErrors = Partial<Record<PasswordField, string>>;

/** Password changes an account may attempt per window (a wrong current password counts). */
export const CHANGE_MAX = 10;
export const CHANGE_WINDOW_MS = 15 * 60 * 1000;

export const PASSWORD_MESSAGES = {
  currentMissing: 'Escribe tu contraseña actual.',
  currentWrong: 'La contraseña actual no es correcta.',
  repeatMissing: 'Repite la nueva contraseña.',
  repeatDiffers: 'Las dos contraseñas nuevas no coinciden.',
  limited: 'Demasiados intentos de cambio de contraseña. Espera unos minutos e inténtalo de nuevo.',
  failed: 'No se pudo cambiar la contraseña. Inténtalo de nuevo.',
} as const;

export interface PasswordChangeInput {
  actual: string;
  nueva: string;
  repeticion: string;
}

export interface PasswordChangeContext {
  staff: StaffMember;
  /** The request's headers (its session cookie). */
  headers: Headers;
  ip: string;
  /** The client network (src/server/http/client-network.ts), for the audit log. */
  network: string;
  userAgent: string | null;
}

export interface SettingsDeps {
  auth: StaffAuth;
  db: Db;
  now?: () => Date;
}

const defaults = (): SettingsDeps => ({ auth: getAuth(), db: getDb() });

/** Better Auth's tables have camelCase names, reached without our CamelCasePlugin. */
const authTables = (db: Db) => db.withoutPlugins();

/** Browser and system of a user agent, in words: 'Chrome 131 en Windows 10'. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Dispositivo desconocido';
  const { browser, os } = UAParser(userAgent);
  const browserName = [browser.name, browser.major].filter(Boolean).join(' ');
  const system = [os.name, os.version].filter(Boolean).join(' ');
  if (!browserName && !system) return 'Dispositivo desconocido';
  if (!system) return browserName;
  if (!browserName) return system;
  return `${browserName} en ${system}`;
}

/**
 * Checks and makes the change. Nothing changes unless every field is right; the refusal names each
 * field's problem.
 */
export async function changeStaffPassword(
  input: PasswordChangeInput,
  context: PasswordChangeContext,
  deps: SettingsDeps = defaults(),
): Promise<{ ok: true } | { ok: false; errors: PasswordErrors }> {
  const { staff } = context;
  const log = getLogger();
  const errors: PasswordErrors = {};
  const actual = input.actual.slice(0, MAX_PASSWORD_LENGTH + 1);
  const nueva = input.nueva.slice(0, MAX_PASSWORD_LENGTH + 1);
  if (!actual) errors.actual = PASSWORD_MESSAGES.currentMissing;
  const problem = passwordProblem({ password: nueva, current: actual, name: staff.name, email: staff.email });
  if (problem) errors.nueva = PASSWORD_PROBLEM_MESSAGES[problem];
  if (!input.repeticion) errors.repeticion = PASSWORD_MESSAGES.repeatMissing;
  else if (input.repeticion !== input.nueva) errors.repeticion = PASSWORD_MESSAGES.repeatDiffers;
  if (Object.keys(errors).length) return { ok: false, errors };

  // Only a check of the current password is counted, so a typo in the new one costs no attempt.
  const limitKey = `password-change:${staff.id}`;
  if ((await reserveHit(deps.db, limitKey, CHANGE_WINDOW_MS)) > CHANGE_MAX) {
    log.warn(
      { event: 'password.change-limited', email: staff.email, ip: context.ip },
      'password change refused: limit reached',
    );
    return { ok: false, errors: { actual: PASSWORD_MESSAGES.limited } };
  }
  try {
    await deps.auth.api.changePassword({
      body: { currentPassword: actual, newPassword: nueva, revokeOtherSessions: false },
      headers: withClientIp(context.headers, context.ip),
    });
  } catch (error) {
    if (error instanceof APIError && error.body?.code === 'INVALID_PASSWORD') {
      log.info(
        { event: 'password.change-failed', email: staff.email, ip: context.ip },
        'password change refused: wrong current password',
      );
      return { ok: false, errors: { actual: PASSWORD_MESSAGES.currentWrong } };
    }
    throw error;
  }
  await clearHits(deps.db, limitKey);

  const changedAt = (deps.now?.() ?? new Date()).toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // Every other session of the account ends; this one stays (Better Auth's own option would replace it).
    await trx
      .withoutPlugins()
      .deleteFrom('session')
      .where('userId', '=', staff.id)
      .where('token', '!=', staff.sessionToken)
      .execute();
    const mail = passwordChangedMail(mailBrand(getConfig()), {
      email: staff.email,
      name: staff.name,
      changedAt,
      ip: context.ip,
      device: describeDevice(context.userAgent),
    });
    await enqueueMail(trx, { kind: 'staff.password-changed', ...mail });
    await recordEvent(trx, {
      action: 'password.changed',
      actorId: staff.id,
      actorEmail: staff.email,
      network: context.network,
    });
    // A generated password is gone: the account is no longer sent to this section.
    await setMustChangePassword(staff.id, false, trx);
  });
  removeFirstPasswordOf(getConfig().FIRST_PASSWORD_FILE, staff.email);
  log.info({ event: 'password.changed', email: staff.email, ip: context.ip }, 'staff password changed');
  return { ok: true };
}

export interface StaffSession {
  id: string;
  device: string;
  ip: string | null;
  /** ISO times. */
  startedAt: string;
  lastUsedAt: string;
  current: boolean;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The account's live sessions, this one first, then by last use. */
export async function listStaffSessions(
  staff: StaffMember,
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<StaffSession[]> {
  const rows = await authTables(db)
    .selectFrom('session')
    .select(['id', 'token', 'userAgent', 'ipAddress', 'createdAt', 'updatedAt', 'expiresAt'])
    .where('userId', '=', staff.id)
    .execute();
  const idleMs = getConfig().STAFF_SESSION_IDLE_MINUTES * 60_000;
  return rows
    .filter(
      (row) =>
        new Date(row.expiresAt).getTime() > now.getTime() &&
        now.getTime() - new Date(row.updatedAt).getTime() <= idleMs,
    )
    .map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      ip: row.ipAddress,
      startedAt: iso(row.createdAt),
      lastUsedAt: iso(row.updatedAt),
      current: row.token === staff.sessionToken,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt));
}

/** Ends one other session of the account; false when there was none by that id (or it is this one). */
export async function endStaffSession(
  staff: StaffMember,
  sessionId: string,
  network: string,
  db: Db = getDb(),
): Promise<boolean> {
  const ended = await db.transaction().execute(async (trx) => {
    const result = await authTables(trx)
      .deleteFrom('session')
      .where('id', '=', sessionId)
      .where('userId', '=', staff.id)
      .where('token', '!=', staff.sessionToken)
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows) > 0;
    if (deleted)
      await recordEvent(trx, {
        action: 'session.ended',
        actorId: staff.id,
        actorEmail: staff.email,
        network,
        detail: 'Una sesión',
      });
    return deleted;
  });
  if (ended)
    getLogger().info({ event: 'session.ended', email: staff.email }, 'staff ended one of their sessions');
  return ended;
}

/** Ends every session of the account but this one; how many ended. */
export async function endOtherStaffSessions(
  staff: StaffMember,
  network: string,
  db: Db = getDb(),
): Promise<number> {
  const ended = await db.transaction().execute(async (trx) => {
    const result = await authTables(trx)
      .deleteFrom('session')
      .where('userId', '=', staff.id)
      .where('token', '!=', staff.sessionToken)
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    if (deleted > 0)
      await recordEvent(trx, {
        action: 'session.ended',
        actorId: staff.id,
        actorEmail: staff.email,
        network,
        detail: `Las demás sesiones (${deleted})`,
      });
    return deleted;
  });
  getLogger().info(
    { event: 'session.ended-others', email: staff.email, count: ended },
    'staff ended their other sessions',
  );
  return ended;
}

/** Saves the account's name ('Nombre' in Configuración); the caller checked it with {@link staffNameProblem}. */
export async function renameStaff(
  db: Db,
  input: { staffId: string; name: string; audit?: AuditActor },
  now: Date = new Date(),
): Promise<void> {
  const name = normalStaffName(input.name);
  await db.transaction().execute(async (trx) => {
    await trx.withoutPlugins().updateTable('user').set({ name }).where('id', '=', input.staffId).execute();
    if (input.audit) await recordEvent(trx, { ...input.audit, action: 'account.renamed', detail: name }, now);
  });
}

/**
 * 'Verificación en dos pasos' (TOTP, RFC 6238) of a staff account, on Better Auth's `twoFactor`
 * plugin (its endpoints called in-process):
 *
 * - enrolment: the current password starts it (the plugin stores a new secret, not yet confirmed);
 *   the page shows the secret as a QR code (SVG, drawn here) and as text; a current code confirms it,
 *   which turns it on and gives the 10 one-time recovery codes, shown once;
 * - turning it off needs the current password and a current code;
 * - sign-in with it on: see login.ts (`verifyStaffCode`).
 *
 * The password and code checks here are limited per account ({@link CHANGE_MAX} per
 * {@link CHANGE_WINDOW_MS}, like a password change).
 *
 * Turning it on or off ends the account's other sessions, as a password change does (issue 24,
 * finding 4): a session signed in with the password alone does not outlive the change.
 *
 * A TOTP code is accepted once (finding 5; RFC 6238 §5.2). Better Auth's check takes any code of the
 * current 30-second time step or one either side and keeps no record, so the step of every accepted
 * code is stored per account (`totp_last_steps`, migration 0021) and a code at or before it is
 * refused: at sign-in ({@link checkTotpCode} before the plugin's check, {@link spendTotpStep} after it,
 * atomically, so two sign-ins racing with one code get one session) and when turning it off.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import { loadQRCode } from '../on-first-use.ts';
import { recordEvent } from '../audit/index.ts';
import { getDb, type Db } from '../db/index.ts';
import { clearHits, reserveHit } from '../limits/index.ts';
import { getLogger } from '../log.ts';
import { getAuth, withClientIp, type StaffAuth, type StaffMember } from './auth.ts';
import { MAX_PASSWORD_LENGTH } from './strength.ts';

export const CHANGE_MAX = 10;
export const CHANGE_WINDOW_MS = 15 * 60 * 1000;
/** How many recovery codes an enrolment gives (Better Auth's default). */
export const RECOVERY_CODE_COUNT = 10;

export const TWO_STEP_MESSAGES = {
  passwordMissing: 'Escribe tu contraseña actual.',
  passwordWrong: 'La contraseña actual no es correcta.',
  codeMissing: 'Escribe el código de 6 cifras de tu aplicación.',
  codeWrong: 'El código no es correcto o ya caducó. Escribe el que muestra ahora tu aplicación.',
  limited: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
  notPending: 'No hay una activación en curso. Empieza de nuevo con tu contraseña.',
  codeUsed: 'Ese código ya se usó. Espera a que tu aplicación muestre el siguiente y escríbelo.',
  alreadyOn: 'La verificación en dos pasos ya está activada.',
  failed: 'No se pudo completar. Inténtalo de nuevo.',
} as const;

export type TwoStepField = 'actual' | 'codigo';
export type TwoStepErrors = Partial<Record<TwoStepField | 'form', string>>;

export interface TwoStepContext {
  staff: StaffMember;
  /** The request's headers (its session cookie). */
  headers: Headers;
  ip: string;
  network: string;
}

export interface TwoStepDeps {
  auth: StaffAuth;
  db: Db;
}

const defaults = (): TwoStepDeps => ({ auth: getAuth(), db: getDb() });

/** What the page shows to add the account to an authenticator app. */
export interface Enrolment {
  /** The otpauth:// URI. */
  uri: string;
  /** The same secret, base32, in groups of four for typing by hand. */
  secret: string;
  /** The URI as a QR code, an SVG document (drawn on the server). */
  qrSvg: string;
}

/** A six-digit TOTP code, with any spaces removed; null when it is not one. */
export function totpCode(value: string): string | null {
  const code = value.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

async function enrolmentOf(uri: string): Promise<Enrolment> {
  const raw = new URL(uri).searchParams.get('secret') ?? '';
  const QRCode = await loadQRCode();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, secret: raw.replace(/(.{4})(?=.)/g, '$1 '), qrSvg };
}

/** RFC 4648 base32, without padding (how authenticator apps take a secret). */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 (no padding) to bytes: how Better Auth keeps a secret imported from elsewhere. */
function fromBase32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toUpperCase().replace(/=+$/, '')) {
    const index = alphabet.indexOf(char);
    if (index < 0) continue;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

const errorCode = (error: unknown) =>
  error instanceof APIError ? (error.body?.code as string | undefined) : undefined;

/** TOTP's time step (RFC 6238, Better Auth's default): 30 seconds. */
export const TOTP_STEP_MS = 30_000;

/** The time step an instant (epoch ms) falls in. */
export const timeStep = (at: number): number => Math.floor(at / TOTP_STEP_MS);

/** RFC 4226 HOTP, 6 digits, of `key` at `counter` (what Better Auth computes for each step). */
function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The account's TOTP key, as Better Auth uses it (the decrypted secret's bytes), or null without one. */
async function totpKey(userId: string, deps: TwoStepDeps): Promise<Buffer | null> {
  const row = await deps.db
    .withoutPlugins()
    .selectFrom('twoFactor')
    .select('secret')
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const context = await deps.auth.$context;
  const secret = await symmetricDecrypt({ key: context.secretConfig, data: row.secret });
  // Better Auth stores a secret imported from another provider as `base32:<secret>`; its own as text.
  return secret.startsWith('base32:')
    ? fromBase32(secret.slice('base32:'.length))
    : Buffer.from(secret, 'utf8');
}

/**
 * The time step of this code among those Better Auth accepts at `now` (the current one and one either
 * side; the latest when two match), or null when it is none of them (a wrong code).
 */
async function codeStep(
  userId: string,
  code: string,
  deps: TwoStepDeps,
  now = Date.now(),
): Promise<number | null> {
  const key = await totpKey(userId, deps);
  if (!key) return null;
  const current = timeStep(now);
  for (const step of [current + 1, current, current - 1]) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** The last time step whose code the account had accepted, or null. */
async function lastStep(db: Db, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('totpLastSteps')
    .select('step')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.step) : null;
}

/**
 * Before a code is checked: its time step (null for a wrong code: the plugin refuses it), and whether
 * it is at or before the account's last accepted one (`used`: refuse it without asking the plugin).
 */
export async function checkTotpCode(
  userId: string,
  code: string,
  deps: TwoStepDeps = defaults(),
): Promise<{ step: number | null; used: boolean }> {
  const step = await codeStep(userId, code, deps);
  if (step === null) return { step, used: false };
  const last = await lastStep(deps.db, userId);
  return { step, used: last !== null && step <= last };
}

/**
 * Once the plugin accepted a code: records its step as the account's last one, in one statement that
 * only moves it forward. False when this step (or a later one) was recorded meanwhile, by another
 * request with the same code: that one won, this one must not count.
 */
export async function spendTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .insertInto('totpLastSteps')
    .values({ userId, step })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ step }).where('totpLastSteps.step', '<', step))
    .returning('step')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends every session of the account but `keep` (the one Better Auth just put in place of the request's). */
async function endOtherSessions(db: Db, userId: string, keep: string): Promise<void> {
  await db
    .withoutPlugins()
    .deleteFrom('session')
    .where('userId', '=', userId)
    .where('token', '!=', keep)
    .execute();
}

/** Reserves one password-or-code check of the account; false when over the limit. */
async function reserveCheck(db: Db, staff: StaffMember): Promise<boolean> {
  return (await reserveHit(db, `two-step:${staff.id}`, CHANGE_WINDOW_MS)) <= CHANGE_MAX;
}

/** New cookies of a Better Auth answer, for the page's response (a replaced session). */
function cookiesOf(headers: Headers | null | undefined): string[] {
  return headers?.getSetCookie() ?? [];
}

/** The session token a set of new cookies carries (Better Auth replaces the session when the flag changes). */
export function sessionTokenOf(setCookies: string[]): string | undefined {
  for (const cookie of setCookies) {
    const match = /^(?:__Secure-)?vertice\.session_token=([^;]+)/.exec(cookie);
    if (match?.[1]) return decodeURIComponent(match[1]).split('.')[0];
  }
  return undefined;
}

/** Whether an account has two-step verification on (the `twoFactorEnabled` flag). */
export async function hasTwoStep(userId: string, db: Db = getDb()): Promise<boolean> {
  const row = await db
    .withoutPlugins()
    .selectFrom('user')
    .select('twoFactorEnabled')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.twoFactorEnabled);
}

/** Step 1: the current password starts an enrolment (a new secret, replacing any unconfirmed one). */
export async function startTwoStep(
  password: string,
  context: TwoStepContext,
  deps: TwoStepDeps = defaults(),
): Promise<{ ok: true; enrolment: Enrolment } | { ok: false; errors: TwoStepErrors }> {
  const { staff } = context;
  if (staff.twoStep) return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
  if (!password) return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordMissing } };
  if (!(await reserveCheck(deps.db, staff)))
    return { ok: false, errors: { actual: TWO_STEP_MESSAGES.limited } };
  try {
    const result = await deps.auth.api.enableTwoFactor({
      body: { password: password.slice(0, MAX_PASSWORD_LENGTH + 1), method: 'totp' },
      headers: withClientIp(context.headers, context.ip),
    });
    if (!('totpURI' in result) || !result.totpURI)
      return { ok: false, errors: { form: TWO_STEP_MESSAGES.failed } };
    return { ok: true, enrolment: await enrolmentOf(result.totpURI) };
  } catch (error) {
    if (errorCode(error) === 'INVALID_PASSWORD')
      return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordWrong } };
    if (errorCode(error) === 'TOTP_ALREADY_ENABLED')
      return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
    throw error;
  }
}

/** The unconfirmed enrolment of the account (to show again after a wrong code), or null. */
export async function pendingEnrolment(
  staff: StaffMember,
  deps: TwoStepDeps = defaults(),
): Promise<Enrolment | null> {
  if (staff.twoStep) return null;
  const row = await deps.db
    .withoutPlugins()
    .selectFrom('twoFactor')
    .select(['secret', 'verified'])
    .where('userId', '=', staff.id)
    .executeTakeFirst();
  if (!row || (row.verified !== false && row.verified !== 0)) return null;
  const context = await deps.auth.$context;
  const secret = await symmetricDecrypt({ key: context.secretConfig, data: row.secret });
  // The URI Better Auth gave at the start: its secret is the raw string, base32-encoded in the URI.
  const label = encodeURIComponent(`${context.appName}:${staff.email}`);
  const query = new URLSearchParams({
    secret: base32(new TextEncoder().encode(secret)),
    issuer: context.appName,
    digits: '6',
    period: '30',
  });
  return enrolmentOf(`otpauth://totp/${label}?${query}`);
}

/**
 * Step 2: a current code confirms the enrolment; two-step verification is on from then on, and every
 * other session of the account ends. Gives the recovery codes (to show once) and the cookies of the
 * session Better Auth puts in place of this one.
 */
export async function confirmTwoStep(
  code: string,
  context: TwoStepContext,
  deps: TwoStepDeps = defaults(),
): Promise<
  { ok: true; recoveryCodes: string[]; setCookies: string[] } | { ok: false; errors: TwoStepErrors }
> {
  const { staff } = context;
  // A confirmation posted again (a reload) must not show the recovery codes a second time.
  if (staff.twoStep) return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
  const totp = totpCode(code);
  if (!totp) return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeMissing } };
  if (!(await reserveCheck(deps.db, staff)))
    return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.limited } };
  // The step of the code (of the new secret) that confirms: it must not sign in afterwards.
  const step = await codeStep(staff.id, totp, deps);
  let setCookies: string[];
  try {
    const { headers } = await deps.auth.api.verifyTOTP({
      body: { code: totp },
      headers: withClientIp(context.headers, context.ip),
      returnHeaders: true,
    });
    setCookies = cookiesOf(headers);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'INVALID_CODE') return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeWrong } };
    if (code === 'TOTP_NOT_ENABLED') return { ok: false, errors: { form: TWO_STEP_MESSAGES.notPending } };
    throw error;
  }
  // A new secret: its step replaces whatever an earlier one left.
  if (step !== null)
    await deps.db
      .insertInto('totpLastSteps')
      .values({ userId: staff.id, step })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ step }))
      .execute();
  // Better Auth replaced this session; every other one (signed in with the password alone) ends.
  await endOtherSessions(deps.db, staff.id, sessionTokenOf(setCookies) ?? staff.sessionToken);
  await clearHits(deps.db, `two-step:${staff.id}`);
  const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId: staff.id } });
  await recordEvent(deps.db, {
    action: 'two-step.enabled',
    actorId: staff.id,
    actorEmail: staff.email,
    network: context.network,
  });
  getLogger().info(
    { event: 'two-step.enabled', email: staff.email, ip: context.ip },
    'staff two-step verification turned on',
  );
  return { ok: true, recoveryCodes: backupCodes, setCookies };
}

/** Turns two-step verification off: the current password and a current code, both right (a used code is refused). */
export async function disableTwoStep(
  input: { actual: string; codigo: string },
  context: TwoStepContext,
  deps: TwoStepDeps = defaults(),
): Promise<{ ok: true; setCookies: string[] } | { ok: false; errors: TwoStepErrors }> {
  const { staff } = context;
  const errors: TwoStepErrors = {};
  if (!input.actual) errors.actual = TWO_STEP_MESSAGES.passwordMissing;
  const totp = totpCode(input.codigo);
  if (!totp) errors.codigo = TWO_STEP_MESSAGES.codeMissing;
  if (Object.keys(errors).length || !totp) return { ok: false, errors };
  if (!(await reserveCheck(deps.db, staff)))
    return { ok: false, errors: { actual: TWO_STEP_MESSAGES.limited } };
  if ((await checkTotpCode(staff.id, totp, deps)).used)
    return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeUsed } };
  const headers = withClientIp(context.headers, context.ip);
  try {
    await deps.auth.api.verifyTOTP({ body: { code: totp }, headers });
  } catch (error) {
    if (errorCode(error) === 'INVALID_CODE')
      return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeWrong } };
    throw error;
  }
  let setCookies: string[];
  try {
    const result = await deps.auth.api.disableTwoFactor({
      body: { password: input.actual.slice(0, MAX_PASSWORD_LENGTH + 1) },
      headers,
      returnHeaders: true,
    });
    setCookies = cookiesOf(result.headers);
  } catch (error) {
    if (errorCode(error) === 'INVALID_PASSWORD')
      return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordWrong } };
    throw error;
  }
  // The secret is gone, and with it the meaning of its last step.
  await deps.db.deleteFrom('totpLastSteps').where('userId', '=', staff.id).execute();
  await endOtherSessions(deps.db, staff.id, sessionTokenOf(setCookies) ?? staff.sessionToken);
  await clearHits(deps.db, `two-step:${staff.id}`);
  await recordEvent(deps.db, {
    action: 'two-step.disabled',
    actorId: staff.id,
    actorEmail: staff.email,
    network: context.network,
  });
  getLogger().info(
    { event: 'two-step.disabled', email: staff.email, ip: context.ip },
    'staff two-step verification turned off',
  );
  return { ok: true, setCookies };
}

/** The recovery codes as the downloadable text file's contents. */
export function recoveryCodesFile(email: string, codes: string[], companyName: string): string {
  return [
    `${companyName} — códigos de recuperación`,
    `Cuenta: ${email}`,
    '',
    'Cada código sirve una sola vez, en lugar del código de la aplicación, al iniciar sesión.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The user id of a pending two-step sign-in, from Better Auth's signed `two_factor` cookie in these
 * request headers (null when missing, forged or expired), so its wrong codes count against the
 * account's limits before the plugin checks them.
 */
export async function pendingSignInUser(
  headers: Headers,
  auth: StaffAuth = getAuth(),
): Promise<{ id: string; email: string } | null> {
  const context = await auth.$context;
  const name = context.createAuthCookie('two_factor').name;
  const cookie = (headers.get('cookie') ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`));
  if (!cookie) return null;
  let value: string;
  try {
    value = decodeURIComponent(cookie.slice(name.length + 1));
  } catch {
    return null;
  }
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const identifier = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', context.secret).update(identifier).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const record = await context.internalAdapter.findVerificationValue(identifier);
  if (!record || new Date(record.expiresAt).getTime() <= Date.now()) return null;
  const user = await context.internalAdapter.findUserById(record.value);
  return user ? { id: user.id, email: user.email } : null;
}

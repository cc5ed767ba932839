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
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import QRCode from 'qrcode';
import { recordEvent } from '../audit/index.ts';
import { getDb, type Db } from '../db/index.ts';
import { clearHits, reserveHit } from '../limits/counters.ts';
import { getLogger } from '../log.ts';
import { getAuth, withClientIp, type StaffAuth, type StaffMember } from './index.ts';
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

const errorCode = (error: unknown) => (error instanceof APIError ? (error.body?.code as string | undefined) : undefined);

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
  const row = await db.withoutPlugins().selectFrom('user').select('twoFactorEnabled').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.twoFactorEnabled);
}

/** Step 1: the current password starts an enrolment (a new secret, replacing any unconfirmed one). */
export async function startTwoStep(password: string, context: TwoStepContext, deps: TwoStepDeps = defaults()): Promise<{ ok: true; enrolment: Enrolment } | { ok: false; errors: TwoStepErrors }> {
  const { staff } = context;
  if (staff.twoStep) return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
  if (!password) return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordMissing } };
  if (!(await reserveCheck(deps.db, staff))) return { ok: false, errors: { actual: TWO_STEP_MESSAGES.limited } };
  try {
    const result = await deps.auth.api.enableTwoFactor({
      body: { password: password.slice(0, MAX_PASSWORD_LENGTH + 1), method: 'totp' },
      headers: withClientIp(context.headers, context.ip),
    });
    if (!('totpURI' in result) || !result.totpURI) return { ok: false, errors: { form: TWO_STEP_MESSAGES.failed } };
    return { ok: true, enrolment: await enrolmentOf(result.totpURI) };
  } catch (error) {
    if (errorCode(error) === 'INVALID_PASSWORD') return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordWrong } };
    if (errorCode(error) === 'TOTP_ALREADY_ENABLED') return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
    throw error;
  }
}

/** The unconfirmed enrolment of the account (to show again after a wrong code), or null. */
export async function pendingEnrolment(staff: StaffMember, deps: TwoStepDeps = defaults()): Promise<Enrolment | null> {
  if (staff.twoStep) return null;
  const row = await deps.db.withoutPlugins().selectFrom('twoFactor').select(['secret', 'verified']).where('userId', '=', staff.id).executeTakeFirst();
  if (!row || (row.verified !== false && row.verified !== 0)) return null;
  const context = await deps.auth.$context;
  const secret = await symmetricDecrypt({ key: context.secretConfig, data: row.secret });
  // The URI Better Auth gave at the start: its secret is the raw string, base32-encoded in the URI.
  const label = encodeURIComponent(`${context.appName}:${staff.email}`);
  const query = new URLSearchParams({ secret: base32(new TextEncoder().encode(secret)), issuer: context.appName, digits: '6', period: '30' });
  return enrolmentOf(`otpauth://totp/${label}?${query}`);
}

/**
 * Step 2: a current code confirms the enrolment; two-step verification is on from then on. Gives the
 * recovery codes (to show once) and the cookies of the session Better Auth puts in place of this one.
 */
export async function confirmTwoStep(
  code: string,
  context: TwoStepContext,
  deps: TwoStepDeps = defaults(),
): Promise<{ ok: true; recoveryCodes: string[]; setCookies: string[] } | { ok: false; errors: TwoStepErrors }> {
  const { staff } = context;
  // A confirmation posted again (a reload) must not show the recovery codes a second time.
  if (staff.twoStep) return { ok: false, errors: { form: TWO_STEP_MESSAGES.alreadyOn } };
  const totp = totpCode(code);
  if (!totp) return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeMissing } };
  if (!(await reserveCheck(deps.db, staff))) return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.limited } };
  let setCookies: string[];
  try {
    const { headers } = await deps.auth.api.verifyTOTP({ body: { code: totp }, headers: withClientIp(context.headers, context.ip), returnHeaders: true });
    setCookies = cookiesOf(headers);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'INVALID_CODE') return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeWrong } };
    if (code === 'TOTP_NOT_ENABLED') return { ok: false, errors: { form: TWO_STEP_MESSAGES.notPending } };
    throw error;
  }
  await clearHits(deps.db, `two-step:${staff.id}`);
  const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId: staff.id } });
  await recordEvent(deps.db, { action: 'two-step.enabled', actorId: staff.id, actorEmail: staff.email, network: context.network });
  getLogger().info({ event: 'two-step.enabled', email: staff.email, ip: context.ip }, 'staff two-step verification turned on');
  return { ok: true, recoveryCodes: backupCodes, setCookies };
}

/** Turns two-step verification off: the current password and a current code, both right. */
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
  if (!(await reserveCheck(deps.db, staff))) return { ok: false, errors: { actual: TWO_STEP_MESSAGES.limited } };
  const headers = withClientIp(context.headers, context.ip);
  try {
    await deps.auth.api.verifyTOTP({ body: { code: totp }, headers });
  } catch (error) {
    if (errorCode(error) === 'INVALID_CODE') return { ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeWrong } };
    throw error;
  }
  let setCookies: string[];
  try {
    const result = await deps.auth.api.disableTwoFactor({ body: { password: input.actual.slice(0, MAX_PASSWORD_LENGTH + 1) }, headers, returnHeaders: true });
    setCookies = cookiesOf(result.headers);
  } catch (error) {
    if (errorCode(error) === 'INVALID_PASSWORD') return { ok: false, errors: { actual: TWO_STEP_MESSAGES.passwordWrong } };
    throw error;
  }
  await clearHits(deps.db, `two-step:${staff.id}`);
  await recordEvent(deps.db, { action: 'two-step.disabled', actorId: staff.id, actorEmail: staff.email, network: context.network });
  getLogger().info({ event: 'two-step.disabled', email: staff.email, ip: context.ip }, 'staff two-step verification turned off');
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
export async function pendingSignInUser(headers: Headers, auth: StaffAuth = getAuth()): Promise<{ id: string; email: string } | null> {
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

/**
 * Sign-in and sign-out of the staff area, on top of Better Auth's own endpoints (so its rate limiter,
 * password checks and session cookies apply) plus what it does not do: the ADMIN_EMAILS check with no
 * session left behind, and a per-account limit on failed attempts stored in the database.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { getConfig, type Config } from '../config.ts';
import { getDb, type Db } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, getAuth, isStaffEmail, type StaffAuth } from './index.ts';

export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_MAX_FAILURES = 8;

export type SignInOutcome =
  | { kind: 'ok'; email: string; setCookies: string[] }
  | { kind: 'invalid' }
  | { kind: 'forbidden' }
  | { kind: 'rate-limited' };

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
  userAgent?: string | null;
}

export interface LoginDeps {
  auth: StaffAuth;
  config: Config;
  db: Db;
}

const defaults = (): LoginDeps => ({ auth: getAuth(), config: getConfig(), db: getDb() });

const accountKey = (email: string) => `signin-account:${email}`;

/** True when this account has had too many failures lately (known and unknown e-mails alike). */
export async function isAccountLocked(db: Db, email: string, now = Date.now()): Promise<boolean> {
  // Better Auth's table: camelCase names in the database itself, so no CamelCasePlugin (see schema.ts).
  const row = await db
    .withoutPlugins()
    .selectFrom('rateLimit')
    .select(['count', 'lastRequest'])
    .where('key', '=', accountKey(email))
    .executeTakeFirst();
  if (!row) return false;
  return Number(row.count) >= ACCOUNT_MAX_FAILURES && now - Number(row.lastRequest) < ACCOUNT_WINDOW_MS;
}

export async function recordAccountFailure(db: Db, email: string, now = Date.now()): Promise<void> {
  const raw = db.withoutPlugins();
  // A failure after the window has passed starts a new count.
  await raw
    .insertInto('rateLimit')
    .values({ id: randomUUID(), key: accountKey(email), count: 1, lastRequest: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${now} - ${sql.ref('rateLimit.lastRequest')} >= ${ACCOUNT_WINDOW_MS} then 1 else ${sql.ref('rateLimit.count')} + 1 end`,
        lastRequest: now,
      }),
    )
    .execute();
}

export async function clearAccountFailures(db: Db, email: string): Promise<void> {
  await db.withoutPlugins().deleteFrom('rateLimit').where('key', '=', accountKey(email)).execute();
}

/** Signs a staff member in; the outcome tells the login page what to show. */
export async function signInStaff(input: SignInInput, deps: LoginDeps = defaults()): Promise<SignInOutcome> {
  const { auth, config, db } = deps;
  const log = getLogger();
  const email = input.email.trim().toLowerCase();
  // Sign-ins are logged with the e-mail and the IP, never the password or the session token.
  if (!email || !input.password) return { kind: 'invalid' };
  if (await isAccountLocked(db, email)) {
    log.warn({ event: 'signin.locked', email, ip: input.ip }, 'sign-in refused: account temporarily locked');
    return { kind: 'rate-limited' };
  }
  const origin = new URL(config.SITE_URL).origin;
  const headers = new Headers({ 'content-type': 'application/json', origin, [CLIENT_IP_HEADER]: input.ip });
  if (input.userAgent) headers.set('user-agent', input.userAgent);
  const response = await auth.handler(
    new Request(`${origin}${AUTH_BASE_PATH}/sign-in/email`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password: input.password, rememberMe: false }),
    }),
  );
  if (response.status === 429) {
    log.warn({ event: 'signin.rate-limited', email, ip: input.ip }, 'sign-in rate-limited');
    return { kind: 'rate-limited' };
  }
  if (!response.ok) {
    await recordAccountFailure(db, email);
    log.info({ event: 'signin.failed', email, ip: input.ip, status: response.status }, 'sign-in failed');
    return { kind: 'invalid' };
  }
  const body = (await response.json()) as { token?: string; user?: { email?: string } };
  if (!body.user?.email || !isStaffEmail(body.user.email, config)) {
    // A valid account that is not (or no longer) staff: end the session it was just given.
    if (body.token) await (await auth.$context).internalAdapter.deleteSession(body.token);
    log.warn({ event: 'signin.forbidden', email, ip: input.ip }, 'sign-in refused: not on ADMIN_EMAILS');
    return { kind: 'forbidden' };
  }
  await clearAccountFailures(db, email);
  log.info({ event: 'signin.ok', email, ip: input.ip }, 'staff signed in');
  return { kind: 'ok', email: body.user.email, setCookies: response.headers.getSetCookie() };
}

/** Ends the session of these request headers on the server; returns the cookie-clearing headers. */
export async function signOutStaff(headers: Headers, auth: StaffAuth = getAuth()): Promise<string[]> {
  const response = await auth.api.signOut({ headers, asResponse: true });
  return response.headers.getSetCookie();
}

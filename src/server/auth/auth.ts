/**
 * Staff sign-in: Better Auth (e-mail + password) on our own database connection.
 *
 * Four changes to its defaults, each covered by a test:
 * 1. the client IP comes from a header only our code sets (`CLIENT_IP_HEADER`, filled from the socket
 *    address or, under TRUST_PROXY, from the proxy's X-Forwarded-For entry) instead of whatever
 *    X-Forwarded-For a visitor sends;
 * 2. its rate limiter is on in every environment and stored in the database (shared by processes),
 *    except for sign-in, which our own per-network counters limit (login.ts);
 * 3. passwords are hashed with argon2id at OWASP's parameters (password.ts);
 * 4. public sign-up is off and a password reset revokes every session;
 * 5. two-step verification (TOTP, RFC 6238, with one-time recovery codes) through its `twoFactor`
 *    plugin, driven from /admin/configuracion and /admin-login (two-step.ts, login.ts), its lock of the
 *    code step after {@link TWO_STEP_LOCK} wrong codes set explicitly;
 * 6. a session lasts at most 12 hours from sign-in (never extended), and ends sooner when unused for
 *    STAFF_SESSION_IDLE_MINUTES: {@link requireStaff} keeps its last use in `updatedAt`.
 */
import { betterAuth } from 'better-auth';
import { twoFactor } from 'better-auth/plugins';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { getConfig, type Config } from '../config.ts';
import { getDbHandle, ping, type Db, type DbEngine } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { getAuthSecret } from '../secret.ts';

/** The one header Better Auth reads the client IP from; any value a visitor sends is replaced. */
export const CLIENT_IP_HEADER = 'x-vertice-client-ip';
/**
 * Better Auth's base path. Its endpoints are called in-process only (sign-in from /admin-login,
 * sign-out from /api/staff/logout): no route serves them over HTTP, so nobody can sign in past the
 * per-account limit and the ADMIN_EMAILS check, or reach its account-changing endpoints.
 */
export const AUTH_BASE_PATH = '/api/auth';
/** A staff session ends this long after sign-in, however much it is used. */
export const SESSION_MAX_SECONDS = 60 * 60 * 12;
/** The last use of a session is written at most this often (not on every request; more often only for an idle limit under 10 minutes). */
export const LAST_USE_WRITE_MS = 60_000;
/**
 * Better Auth's lock of an account's second step (issue 24, finding 9), kept on purpose and set here
 * rather than left to its defaults: after this many wrong codes in a row (app or recovery codes, any
 * network, any challenge) the sign-in code step refuses even the right code for this long. Our own
 * counters (login.ts) slow guesses from one network and then from many, but a distributed guesser
 * with the password gets about 40 codes an hour from each network it owns; this lock caps the account
 * at about 40 an hour in all. The price: whoever knows the password can keep the owner out of the
 * second step. The password step itself is never locked; a password reset (`npm run admin -- create`,
 * accounts.ts) lifts the lock at once.
 */
export const TWO_STEP_LOCK = { maxFailedAttempts: 10, durationSeconds: 15 * 60 } as const;

const DATE_COLUMNS = new Set([
  'createdAt',
  'updatedAt',
  'expiresAt',
  'accessTokenExpiresAt',
  'refreshTokenExpiresAt',
  'lockedUntil',
]);

/**
 * Our PostgreSQL pool parses timestamptz into ISO strings (what the rest of the site wants); Better
 * Auth compares its dates as Date objects, so its view of the connection revives them.
 */
class ReviveAuthDates implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key of Object.keys(row)) {
        const value = row[key];
        if (typeof value === 'string' && DATE_COLUMNS.has(key)) row[key] = new Date(value);
      }
    }
    return args.result;
  }
}

export interface AuthDeps {
  db: Db;
  engine: DbEngine;
  config: Config;
  secret: string;
}

export function createStaffAuth({ db, engine, config, secret }: AuthDeps) {
  const authDb =
    engine === 'postgres' ? db.withoutPlugins().withPlugin(new ReviveAuthDates()) : db.withoutPlugins();
  const log = getLogger();
  const auth = betterAuth({
    appName: config.COMPANY_NAME,
    baseURL: config.SITE_URL,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins: [new URL(config.SITE_URL).origin],
    database: { db: authDb, type: engine },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 256,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(hash, password),
      },
    },
    user: {
      // Migration 0009: set on the generated first account until its owner chooses a password.
      additionalFields: {
        mustChangePassword: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    session: {
      // An absolute limit: Better Auth's sliding refresh is off; the last use is kept by requireStaff.
      expiresIn: SESSION_MAX_SECONDS,
      disableSessionRefresh: true,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        // Sign-in is limited by our own counters, per client network (login.ts), reserved before the
        // password is checked; its per-IP rule here would count raw addresses, one per IPv6 host.
        '/sign-in/email': false,
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: config.SITE_URL.startsWith('https:'),
      cookiePrefix: 'vertice',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    plugins: [
      // Its endpoints are called in-process (two-step.ts, login.ts); wrong codes at sign-in count
      // against our own per-account-and-network limits, on top of its own per-challenge ones and its
      // per-account lock (TWO_STEP_LOCK).
      twoFactor({
        issuer: config.COMPANY_NAME,
        twoFactorCookieMaxAge: 600,
        accountLockout: { enabled: true, ...TWO_STEP_LOCK },
      }),
    ],
    logger: {
      level: 'error',
      log: (level, message) => {
        if (level === 'error') log.error({ source: 'better-auth' }, message);
        else log.warn({ source: 'better-auth' }, message);
      },
    },
  });
  AUTH_DBS.set(auth, db);
  return auth;
}

export type StaffAuth = ReturnType<typeof createStaffAuth>;

const AUTH_KEY = Symbol.for('vertice.auth');
type AuthHolder = { [AUTH_KEY]?: StaffAuth };

/** The process's Better Auth instance, on the shared connection. */
export function getAuth(): StaffAuth {
  const holder = globalThis as AuthHolder;
  if (!holder[AUTH_KEY]) {
    const handle = getDbHandle();
    holder[AUTH_KEY] = createStaffAuth({
      db: handle.db,
      engine: handle.engine,
      config: getConfig(),
      secret: getAuthSecret(),
    });
  }
  return holder[AUTH_KEY];
}

/** True when the e-mail is on ADMIN_EMAILS (compared case-insensitively). */
export function isStaffEmail(email: string, config: Config = getConfig()): boolean {
  return config.ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

export { resolveClientIp } from '../http/index.ts';

/** A copy of the request headers carrying our trusted client IP (and no visitor-supplied one). */
export function withClientIp(headers: Headers, ip: string): Headers {
  const copy = new Headers(headers);
  copy.set(CLIENT_IP_HEADER, ip);
  return copy;
}

export interface StaffMember {
  id: string;
  email: string;
  name: string;
  sessionToken: string;
  /** The password was generated (the first account): staff pages lead to 'Contraseña' until it changes. */
  mustChangePassword: boolean;
  /** Two-step verification is on for the account. */
  twoStep: boolean;
}

export type StaffCheck =
  | { ok: true; staff: StaffMember }
  /** `idle`: the session existed but went unused for STAFF_SESSION_IDLE_MINUTES and has just been ended. */
  | { ok: false; status: 401 | 403 | 503; reason?: 'idle' };

/** Sent by the live updates' fetches of a page (src/client/live.ts): not a use of the session. */
export const BACKGROUND_HEADER = 'x-staff-background';

/**
 * Whether a session checked earlier still stands: not signed out, not expired, not idle for
 * STAFF_SESSION_IDLE_MINUTES. For the event stream, which checks again now and then without counting as
 * a use (that would keep an unattended page's session alive for ever).
 */
export async function sessionStillValid(
  token: string,
  db: Db = getDbHandle().db,
  config: Config = getConfig(),
  now: number = Date.now(),
): Promise<boolean> {
  const session = await db
    .withoutPlugins()
    .selectFrom('session')
    .select(['expiresAt', 'updatedAt'])
    .where('token', '=', token)
    .executeTakeFirst();
  if (!session) return false;
  return (
    timeOf(session.expiresAt) > now &&
    now - timeOf(session.updatedAt) <= config.STAFF_SESSION_IDLE_MINUTES * 60_000
  );
}

const timeOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();

/** Signed session cookies already checked, per auth instance: their value → the session token. */
const VERIFIED_COOKIES: WeakMap<StaffAuth, Map<string, string>> = new WeakMap();
/** Cookies remembered as checked at most (sessions last 12 hours; a few per staff member). */
export const VERIFIED_COOKIES_MAX = 1000;

/** The first cookie of this name in a `Cookie` header, decoded as Better Auth decodes it. */
function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The request's session and its user, as Better Auth's `getSession` finds them (no cookie cache, no
 * refresh: the options above). The HMAC check of the signed cookie and the endpoint's machinery
 * around the lookup cost as much as the lookup itself (issue 40 §3): a cookie value that
 * `getSession` has accepted once is remembered with its token, since its signature holds for good,
 * and later requests with it read the session row (and its user) directly, every time, so that a
 * session signed out, ended elsewhere or expired is refused at once as before.
 */
async function sessionOf(headers: Headers, auth: StaffAuth) {
  const context = await auth.$context;
  const value = cookieValue(headers.get('cookie'), context.authCookies.sessionToken.name);
  let verified = VERIFIED_COOKIES.get(auth);
  const token = value === undefined ? undefined : verified?.get(value);
  if (token === undefined) {
    const result = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
    if (result && value?.startsWith(`${result.session.token}.`)) {
      if (!verified) VERIFIED_COOKIES.set(auth, (verified = new Map()));
      if (verified.size >= VERIFIED_COOKIES_MAX) verified.clear();
      verified.set(value, result.session.token);
    }
    return result;
  }
  // The rows getSession reads (its adapter's findSession), in one statement on the same connection.
  const db = AUTH_DBS.get(auth);
  const found: FoundSession | null = db
    ? await findSessionRow(db, token)
    : await context.internalAdapter.findSession(token);
  if (!found) return null;
  // As getSession does (by the clock, whatever time the caller checks the idle limit at): an expired
  // session is removed and counts as none.
  if (timeOf(found.session.expiresAt) < Date.now()) {
    await context.internalAdapter.deleteSession(token);
    return null;
  }
  return found;
}

/** What {@link requireStaff} reads of a session and its user. */
interface FoundSession {
  session: { token: string; expiresAt: Date | string; updatedAt: Date | string };
  user: {
    id: string;
    email: string;
    name: string;
    twoFactorEnabled?: boolean | number | null;
    mustChangePassword?: boolean | number | null;
  };
}

/** The connection each auth instance was made on ({@link createStaffAuth}). */
const AUTH_DBS: WeakMap<object, Db> = new WeakMap();

async function findSessionRow(db: Db, token: string): Promise<FoundSession | null> {
  const row = await db
    .withoutPlugins()
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .select([
      'session.token as token',
      'session.expiresAt as expiresAt',
      'session.updatedAt as updatedAt',
      'user.id as userId',
      'user.email as email',
      'user.name as name',
      'user.twoFactorEnabled as twoFactorEnabled',
      'user.mustChangePassword as mustChangePassword',
    ])
    .where('session.token', '=', token)
    .executeTakeFirst();
  if (!row) return null;
  return {
    session: { token: row.token, expiresAt: row.expiresAt, updatedAt: row.updatedAt },
    user: {
      id: row.userId,
      email: row.email,
      name: row.name,
      twoFactorEnabled: row.twoFactorEnabled,
      mustChangePassword: row.mustChangePassword,
    },
  };
}

/**
 * The guard of every staff page, action and API: 401 without a valid session (or with one unused for
 * STAFF_SESSION_IDLE_MINUTES, which it ends), 403 when the session's e-mail is no longer on
 * ADMIN_EMAILS, 503 when the database does not answer. A used session's `updatedAt` is its last use,
 * written at most once per {@link LAST_USE_WRITE_MS}; a page fetched again by the live updates
 * ({@link BACKGROUND_HEADER}) or their event stream (`Accept: text/event-stream`) is no use by the staff
 * member and leaves it as it is, idle or not.
 */
export async function requireStaff(
  headers: Headers,
  auth: StaffAuth = getAuth(),
  config: Config = getConfig(),
  now: number = Date.now(),
): Promise<StaffCheck> {
  let result;
  try {
    result = await sessionOf(headers, auth);
  } catch (error) {
    getLogger().warn({ err: error }, 'session check failed');
    // A database that does not answer is an outage, not a missing session: staff are told to wait,
    // not sent to sign in again (which could not work either).
    return { ok: false, status: (await ping(getDbHandle().db)) ? 401 : 503 };
  }
  if (!result) return { ok: false, status: 401 };
  const lastUse = timeOf(result.session.updatedAt);
  const idleMs = config.STAFF_SESSION_IDLE_MINUTES * 60_000;
  // What the browser does by itself (the live updates' page fetches and their event stream, whose
  // reconnections no script can mark) is no use by the staff member: it neither moves the last use on
  // nor ends an idle session, which is left for their next request to end and say why.
  const background =
    headers.get(BACKGROUND_HEADER) === '1' || /^text\/event-stream\b/i.test(headers.get('accept') ?? '');
  try {
    const internal = (await auth.$context).internalAdapter;
    if (now - lastUse > idleMs) {
      if (background) return { ok: false, status: 401, reason: 'idle' };
      await internal.deleteSession(result.session.token);
      getLogger().info(
        { event: 'session.idle', email: result.user.email },
        'staff session ended after inactivity',
      );
      return { ok: false, status: 401, reason: 'idle' };
    }
    // Often enough that a session in use never looks idle, even with a one-minute setting.
    if (now - lastUse >= Math.min(LAST_USE_WRITE_MS, idleMs / 10) && !background)
      await internal.updateSession(result.session.token, { updatedAt: new Date(now) });
  } catch (error) {
    getLogger().warn({ err: error }, 'session last-use update failed');
    return { ok: false, status: (await ping(getDbHandle().db)) ? 401 : 503 };
  }
  if (!isStaffEmail(result.user.email, config)) return { ok: false, status: 403 };
  return {
    ok: true,
    staff: {
      id: result.user.id,
      email: result.user.email,
      name: result.user.name,
      sessionToken: result.session.token,
      twoStep: Boolean(result.user.twoFactorEnabled),
      mustChangePassword: Boolean(result.user.mustChangePassword),
    },
  };
}

export {
  STAFF_NAME_MAX,
  nameByEmail,
  namedHistory,
  staffDisplayName,
  staffNameProblem,
  staffNames,
} from '../staff-names.ts';
export { getAuthSecret } from '../secret.ts';

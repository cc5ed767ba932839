/**
 * Sign-in and sign-out of the staff area, on top of Better Auth's own endpoint (its password check
 * and session cookies) plus what it does not do: the ADMIN_EMAILS check with no session left behind,
 * and our limits, counted per client network (an IPv4 address, or an IPv6 /64):
 *
 * - per network: at most {@link NETWORK_MAX} sign-ins per {@link NETWORK_WINDOW_MS}, whatever the
 *   account (this replaces Better Auth's own per-IP limit, which is switched off for sign-in);
 * - per account and network: at most {@link ACCOUNT_NETWORK_MAX} password checks per
 *   {@link ACCOUNT_WINDOW_MS}, so a flood from one network never stops a sign-in from another;
 * - per account, across networks: never locked, but past {@link ACCOUNT_FREE_CHECKS} checks in the
 *   window every answer waits longer ({@link checkDelayMs}), so a burst spread over many networks is
 *   slowed as one.
 *
 * Each attempt is reserved atomically in the database BEFORE its password is checked, so N parallel
 * attempts from one network check at most the limit. The in-memory first line (limits/first-line.ts)
 * refuses what this process already knows to be over the limit, with no database write.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { recordEvent } from '../audit/index.ts';
import { getConfig, type Config } from '../config.ts';
import { getDb, type Db } from '../db/index.ts';
import { clientNetwork } from '../http/index.ts';
import { clearHits, reserveHit } from '../limits/index.ts';
import { processLimits, withinCounterLimit } from '../limits/index.ts';
import type { MemoryLimiter } from '../limits/index.ts';
import { endLiveSession } from '../live/index.ts';
import { getLogger } from '../log.ts';
import {
  AUTH_BASE_PATH,
  CLIENT_IP_HEADER,
  getAuth,
  isStaffEmail,
  withClientIp,
  type StaffAuth,
} from './auth.ts';
import { checkTotpCode, pendingSignInUser, spendTotpStep, totpCode } from './two-step.ts';

export const NETWORK_WINDOW_MS = 10 * 60 * 1000;
export const NETWORK_MAX = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_NETWORK_MAX = 10;
export const ACCOUNT_FREE_CHECKS = 10;
const DELAY_STEP_MS = 500;
export const MAX_DELAY_MS = 8_000;

/** How long the answer to the `count`-th check of an account in its window waits: 0, then 0.5 s more per check, at most 8 s. */
export function checkDelayMs(count: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(0, count - ACCOUNT_FREE_CHECKS) * DELAY_STEP_MS);
}

export type SignInOutcome =
  | { kind: 'ok'; email: string; setCookies: string[] }
  /** The password was right and the account has two-step verification: ask for a code (Better Auth's two-factor cookie is in `setCookies`). */
  | { kind: 'two-step'; setCookies: string[] }
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
  /** Waits before the answer (a test passes a recorder instead of a real wait). */
  wait?: (ms: number) => Promise<unknown>;
  /** The first line's counts; the process's own unless a test gives each database one of its own. */
  memory?: MemoryLimiter;
}

const defaults = (): LoginDeps => ({ auth: getAuth(), config: getConfig(), db: getDb() });

/** The counters' keys of a sign-in: the network's, the account's from that network, and the account's own. */
export const signInKeys = (email: string, network: string) => ({
  network: `signin-net:${network}`,
  accountNetwork: `signin-acct-net:${email}:${network}`,
  account: `signin-acct:${email}`,
});

type Refusal = 'network' | 'account-network';

/** Reserves this attempt's place in each limit; the refusal, or the account's count in its window. */
async function reserveAttempt(
  db: Db,
  memory: MemoryLimiter,
  email: string,
  network: string,
): Promise<{ refused: Refusal } | { accountCount: number }> {
  const key = signInKeys(email, network);
  // The database counts what every process sees; the first line refuses, without asking it, a key
  // this process has already seen used up.
  if (!(await withinCounterLimit(db, key.network, NETWORK_MAX, NETWORK_WINDOW_MS, { memory })).allowed)
    return { refused: 'network' };
  if (
    !(await withinCounterLimit(db, key.accountNetwork, ACCOUNT_NETWORK_MAX, ACCOUNT_WINDOW_MS, { memory }))
      .allowed
  )
    return { refused: 'account-network' };
  return { accountCount: await reserveHit(db, key.account, ACCOUNT_WINDOW_MS) };
}

/** Signs a staff member in; the outcome tells the login page what to show. */
export async function signInStaff(input: SignInInput, deps: LoginDeps = defaults()): Promise<SignInOutcome> {
  const { auth, config, db } = deps;
  const log = getLogger();
  const email = input.email.trim().toLowerCase();
  const network = clientNetwork(input.ip);
  // Sign-ins are logged with the e-mail, the IP and its network, never the password or the session token.
  if (!email || !input.password) return { kind: 'invalid' };
  const memory = deps.memory ?? processLimits;
  const reserved = await reserveAttempt(db, memory, email, network);
  if ('refused' in reserved) {
    log.warn(
      { event: 'signin.rate-limited', email, ip: input.ip, network, reason: reserved.refused },
      'sign-in refused: limit reached',
    );
    return { kind: 'rate-limited' };
  }
  const delay = checkDelayMs(reserved.accountCount);
  if (delay > 0) {
    log.warn(
      { event: 'signin.slowed', email, ip: input.ip, network, delayMs: delay, checks: reserved.accountCount },
      'sign-in slowed: many attempts on this account',
    );
    await (deps.wait ?? sleep)(delay);
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
  if (!response.ok) {
    log.info(
      { event: 'signin.failed', email, ip: input.ip, network, status: response.status },
      'sign-in failed',
    );
    // Checked passwords only: the limits above keep a flood out of the audit log too.
    await recordEvent(db, { action: 'signin.failed', actorEmail: email, network });
    return { kind: 'invalid' };
  }
  const body = (await response.json()) as {
    token?: string;
    user?: { id?: string; email?: string };
    twoFactorRedirect?: boolean;
  };
  if (body.twoFactorRedirect) {
    // No session yet: Better Auth left a short-lived two-factor cookie. The counters are cleared only
    // once the code is right, so a known password does not buy more code guesses.
    if (!isStaffEmail(email, config)) {
      log.warn(
        { event: 'signin.forbidden', email, ip: input.ip, network },
        'sign-in refused: not on ADMIN_EMAILS',
      );
      await recordEvent(db, {
        action: 'signin.failed',
        actorEmail: email,
        network,
        detail: 'No está en ADMIN_EMAILS',
      });
      return { kind: 'forbidden' };
    }
    log.info(
      { event: 'signin.two-step', email, ip: input.ip, network },
      'sign-in: password right, code asked',
    );
    return { kind: 'two-step', setCookies: response.headers.getSetCookie() };
  }
  return concludeSignIn(
    { auth, config, db, memory },
    { email, ip: input.ip, network, body, setCookies: response.headers.getSetCookie() },
  );
}

/**
 * The end of a sign-in whose password (or second-step code) was right. An account that is not (or no
 * longer) on ADMIN_EMAILS is refused and the session it was just given is ended. Staff get their session,
 * and the network its allowance for the account back; the account's own count stays, so a sign-in in the
 * middle of an attack does not reset the attacker's slow-down.
 */
async function concludeSignIn(
  { auth, config, db, memory }: Required<Pick<LoginDeps, 'auth' | 'config' | 'db' | 'memory'>>,
  attempt: {
    email: string;
    ip: string;
    network: string;
    /** Better Auth's answer: the new session's token and its user. */
    body: { token?: string; user?: { id?: string; email?: string } };
    setCookies: string[];
    /** The second step's kind of code; none for a sign-in by password alone. */
    step?: 'totp' | 'recovery-code';
  },
): Promise<{ kind: 'ok'; email: string; setCookies: string[] } | { kind: 'forbidden' }> {
  const log = getLogger();
  const { email, ip, network, body, step } = attempt;
  const logged = { email, ip, network, ...(step ? { step } : {}) };
  if (!body.user?.email || !isStaffEmail(body.user.email, config)) {
    if (body.token) await (await auth.$context).internalAdapter.deleteSession(body.token);
    log.warn({ event: 'signin.forbidden', ...logged }, 'sign-in refused: not on ADMIN_EMAILS');
    await recordEvent(db, {
      action: 'signin.failed',
      actorId: body.user?.id,
      actorEmail: email,
      network,
      detail: 'No está en ADMIN_EMAILS',
    });
    return { kind: 'forbidden' };
  }
  const key = signInKeys(email, network);
  memory.forget(key.accountNetwork);
  await clearHits(db, key.accountNetwork);
  log.info({ event: 'signin.ok', ...logged }, 'staff signed in');
  await recordEvent(db, {
    action: 'signin.ok',
    actorId: body.user.id,
    actorEmail: body.user.email,
    network,
    detail: step === 'recovery-code' ? 'Con un código de recuperación' : undefined,
  });
  return { kind: 'ok', email: body.user.email, setCookies: attempt.setCookies };
}

export type CodeOutcome =
  | { kind: 'ok'; email: string; setCookies: string[] }
  | { kind: 'invalid' }
  /** A code of the app that was already accepted (its time step, or a later one): each works once. */
  | { kind: 'used' }
  /** Better Auth's lock after too many wrong codes in a row (index.ts TWO_STEP_LOCK): not even the right one is taken. */
  | { kind: 'locked' }
  /** No pending sign-in (its cookie is missing or expired, or too many codes were tried on it): start again. */
  | { kind: 'expired' }
  | { kind: 'forbidden' }
  | { kind: 'rate-limited' };

export interface CodeInput {
  /** A 6-digit code of the authenticator app, or one of the recovery codes. */
  code: string;
  /** The request's headers (Better Auth's two-factor cookie). */
  headers: Headers;
  ip: string;
}

/**
 * The second step of a sign-in: a code of the app, or a recovery code (each works once). The attempt
 * is reserved in the same counters as a password before the code is checked, so wrong codes count
 * against the same per-account-and-network limits.
 */
export async function verifyStaffCode(input: CodeInput, deps: LoginDeps = defaults()): Promise<CodeOutcome> {
  const { auth, config, db } = deps;
  const log = getLogger();
  const network = clientNetwork(input.ip);
  const pending = await pendingSignInUser(input.headers, auth);
  if (!pending) return { kind: 'expired' };
  const email = pending.email.toLowerCase();
  const code = input.code.trim().slice(0, 64);
  if (!code) return { kind: 'invalid' };
  const memory = deps.memory ?? processLimits;
  const reserved = await reserveAttempt(db, memory, email, network);
  if ('refused' in reserved) {
    log.warn(
      { event: 'signin.rate-limited', email, ip: input.ip, network, reason: reserved.refused, step: 'code' },
      'sign-in code refused: limit reached',
    );
    return { kind: 'rate-limited' };
  }
  const delay = checkDelayMs(reserved.accountCount);
  if (delay > 0) await (deps.wait ?? sleep)(delay);
  const totp = totpCode(code);
  // A code of the app is taken once: refused here when its step was already accepted, so a replay
  // neither reaches the plugin nor resets its count of wrong codes.
  const check = totp ? { code: totp, ...(await checkTotpCode(pending.id, totp, { auth, db })) } : null;
  // A code of the app that was already accepted: refused, logged and audited the same way wherever found.
  const refuseUsedCode = async (message: string): Promise<CodeOutcome> => {
    log.info({ event: 'signin.code-used', email, ip: input.ip, network }, message);
    await recordEvent(db, {
      action: 'signin.failed',
      actorId: pending.id,
      actorEmail: email,
      network,
      detail: 'Código de verificación ya usado',
    });
    return { kind: 'used' };
  };
  if (check?.used) return refuseUsedCode('sign-in code refused: already used');
  const headers = withClientIp(input.headers, input.ip);
  const response = totp
    ? await auth.api.verifyTOTP({ body: { code: totp }, headers, asResponse: true })
    : await auth.api.verifyBackupCode({ body: { code }, headers, asResponse: true });
  if (!response.ok) {
    const failure = (await response.json().catch(() => ({}))) as { code?: string };
    log.info(
      {
        event: 'signin.code-failed',
        email,
        ip: input.ip,
        network,
        status: response.status,
        code: failure.code,
      },
      'sign-in code refused',
    );
    await recordEvent(db, {
      action: 'signin.failed',
      actorId: pending.id,
      actorEmail: email,
      network,
      detail: totp ? 'Código de verificación incorrecto' : 'Código de recuperación incorrecto',
    });
    if (failure.code === 'INVALID_TWO_FACTOR_COOKIE' || failure.code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
      return { kind: 'expired' };
    if (failure.code === 'ACCOUNT_TEMPORARILY_LOCKED') return { kind: 'locked' };
    return { kind: 'invalid' };
  }
  const body = (await response.json()) as { token?: string; user?: { id?: string; email?: string } };
  const setCookies = response.headers.getSetCookie();
  // The step of the accepted code (found again if the clock moved past a step boundary meanwhile).
  const step = check
    ? (check.step ?? (await checkTotpCode(pending.id, check.code, { auth, db })).step)
    : null;
  if (step !== null && !(await spendTotpStep(db, pending.id, step))) {
    // Another sign-in with the same code was accepted first: the session just made must not stay.
    if (body.token) await (await auth.$context).internalAdapter.deleteSession(body.token);
    return refuseUsedCode('sign-in code refused: used by a concurrent sign-in');
  }
  return concludeSignIn(
    { auth, config, db, memory },
    { email, ip: input.ip, network, body, setCookies, step: totp ? 'totp' : 'recovery-code' },
  );
}

/**
 * Ends the session of these request headers on the server, and its live streams; returns the
 * cookie-clearing headers. With `audit`, a session that was ended leaves a 'signout' event naming its
 * staff member.
 */
export async function signOutStaff(
  headers: Headers,
  auth: StaffAuth = getAuth(),
  audit?: { db: Db; network: string },
): Promise<string[]> {
  const session = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
  const response = await auth.api.signOut({ headers, asResponse: true });
  // Its live streams end now, not at their next minute's check (issue 38).
  if (session && response.ok) endLiveSession(session.session.token);
  if (audit && session && response.ok)
    await recordEvent(audit.db, {
      action: 'signout',
      actorId: session.user.id,
      actorEmail: session.user.email,
      network: audit.network,
    });
  return response.headers.getSetCookie();
}

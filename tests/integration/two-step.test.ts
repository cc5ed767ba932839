/**
 * Two-step verification in-process on both engines (issue 24): turning it on or off ends the
 * account's other sessions (finding 4); a TOTP code is accepted once: the last accepted time step is
 * stored per account and a code at or before it is refused (finding 5); Better Auth's lock of the
 * second step after 10 wrong codes in a row is kept, said as such at sign-in, and lifted by a password
 * reset (finding 9). The clock is set (Date only) so that codes fall on known time steps.
 */
import * as OTPAuth from 'otpauth';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { createOrResetStaff } from '../../src/server/auth/accounts.ts';
import {
  createStaffAuth,
  requireStaff,
  type StaffAuth,
  type StaffMember,
} from '../../src/server/auth/index.ts';
import { signInStaff, verifyStaffCode } from '../../src/server/auth/login.ts';
import {
  confirmTwoStep,
  disableTwoStep,
  startTwoStep,
  TWO_STEP_MESSAGES,
} from '../../src/server/auth/two-step.ts';
import { MemoryLimiter } from '../../src/server/limits/memory.ts';
import { describeEachEngine } from '../support/db.ts';

const STAFF = 'admin@verticeconsultores.com.do';
const PASSWORD = 'clave-larga-de-prueba-1';
const ORIGIN = 'http://127.0.0.1:4321';
const STEP_MS = 30_000;
/** 10 s into a time step, so that a test's few seconds never cross into the next one. */
const T0 = Math.floor(Date.UTC(2026, 10, 25, 12) / STEP_MS) * STEP_MS + 10_000;

const cookieHeader = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]).join('; ');
const headersOf = (setCookies: string[]) => new Headers({ cookie: cookieHeader(setCookies), origin: ORIGIN });

describeEachEngine('two-step verification', (database) => {
  const config = parseConfig({ SITE_URL: ORIGIN, AUTH_SECRET: 'x'.repeat(40) });
  let auth: StaffAuth;
  let ipCounter = 0;
  let secret = '';
  const deps = () => ({ auth, config, db: database().db, memory: new MemoryLimiter(), wait: async () => {} });
  /** A fresh client address (a network of its own), so the per-network limits stay out of the way. */
  const nextIp = () => `10.24.${Math.floor(++ipCounter / 200)}.${(ipCounter % 200) + 1}`;
  /** The code of the authenticator app for the time step `offset` steps from now. */
  const code = (offset = 0) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + offset * STEP_MS,
    });

  beforeEach(async () => {
    vi.setSystemTime(T0);
    const { db, engine } = database();
    auth = createStaffAuth({ db, engine, config, secret: config.AUTH_SECRET! });
    await createOrResetStaff({ email: STAFF, password: PASSWORD }, auth, config);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function staffOf(headers: Headers): Promise<StaffMember> {
    const check = await requireStaff(headers, auth, config);
    if (!check.ok) throw new Error(`sin sesión (${check.status})`);
    return check.staff;
  }

  /** A session signed in with the password (two-step verification off). */
  async function passwordSession(): Promise<Headers> {
    const outcome = await signInStaff({ email: STAFF, password: PASSWORD, ip: nextIp() }, deps());
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    return headersOf(outcome.setCookies);
  }

  const twoStepContext = async (headers: Headers) => ({
    staff: await staffOf(headers),
    headers,
    ip: nextIp(),
    network: '10.24.0.0',
  });

  /** Turns two-step verification on from this session with the current code; the replacing session's headers. */
  async function turnOn(headers: Headers): Promise<Headers> {
    const started = await startTwoStep(PASSWORD, await twoStepContext(headers), { auth, db: database().db });
    if (!started.ok) throw new Error(JSON.stringify(started.errors));
    secret = started.enrolment.secret.replace(/\s/g, '');
    const confirmed = await confirmTwoStep(code(), await twoStepContext(headers), {
      auth,
      db: database().db,
    });
    if (!confirmed.ok) throw new Error(JSON.stringify(confirmed.errors));
    return headersOf(confirmed.setCookies);
  }

  /** Password, then this code: the outcome of the second step, and the session's headers when it signed in. */
  async function signInWithCode(totp: string, ip = nextIp()) {
    const first = await signInStaff({ email: STAFF, password: PASSWORD, ip }, deps());
    if (first.kind !== 'two-step') throw new Error(first.kind);
    const outcome = await verifyStaffCode({ code: totp, headers: headersOf(first.setCookies), ip }, deps());
    return { outcome, headers: outcome.kind === 'ok' ? headersOf(outcome.setCookies) : null };
  }

  it('ends the other sessions of the account when two-step verification is turned on, and again when it is turned off', async () => {
    const here = await passwordSession();
    const elsewhere = await passwordSession();
    expect((await requireStaff(elsewhere, auth, config)).ok).toBe(true);

    const replaced = await turnOn(here);
    expect((await requireStaff(replaced, auth, config)).ok).toBe(true);
    // The session signed in with the password only is over.
    expect(await requireStaff(elsewhere, auth, config)).toEqual({ ok: false, status: 401 });

    vi.setSystemTime(T0 + STEP_MS);
    const other = await signInWithCode(code());
    expect(other.outcome.kind).toBe('ok');
    expect((await requireStaff(other.headers!, auth, config)).ok).toBe(true);

    vi.setSystemTime(T0 + 2 * STEP_MS);
    const off = await disableTwoStep({ actual: PASSWORD, codigo: code() }, await twoStepContext(replaced), {
      auth,
      db: database().db,
    });
    if (!off.ok) throw new Error(JSON.stringify(off.errors));
    expect((await requireStaff(headersOf(off.setCookies), auth, config)).ok).toBe(true);
    expect(await requireStaff(other.headers!, auth, config)).toEqual({ ok: false, status: 401 });
  });

  it('accepts a code once: the same code, or one of an earlier time step, is refused after it signed in', async () => {
    await turnOn(await passwordSession());
    // The code that confirmed the enrolment does not sign in.
    expect((await signInWithCode(code())).outcome.kind).toBe('used');

    vi.setSystemTime(T0 + STEP_MS);
    const current = code();
    expect((await signInWithCode(current)).outcome.kind).toBe('ok');
    // Replayed within its window, from another network: refused, and no session is made.
    const replay = await signInWithCode(current);
    expect(replay.outcome.kind).toBe('used');
    // The previous step's code is still inside Better Auth's window, but before the last accepted one.
    expect((await signInWithCode(code(-1))).outcome.kind).toBe('used');

    // The next step's code signs in.
    vi.setSystemTime(T0 + 2 * STEP_MS);
    expect((await signInWithCode(code())).outcome.kind).toBe('ok');

    // Two sign-ins racing with one code: exactly one gets in.
    vi.setSystemTime(T0 + 3 * STEP_MS);
    const raced = await Promise.all([signInWithCode(code()), signInWithCode(code())]);
    expect(raced.map(({ outcome }) => outcome.kind).sort()).toEqual(['ok', 'used']);

    // Nor does a used code turn it off.
    const signedIn = raced.find(({ outcome }) => outcome.kind === 'ok')!.headers!;
    const off = await disableTwoStep({ actual: PASSWORD, codigo: code() }, await twoStepContext(signedIn), {
      auth,
      db: database().db,
    });
    expect(off).toEqual({ ok: false, errors: { codigo: TWO_STEP_MESSAGES.codeUsed } });
  });

  it('locks the second step for 15 minutes after 10 wrong codes in a row, says so, and a password reset lifts the lock', async () => {
    await turnOn(await passwordSession());
    vi.setSystemTime(T0 + STEP_MS);
    const wrong = () => {
      const near = new Set([-1, 0, 1].map(code));
      for (let n = 123456; ; n += 1) if (!near.has(String(n))) return String(n);
    };
    // Better Auth allows 5 codes per challenge: two challenges of 5, each from a network of its own.
    for (let challenge = 0; challenge < 2; challenge++) {
      const ip = nextIp();
      const first = await signInStaff({ email: STAFF, password: PASSWORD, ip }, deps());
      if (first.kind !== 'two-step') throw new Error(first.kind);
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await verifyStaffCode(
          { code: wrong(), headers: headersOf(first.setCookies), ip },
          deps(),
        );
        expect(outcome.kind).toBe('invalid');
      }
    }
    // The right code now: refused, as locked (not as a wrong code or the per-network limit).
    expect((await signInWithCode(code())).outcome.kind).toBe('locked');
    vi.setSystemTime(T0 + STEP_MS + 14 * 60_000);
    expect((await signInWithCode(code())).outcome.kind).toBe('locked');

    // An operator resets the password: the lock is lifted at once.
    await createOrResetStaff({ email: STAFF, password: PASSWORD }, auth, config);
    expect((await signInWithCode(code())).outcome.kind).toBe('ok');
  });
});

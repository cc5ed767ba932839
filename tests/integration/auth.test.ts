import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parseConfig } from '../../src/server/config.ts';
import {
  createStaffAuth,
  BACKGROUND_HEADER,
  requireStaff,
  resolveClientIp,
  withClientIp,
  type StaffAuth,
} from '../../src/server/auth/index.ts';
import {
  createOrResetStaff,
  ensureInitialStaff,
  listStaff,
  StaffAccountError,
} from '../../src/server/auth/accounts.ts';
import {
  ACCOUNT_NETWORK_MAX,
  checkDelayMs,
  NETWORK_MAX,
  signInStaff,
  signOutStaff,
} from '../../src/server/auth/login.ts';
import { MemoryLimiter } from '../../src/server/limits/memory.ts';
import { hashPassword, verifyPassword } from '../../src/server/auth/password.ts';
import { describeEachEngine } from '../support/db.ts';

const STAFF = 'admin@verticeconsultores.com.do';
const OTHER_STAFF = 'soporte@verticeconsultores.com.do';
const PASSWORD = 'clave-larga-de-prueba-1';

const cookieHeader = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]).join('; ');

describe('argon2id password hashing', () => {
  it('produces an OWASP-parameter argon2id PHC hash that verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword('garbage', 'x')).toBe(false);
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });
});

describe('client IP', () => {
  const headers = new Headers({ 'x-forwarded-for': '6.6.6.6, 10.0.0.7' });
  it('ignores X-Forwarded-For unless TRUST_PROXY is on, and then takes the proxy-appended entry', () => {
    expect(resolveClientIp(headers, '127.0.0.1', false)).toBe('127.0.0.1');
    expect(resolveClientIp(headers, '127.0.0.1', true)).toBe('10.0.0.7');
    expect(resolveClientIp(new Headers(), '127.0.0.1', true)).toBe('127.0.0.1');
  });
  it('replaces a visitor-supplied client-IP header', () => {
    const forged = new Headers({ 'x-vertice-client-ip': '1.2.3.4' });
    expect(withClientIp(forged, '9.9.9.9').get('x-vertice-client-ip')).toBe('9.9.9.9');
  });
});

describeEachEngine('staff auth', (database) => {
  let auth: StaffAuth;
  const config = parseConfig({ SITE_URL: 'http://127.0.0.1:4321', AUTH_SECRET: 'x'.repeat(40) });
  let memory: MemoryLimiter;
  /** The waits the sign-ins asked for, instead of real ones. */
  let waits: number[];
  const deps = () => ({
    auth,
    config,
    db: database().db,
    memory,
    wait: async (ms: number) => void waits.push(ms),
  });

  beforeEach(() => {
    const { db, engine } = database();
    auth = createStaffAuth({ db, engine, config, secret: config.AUTH_SECRET! });
    memory = new MemoryLimiter();
    waits = [];
  });

  /** The two staff accounts the sign-in tests use (each test has a database of its own). */
  async function seedStaff(): Promise<void> {
    await createOrResetStaff({ email: STAFF, password: PASSWORD, name: 'Ana Pérez' }, auth, config);
    await createOrResetStaff({ email: OTHER_STAFF, password: PASSWORD }, auth, config);
  }

  it('creates staff accounts only for ADMIN_EMAILS with 12+ character passwords, argon2id-hashed', async () => {
    const { db } = database();
    await expect(
      createOrResetStaff({ email: 'intruso@example.com', password: PASSWORD }, auth, config),
    ).rejects.toThrow(StaffAccountError);
    await expect(createOrResetStaff({ email: STAFF, password: 'corta' }, auth, config)).rejects.toThrow(/12/);
    const first = await ensureInitialStaff(auth, config);
    expect(first?.email).toBe(STAFF);
    expect(await ensureInitialStaff(auth, config)).toBeNull();
    expect(
      await createOrResetStaff({ email: STAFF, password: PASSWORD, name: 'Ana Pérez' }, auth, config),
    ).toBe('reset');
    expect(await createOrResetStaff({ email: OTHER_STAFF, password: PASSWORD }, auth, config)).toBe(
      'created',
    );
    expect((await listStaff(auth, database().db)).map((account) => account.email)).toEqual([
      STAFF,
      OTHER_STAFF,
    ]);
    const rows = await sql<{ password: string }>`select "password" from "account"`.execute(
      db.withoutPlugins(),
    );
    for (const row of rows.rows) expect(row.password).toMatch(/^\$argon2id\$/);
  });

  it('signs in, guards with requireStaff, and signs out on the server', async () => {
    await seedStaff();
    const outcome = await signInStaff(
      { email: STAFF.toUpperCase(), password: PASSWORD, ip: '10.1.0.1' },
      deps(),
    );
    expect(outcome.kind).toBe('ok');
    if (outcome.kind !== 'ok') return;
    const cookie = outcome.setCookies.find((line) => line.includes('session_token'))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const headers = new Headers({
      cookie: cookieHeader(outcome.setCookies),
      origin: 'http://127.0.0.1:4321',
    });
    const check = await requireStaff(headers, auth, config);
    expect(check.ok && check.staff.email).toBe(STAFF);
    expect(check.ok && check.staff.name).toBe('Ana Pérez');
    // Removed from ADMIN_EMAILS: the session is no longer enough.
    const narrowed = parseConfig({ ADMIN_EMAILS: OTHER_STAFF });
    expect(await requireStaff(headers, auth, narrowed)).toEqual({ ok: false, status: 403 });
    await signOutStaff(headers, auth);
    expect(await requireStaff(headers, auth, config)).toEqual({ ok: false, status: 401 });
    expect(await requireStaff(new Headers(), auth, config)).toEqual({ ok: false, status: 401 });
  });

  it('ends a session unused for STAFF_SESSION_IDLE_MINUTES, writes its last use at most once a minute, and never extends it', async () => {
    await seedStaff();
    const outcome = await signInStaff({ email: STAFF, password: PASSWORD, ip: '10.9.0.1' }, deps());
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    const headers = new Headers({
      cookie: cookieHeader(outcome.setCookies),
      origin: 'http://127.0.0.1:4321',
    });
    const authTables = database().db.withoutPlugins();
    const row = async () => {
      const found = await authTables
        .selectFrom('session')
        .select(['updatedAt', 'expiresAt'])
        .executeTakeFirst();
      return (
        found && {
          updatedAt: new Date(found.updatedAt).getTime(),
          expiresAt: new Date(found.expiresAt).getTime(),
        }
      );
    };
    const signedIn = (await row())!;
    const t0 = signedIn.updatedAt;
    expect(config.STAFF_SESSION_IDLE_MINUTES).toBe(120);
    // Within the minute: no write.
    expect((await requireStaff(headers, auth, config, t0 + 30_000)).ok).toBe(true);
    expect(await row()).toEqual(signedIn);
    // A page fetched again by the live updates (issue 22) is no use: nothing written.
    const background = new Headers(headers);
    background.set(BACKGROUND_HEADER, '1');
    expect((await requireStaff(background, auth, config, t0 + 90 * 60_000)).ok).toBe(true);
    expect(await row()).toEqual(signedIn);
    // Later: the last use is written; the 12-hour end stays where sign-in put it.
    expect((await requireStaff(headers, auth, config, t0 + 100 * 60_000)).ok).toBe(true);
    expect(await row()).toEqual({ updatedAt: t0 + 100 * 60_000, expiresAt: signedIn.expiresAt });
    expect((await requireStaff(headers, auth, config, t0 + 219 * 60_000)).ok).toBe(true);
    // Unused for longer than the setting: the browser's own requests (a live page fetch, the event
    // stream reconnecting) are refused and leave the session to the staff member's next request.
    const idleAt = t0 + 219 * 60_000 + 120 * 60_000 + 1_000;
    const stream = new Headers(headers);
    stream.set('accept', 'text/event-stream');
    expect(await requireStaff(background, auth, config, idleAt)).toEqual({
      ok: false,
      status: 401,
      reason: 'idle',
    });
    expect(await requireStaff(stream, auth, config, idleAt)).toEqual({
      ok: false,
      status: 401,
      reason: 'idle',
    });
    expect(await row()).toEqual({ updatedAt: t0 + 219 * 60_000, expiresAt: signedIn.expiresAt });
    // Which ends it, and says why.
    expect(await requireStaff(headers, auth, config, idleAt)).toEqual({
      ok: false,
      status: 401,
      reason: 'idle',
    });
    expect(await row()).toBeUndefined();
    expect(await requireStaff(headers, auth, config)).toEqual({ ok: false, status: 401 });
  });

  it('answers a wrong password and an unknown e-mail alike, and refuses sign-up', async () => {
    await seedStaff();
    expect(
      (await signInStaff({ email: STAFF, password: 'otra-clave-incorrecta', ip: '10.2.0.1' }, deps())).kind,
    ).toBe('invalid');
    expect(
      (
        await signInStaff(
          { email: 'nadie@verticeconsultores.com.do', password: PASSWORD, ip: '10.2.0.2' },
          deps(),
        )
      ).kind,
    ).toBe('invalid');
    const signUp = await auth.handler(
      new Request('http://127.0.0.1:4321/api/auth/sign-up/email', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'http://127.0.0.1:4321',
          'x-vertice-client-ip': '10.2.0.3',
        },
        body: JSON.stringify({ email: 'nuevo@example.com', password: PASSWORD, name: 'x' }),
      }),
    );
    expect(signUp.ok).toBe(false);
  });

  it('refuses a valid non-staff account and keeps no session for it', async () => {
    await seedStaff();
    const wide = parseConfig({
      ADMIN_EMAILS: `${STAFF},exempleado@verticeconsultores.com.do`,
      AUTH_SECRET: 'x'.repeat(40),
    });
    await createOrResetStaff(
      { email: 'exempleado@verticeconsultores.com.do', password: PASSWORD },
      auth,
      wide,
    );
    const before = await sql<{ n: number }>`select count(*) as n from "session"`.execute(
      database().db.withoutPlugins(),
    );
    const outcome = await signInStaff(
      { email: 'exempleado@verticeconsultores.com.do', password: PASSWORD, ip: '10.3.0.1' },
      deps(),
    );
    expect(outcome.kind).toBe('forbidden');
    const after = await sql<{ n: number }>`select count(*) as n from "session"`.execute(
      database().db.withoutPlugins(),
    );
    expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n));
  });

  it('limits sign-in per network in the database, an IPv6 /64 counting as one network', async () => {
    await seedStaff();
    const ip = '10.4.0.1';
    for (let attempt = 0; attempt < NETWORK_MAX; attempt++) {
      // Different e-mails so the per-account limit is not what trips.
      const outcome = await signInStaff(
        { email: `x${attempt}@example.com`, password: 'mala-clave-123', ip },
        deps(),
      );
      expect(outcome.kind).toBe('invalid');
    }
    expect((await signInStaff({ email: STAFF, password: PASSWORD, ip }, deps())).kind).toBe('rate-limited');
    expect((await signInStaff({ email: STAFF, password: PASSWORD, ip: '10.4.0.2' }, deps())).kind).toBe('ok');
    const stored = await database().db.selectFrom('limitCounters').select('key').execute();
    expect(stored.some((row) => row.key === `signin-net:${ip}`)).toBe(true);

    // Every address of one /64 is one network; the next /64 is another.
    for (let host = 1; host <= NETWORK_MAX; host++) {
      const outcome = await signInStaff(
        {
          email: `v6-${host}@example.com`,
          password: 'mala-clave-123',
          ip: `2001:db8:1:2::${host.toString(16)}`,
        },
        deps(),
      );
      expect(outcome.kind).toBe('invalid');
    }
    expect(
      (await signInStaff({ email: STAFF, password: PASSWORD, ip: '2001:db8:1:2:ffff::1' }, deps())).kind,
    ).toBe('rate-limited');
    expect(
      (await signInStaff({ email: STAFF, password: PASSWORD, ip: '2001:db8:1:3::1' }, deps())).kind,
    ).toBe('ok');
  });

  it('counts the memory first line before the database: a refusal it knows of writes nothing', async () => {
    await seedStaff();
    const ip = '10.4.1.1';
    for (let attempt = 0; attempt < NETWORK_MAX; attempt++) {
      await signInStaff({ email: `m${attempt}@example.com`, password: 'mala-clave-123', ip }, deps());
    }
    const counts = async () =>
      (
        await database()
          .db.selectFrom('limitCounters')
          .select(['key', 'count'])
          .where('key', '=', `signin-net:${ip}`)
          .executeTakeFirstOrThrow()
      ).count;
    expect(Number(await counts())).toBe(NETWORK_MAX);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signInStaff({ email: STAFF, password: PASSWORD, ip }, deps())).kind).toBe('rate-limited');
    }
    expect(Number(await counts())).toBe(NETWORK_MAX);
  });

  it('stops a flood at its own network: the account still signs in from another one', async () => {
    await seedStaff();
    const attacker = '203.0.113.66';
    for (let attempt = 0; attempt < ACCOUNT_NETWORK_MAX; attempt++) {
      expect(
        (
          await signInStaff(
            { email: OTHER_STAFF, password: `clave-equivocada-${attempt}`, ip: attacker },
            deps(),
          )
        ).kind,
      ).toBe('invalid');
    }
    // The attacker's network has used its checks for this account: even the right password is not checked.
    expect((await signInStaff({ email: OTHER_STAFF, password: PASSWORD, ip: attacker }, deps())).kind).toBe(
      'rate-limited',
    );
    expect(
      (await signInStaff({ email: OTHER_STAFF, password: PASSWORD, ip: '198.51.100.7' }, deps())).kind,
    ).toBe('ok');
  });

  it('checks at most the limit of 30 parallel wrong passwords from one network', async () => {
    await seedStaff();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        signInStaff({ email: STAFF, password: `clave-equivocada-${attempt}`, ip: '203.0.113.77' }, deps()),
      ),
    );
    const kinds = outcomes.map((outcome) => outcome.kind);
    expect(kinds.filter((kind) => kind === 'invalid')).toHaveLength(ACCOUNT_NETWORK_MAX);
    expect(kinds.filter((kind) => kind === 'rate-limited')).toHaveLength(30 - ACCOUNT_NETWORK_MAX);

    // As if each attempt reached another server process (a memory of its own): the database's atomic
    // reservation alone still lets exactly the limit through.
    const spread = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        signInStaff(
          { email: OTHER_STAFF, password: `clave-equivocada-${attempt}`, ip: '203.0.113.78' },
          { ...deps(), memory: new MemoryLimiter() },
        ),
      ),
    );
    expect(spread.filter((outcome) => outcome.kind === 'invalid')).toHaveLength(ACCOUNT_NETWORK_MAX);
  });

  it('never locks an account: failures from many networks slow its answers, and the right password still gets in', async () => {
    await seedStaff();
    for (let attempt = 0; attempt < 14; attempt++) {
      const outcome = await signInStaff(
        { email: OTHER_STAFF, password: 'mala-clave-123', ip: `10.5.${attempt}.1` },
        deps(),
      );
      expect(outcome.kind).toBe('invalid');
    }
    // The first ten checks answer at once, then each waits longer.
    expect(waits).toEqual([11, 12, 13, 14].map(checkDelayMs));
    expect(waits[0]).toBeGreaterThan(0);
    expect(
      (await signInStaff({ email: OTHER_STAFF, password: PASSWORD, ip: '10.5.99.1' }, deps())).kind,
    ).toBe('ok');
    expect(waits.at(-1)).toBe(checkDelayMs(15));
    // An unknown e-mail is treated alike: same answer as a wrong password.
    expect(
      (await signInStaff({ email: 'desconocido@example.com', password: PASSWORD, ip: '10.5.1.2' }, deps()))
        .kind,
    ).toBe('invalid');
  });

  it('revokes sessions when a password is reset', async () => {
    await seedStaff();
    const outcome = await signInStaff({ email: STAFF, password: PASSWORD, ip: '10.6.0.1' }, deps());
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    const headers = new Headers({ cookie: cookieHeader(outcome.setCookies) });
    expect((await requireStaff(headers, auth, config)).ok).toBe(true);
    await createOrResetStaff({ email: STAFF, password: 'una-clave-nueva-larga' }, auth, config);
    expect(await requireStaff(headers, auth, config)).toEqual({ ok: false, status: 401 });
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parseConfig } from '../../src/server/config.ts';
import {
  createStaffAuth,
  requireStaff,
  resolveClientIp,
  SIGN_IN_MAX_PER_IP,
  withClientIp,
  type StaffAuth,
} from '../../src/server/auth/index.ts';
import {
  createOrResetStaff,
  ensureInitialStaff,
  listStaff,
  StaffAccountError,
} from '../../src/server/auth/accounts.ts';
import { ACCOUNT_MAX_FAILURES, signInStaff, signOutStaff } from '../../src/server/auth/login.ts';
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
  const deps = () => ({ auth, config, db: database().db });

  beforeEach(() => {
    const { db, engine } = database();
    auth = createStaffAuth({ db, engine, config, secret: config.AUTH_SECRET! });
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
    expect((await listStaff(auth)).map((account) => account.email)).toEqual([STAFF, OTHER_STAFF]);
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

  it('rate-limits sign-in per IP in the database, whatever X-Forwarded-For says', async () => {
    await seedStaff();
    // Straight at Better Auth: a forged X-Forwarded-For per request must not give a fresh bucket.
    let last = 0;
    for (let attempt = 0; attempt <= SIGN_IN_MAX_PER_IP; attempt++) {
      const response = await auth.handler(
        new Request('http://127.0.0.1:4321/api/auth/sign-in/email', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: 'http://127.0.0.1:4321',
            'x-forwarded-for': `203.0.113.${attempt + 1}`,
            'x-vertice-client-ip': '10.4.9.9',
          },
          body: JSON.stringify({ email: `y${attempt}@example.com`, password: 'mala-clave-123' }),
        }),
      );
      last = response.status;
    }
    expect(last).toBe(429);
    const ip = '10.4.0.1';
    for (let attempt = 0; attempt < SIGN_IN_MAX_PER_IP; attempt++) {
      // Different e-mails so the per-account limit is not what trips.
      const outcome = await signInStaff(
        { email: `x${attempt}@example.com`, password: 'mala-clave-123', ip },
        deps(),
      );
      expect(outcome.kind).toBe('invalid');
    }
    expect((await signInStaff({ email: STAFF, password: PASSWORD, ip }, deps())).kind).toBe('rate-limited');
    expect((await signInStaff({ email: STAFF, password: PASSWORD, ip: '10.4.0.2' }, deps())).kind).toBe('ok');
    const stored = await sql<{ key: string }>`select "key" from "rateLimit"`.execute(
      database().db.withoutPlugins(),
    );
    expect(stored.rows.some((row) => row.key.includes(ip))).toBe(true);
  });

  it('locks an account after repeated failures from many IPs', async () => {
    await seedStaff();
    for (let attempt = 0; attempt < ACCOUNT_MAX_FAILURES; attempt++) {
      const outcome = await signInStaff(
        { email: OTHER_STAFF, password: 'mala-clave-123', ip: `10.5.0.${attempt + 1}` },
        deps(),
      );
      expect(outcome.kind).toBe('invalid');
    }
    expect((await signInStaff({ email: OTHER_STAFF, password: PASSWORD, ip: '10.5.1.1' }, deps())).kind).toBe(
      'rate-limited',
    );
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

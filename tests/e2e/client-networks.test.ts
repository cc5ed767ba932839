/**
 * Limits per client network, against the production server behind a trusted proxy
 * (TRUST_PROXY=true): each request plays a client of its own through the X-Forwarded-For entry the
 * proxy appends, IPv4 and IPv6 alike (issue 13, holes 1, 2 and 4): sign-in and the public forms.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formStamp } from '../support/form-stamp.ts';
import { postForm, type RawResponse } from '../support/http.ts';
import { createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const STAFF = 'soporte@verticeconsultores.com.do';
const ADMIN_EMAILS = `admin@verticeconsultores.com.do,${STAFF}`;
const PASSWORD = 'una-clave-de-personal-larga';
const WRONG_CREDENTIALS = 'Credenciales incorrectas o error al iniciar sesión.';
const TOO_MANY_SIGN_INS = 'Demasiados intentos de inicio de sesión';

const { server } = useSite({ browser: false, env: { TRUST_PROXY: 'true', ADMIN_EMAILS } });

beforeAll(async () => {
  await createStaffAccount(server, { email: STAFF, password: PASSWORD }, ADMIN_EMAILS);
});

/** A sign-in from `client`, as the proxy reports it (a visitor-written entry before it is ignored). */
function signIn(email: string, password: string, client: string): Promise<RawResponse> {
  return postForm(
    server.url,
    '/admin-login',
    { email, password },
    { headers: { 'x-forwarded-for': `10.66.6.6, ${client}` } },
  );
}

/** The log lines of one event for one network. */
function logged(event: string, network: string): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.event === event && entry.network === network);
}

describe('sign-in limits per client network', () => {
  it('never lets a flood of wrong passwords from one network stop a correct sign-in from another', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await signIn(STAFF, `clave-equivocada-${attempt}`, '198.51.100.10');
      statuses.push(response.status);
      if (response.status === 200) expect(response.body).toContain(WRONG_CREDENTIALS);
      else expect(response.body).toContain(TOO_MANY_SIGN_INS);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const fromElsewhere = await signIn(STAFF, PASSWORD, '2001:db8:a:b::1');
    expect(fromElsewhere.status).toBe(303);
    expect(fromElsewhere.cookies).toContain('vertice.session_token=');
    // Each refusal is logged with its network and its reason.
    expect(logged('signin.rate-limited', '198.51.100.10')).toHaveLength(2);
    expect(logged('signin.rate-limited', '198.51.100.10')[0]).toMatchObject({
      reason: 'network',
      email: STAFF,
    });
  });

  it('counts every address of an IPv6 /64 as one network', async () => {
    const statuses: number[] = [];
    for (let host = 1; host <= 11; host += 1) {
      statuses.push(
        (
          await signIn(
            `nadie${host}@example.com`,
            'clave-incorrecta-123',
            `2001:db8:c:d::${host.toString(16)}`,
          )
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect((await signIn('nadie@example.com', 'clave-incorrecta-123', '2001:db8:c:e::1')).status).toBe(200);
    expect(logged('signin.failed', '2001:db8:c:d::/64')).toHaveLength(10);
  });

  it('checks at most 10 of 30 parallel wrong passwords from one network', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        signIn(STAFF, `clave-en-paralelo-${attempt}`, '203.0.113.30'),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    await expect.poll(() => logged('signin.failed', '203.0.113.30').length).toBe(10);
  });
});

describe('public form limits per client network', () => {
  it('accepts at most 5 of 7 incidents from one IPv6 /64, each from another address of it', async () => {
    const statuses: number[] = [];
    for (let host = 1; host <= 7; host += 1) {
      const response = await postForm(
        server.url,
        '/_actions/incidents.create',
        { problema: `Desde la misma red ${host}`, startedAt: formStamp() },
        { headers: { 'x-forwarded-for': `2001:db8:77:1::${host.toString(16)}` } },
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another /64 has its own allowance.
    expect(
      (
        await postForm(
          server.url,
          '/_actions/incidents.create',
          { problema: 'Otra red', startedAt: formStamp() },
          { headers: { 'x-forwarded-for': '2001:db8:77:2::1' } },
        )
      ).status,
    ).toBe(200);
    const refusals = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"reason":"rate-limit"') && line.includes('2001:db8:77:1::/64'));
    expect(refusals).toHaveLength(2);
  });
});

describe('refusals', () => {
  it('are logged with the client network and the reason', async () => {
    const honeypot = await postForm(
      server.url,
      '/_actions/contact.send',
      { name: 'Bot', email: 'bot@spam.test', message: 'Compre ya', website: 'https://spam.test' },
      { headers: { 'x-forwarded-for': '2001:db8:55:1::9' } },
    );
    expect(honeypot.status).toBe(400);
    const tooFast = await postForm(
      server.url,
      '/_actions/contact.send',
      { name: 'Bot', email: 'bot@spam.test', message: 'Compre ya', startedAt: formStamp({ ageMs: 0 }) },
      { headers: { 'x-forwarded-for': '198.51.100.99' } },
    );
    expect(tooFast.status).toBe(400);
    await expect.poll(() => server.output()).toMatch(/"network":"2001:db8:55:1::\/64","reason":"honeypot"/);
    await expect.poll(() => server.output()).toMatch(/"network":"198\.51\.100\.99","reason":"too-fast"/);
  });
});

describe('follow-up look-ups', () => {
  it('answers at most 5 look-ups an hour for one e-mail address, whatever the network', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await postForm(
        server.url,
        '/_actions/incidents.track',
        {
          numeroIncidencia: `INC-20250101-${1000 + attempt}`,
          email: 'cliente@objetivo.test',
          startedAt: formStamp(),
        },
        { headers: { 'x-forwarded-for': `192.0.2.${attempt + 1}` } },
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    // Another address is not affected.
    const other = await postForm(
      server.url,
      '/_actions/incidents.track',
      { numeroIncidencia: 'INC-20250101-1000', email: 'otro@cliente.test', startedAt: formStamp() },
      { headers: { 'x-forwarded-for': '192.0.2.50' } },
    );
    expect(other.status).toBe(404);
  });
});

describe('the proxy warning', () => {
  it('is never logged with TRUST_PROXY=true, however many requests carry X-Forwarded-For', async () => {
    // Every request of this file so far carried the header; one more, and the log has been read to its end.
    await postForm(
      server.url,
      '/_actions/contact.send',
      { name: 'Alguien', email: 'a@b.test', message: 'Hola', startedAt: formStamp() },
      { headers: { 'x-forwarded-for': '198.51.100.120' } },
    );
    await expect.poll(() => server.output()).toMatch(/"path":"\/_actions\/contact.send"/);
    expect(server.output()).not.toContain('"event":"proxy.untrusted"');
  });
});

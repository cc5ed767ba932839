/**
 * The staff list's render cache (issue 40 §3, docs/decisions/0023-staff-pages-speed.md) against the
 * production server: a kept page is sent only while it is exactly what a new render would send. A
 * change by another staff member, or written by another connection to the database, shows on the next
 * load; one staff member's page never reaches another; signing out ends access at once; an age
 * ('abierta hace …') moves on when its minute comes. Plain HTTP, two accounts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertIncident } from '../support/factories.ts';
import { createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const SECOND = 'soporte@verticeconsultores.com.do';
const ADMIN_EMAILS = `admin@verticeconsultores.com.do,${SECOND}`;
const PASSWORD = 'una-clave-de-personal-larga';
const LIST = '/admin/incidencias';
const KEPT = 'x-render-cache';

const { server, db, staff } = useSite({ browser: false, env: { TRUST_PROXY: 'true', ADMIN_EMAILS } });

let network = 0;
async function signIn(email: string, password: string): Promise<string> {
  network += 1;
  const response = await fetch(`${server.url}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.url,
      'x-forwarded-for': `198.51.100.${network}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email, password }),
  });
  expect(response.status).toBe(303);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

const load = (cookie: string, path = LIST) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers: { cookie } });

/** Loads the page until it comes from the cache (the second load, unless a write came between). */
async function loadKept(cookie: string, path = LIST): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await load(cookie, path);
    expect(response.status).toBe(200);
    const html = await response.text();
    if (response.headers.get(KEPT) === 'hit') return html;
  }
  throw new Error(`${path} never came from the render cache`);
}

let first = '';
let second = '';
let numero = '';

beforeAll(async () => {
  await createStaffAccount(
    server,
    { email: SECOND, password: PASSWORD, name: 'Sonia Soporte' },
    ADMIN_EMAILS,
  );
  numero = (await insertIncident(db, { nombre: 'Cliente Caché', fecha: new Date().toISOString() }))
    .numeroIncidencia;
  first = await signIn(staff.email, staff.password);
  second = await signIn(SECOND, PASSWORD);
});

describe('the staff list from the render cache', () => {
  it("sends a kept copy only with this request's time in it, and renders again after a write by another connection", async () => {
    const kept = await loadKept(first);
    expect(kept).toContain(numero);
    const served = /&quot;now&quot;:\[0,&quot;([^&]+)&quot;\]/.exec(kept)?.[1];
    expect(Date.now() - Date.parse(served!)).toBeLessThan(5_000);

    // Written by the test's own connection to the file, as the worker or a script would.
    await db
      .updateTable('incidents')
      .set({ nombre: 'Cliente Renombrado' })
      .where('numeroIncidencia', '=', numero)
      .execute();
    const after = await load(first);
    expect(after.headers.get(KEPT)).toBeNull();
    const html = await after.text();
    expect(html).toContain('Cliente Renombrado');
    expect(html).not.toContain('Cliente Caché');
  });

  it("shows another staff member's change on the next load", async () => {
    await loadKept(first);
    const { id } = await db
      .selectFrom('incidents')
      .select('id')
      .where('numeroIncidencia', '=', numero)
      .executeTakeFirstOrThrow();
    const changed = await fetch(
      `${server.url}/admin/incidencias/${numero}?_action=incidents.setPriorityForm`,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: second, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id: String(id), prioridad: 'Urgente', volver: LIST }),
      },
    );
    expect(changed.status).toBe(303);
    const html = await (await load(first)).text();
    const card = html.slice(html.indexOf(`data-incidencia="${numero}"`));
    expect(card.slice(0, 6000)).toContain('data-prioridad="Urgente"');
  });

  it("never sends one staff member's page to another", async () => {
    const mine = await loadKept(first);
    expect(mine).toContain(staff.email);
    const response = await load(second);
    expect(response.headers.get(KEPT)).toBeNull();
    const theirs = await response.text();
    expect(theirs).toContain(SECOND);
    expect(theirs).not.toContain(staff.email);
    expect(await loadKept(second)).toContain(SECOND);
  });

  it('refuses a kept page at once after signing out', async () => {
    const cookie = await signIn(SECOND, PASSWORD);
    await loadKept(cookie);
    const out = await fetch(`${server.url}/api/staff/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: server.url },
    });
    expect(out.status).toBe(303);
    const refused = await load(cookie);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin-login');
  });

  it("moves an age on when its minute comes ('hace un momento' → 'hace 1 minuto')", async () => {
    const opened = new Date(Date.now() - 50_000).toISOString();
    const { numeroIncidencia } = await insertIncident(db, { nombre: 'Cliente Reloj', fecha: opened });
    const ageOf = (html: string) => {
      const card = html.slice(html.indexOf(`data-incidencia="${numeroIncidencia}"`));
      return (
        /data-testid="antiguedad">abierta <!-- -->([^<]+)</.exec(card)?.[1] ??
        /abierta ([^<]+)</.exec(card)?.[1]
      );
    };
    const before = await loadKept(first);
    expect(ageOf(before)).toBe('hace un momento');
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(opened) + 60_500 - Date.now())),
    );
    expect(ageOf(await (await load(first)).text())).toBe('hace 1 minuto');
  });
});

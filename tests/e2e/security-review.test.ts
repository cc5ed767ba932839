/**
 * Issue 24 against the production build, over plain HTTP:
 * - finding 1: an account removed from ADMIN_EMAILS is not offered in 'Asignar a', cannot be
 *   assigned, and an incident still assigned to it says 'Asignada a una cuenta sin acceso';
 * - finding 3: a follow-up link of an incident resolved more than 30 days ago still shows the history
 *   and the conversation, but no 'Responder' box, says how to open a new incident, and refuses an answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { insertIncident } from '../support/factories.ts';
import { formStamp } from '../support/form-stamp.ts';
import { postForm, send } from '../support/http.ts';
import { firstStaffPassword, createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const FIRST = 'admin@verticeconsultores.com.do';
const FORMER = 'exempleado@verticeconsultores.com.do';
const FORMER_PASSWORD = 'guayacán-brújula-zafiro-antigua-cuenta-31';

const { server, db } = useSite({ browser: false, env: { ADMIN_EMAILS: FIRST, LOG_LEVEL: 'warn' } });

const DAY_MS = 24 * 60 * 60 * 1000;
let cookie = '';

beforeAll(async () => {
  // The former colleague's account, made while they were on ADMIN_EMAILS; the server's list no longer has them.
  await createStaffAccount(server, { email: FORMER, password: FORMER_PASSWORD }, `${FIRST},${FORMER}`);
  const login = await postForm(server.url, ROUTES.adminLogin, {
    email: FIRST,
    password: firstStaffPassword(server),
  });
  expect(login.status).toBe(303);
  cookie = login.cookies;
});

const html = (text: string) =>
  text
    .replace(/<!--.*?-->/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

describe('an account no longer on ADMIN_EMAILS (finding 1)', () => {
  it('is not offered in Asignar a, cannot be assigned, and an incident assigned to it says so', async () => {
    const former = await db
      .withoutPlugins()
      .selectFrom('user')
      .select('id')
      .where('email', '=', FORMER)
      .executeTakeFirstOrThrow();
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250301-2401' });
    await db.updateTable('incidents').set({ assignedTo: former.id }).where('id', '=', incident.id).execute();

    const path = `${ROUTES.adminIncidents}/${incident.numeroIncidencia}`;
    const page = await send(`${server.url}${path}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const text = html(page.body);
    expect(text).toContain('Asignada a una cuenta sin acceso');
    const select = /<select[^>]*name="asignado"[^>]*>([\s\S]*?)<\/select>/.exec(text)?.[1] ?? '';
    expect(select).toContain(FIRST);
    expect(select).not.toContain(FORMER);
    expect(select).not.toContain(former.id);

    // A forged form naming the former account: refused, nothing changes.
    const forged = await postForm(
      server.url,
      `${path}?_action=incidents.assign`,
      { numero: incident.numeroIncidencia, asignado: former.id },
      { headers: { cookie } },
    );
    expect(forged.status).toBe(400);
    expect(html(forged.body)).toContain('Esa cuenta ya no existe. Elige otra de la lista.');
    const other = await insertIncident(db, { numeroIncidencia: 'INC-20250301-2402' });
    const forgedOther = await postForm(
      server.url,
      `${ROUTES.adminIncidents}/${other.numeroIncidencia}?_action=incidents.assign`,
      { numero: other.numeroIncidencia, asignado: former.id },
      { headers: { cookie } },
    );
    expect(forgedOther.status).toBe(400);
    const row = await db
      .selectFrom('incidents')
      .select('assignedTo')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(row.assignedTo).toBeNull();
  });
});

describe('a follow-up link of an incident resolved long ago (finding 3)', () => {
  async function resolvedIncident(numero: string, resolvedDaysAgo: number): Promise<string> {
    const opened = new Date(Date.now() - (resolvedDaysAgo + 2) * DAY_MS).toISOString();
    const resolved = new Date(Date.now() - resolvedDaysAgo * DAY_MS).toISOString();
    const incident = await insertIncident(
      db,
      { numeroIncidencia: numero, estado: 'Resuelto', fecha: opened, problema: 'La impresora no imprime.' },
      [
        { estado: 'Registrado', fecha: opened, actor: null },
        { estado: 'Resuelto', fecha: resolved, actor: FIRST },
      ],
    );
    return issueFollowUpToken(db, incident.id, new Date(resolved));
  }

  const answer = (token: string) =>
    postForm(
      server.url,
      `${ROUTES.supportTracking}?_action=incidents.answer`,
      { token, respuesta: 'Volvió a fallar.', website: '', startedAt: formStamp() },
      { from: '127.0.0.24' },
    );

  it('shows the history without a Responder box, says how to open a new incident, and refuses an answer', async () => {
    const token = await resolvedIncident('INC-20250301-2403', 31);
    const page = await send(`${server.url}${ROUTES.supportTracking}?token=${token}`);
    expect(page.status).toBe(200);
    const text = html(page.body);
    expect(text).toContain('INC-20250301-2403');
    expect(text).toContain('La impresora no imprime.');
    expect(text).toContain('Resuelto');
    expect(text).not.toContain('name="respuesta"');
    expect(text).toContain('ya no admite respuestas');
    expect(text).toContain(`href="${ROUTES.supportNew}"`);

    const refused = await answer(token);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(html(refused.body)).toContain('ya no admite respuestas');
    const incident = await db
      .selectFrom('incidents')
      .select(['id', 'estado'])
      .where('numeroIncidencia', '=', 'INC-20250301-2403')
      .executeTakeFirstOrThrow();
    expect(incident.estado).toBe('Resuelto');
    expect(
      await db.selectFrom('incidentEntries').select('id').where('incidentId', '=', incident.id).execute(),
    ).toEqual([]);
  });

  it('still takes answers 29 days after the resolution', async () => {
    const token = await resolvedIncident('INC-20250301-2404', 29);
    const page = await send(`${server.url}${ROUTES.supportTracking}?token=${token}`);
    expect(html(page.body)).toContain('name="respuesta"');
    const stored = await answer(token);
    expect(stored.status).toBe(303);
    const incident = await db
      .selectFrom('incidents')
      .select('estado')
      .where('numeroIncidencia', '=', 'INC-20250301-2404')
      .executeTakeFirstOrThrow();
    expect(incident.estado).toBe('En Proceso');
  });
});

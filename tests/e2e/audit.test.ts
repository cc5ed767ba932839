/**
 * The audit log against the production build: a real sign-in, a failed one, a state change, a client
 * added, its welcome mail and a sign-out each leave one event naming the actor and the client network.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertIncident } from '../support/factories.ts';
import { firstStaffEmail, firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, db } = useSite({ browser: false, env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });
let staffEmail = '';

beforeAll(() => {
  staffEmail = firstStaffEmail(server);
});

const events = () => db.selectFrom('auditEvents').selectAll().orderBy('id').execute();

async function signIn(email: string, password: string, ip: string): Promise<Response> {
  return fetch(`${server.url}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({ email, password }),
  });
}

describe('audit log', () => {
  it('records sign-ins, a failed sign-in, a state change, a client added, its welcome mail and the sign-out', async () => {
    expect(staffEmail).not.toBe('');
    const failed = await signIn(staffEmail, 'clave-equivocada-123', '192.0.2.44');
    expect(failed.status).toBe(200);
    const ok = await signIn(staffEmail, firstStaffPassword(server), '198.51.100.21');
    expect(ok.status).toBe(303);
    const cookie = ok.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const user = await db
      .withoutPlugins()
      .selectFrom('user')
      .select('id')
      .where('email', '=', staffEmail)
      .executeTakeFirstOrThrow();
    const staffHeaders = { cookie, origin: server.url, 'x-forwarded-for': '198.51.100.22' };

    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20260101-4242', email: '' });
    const state = await fetch(`${server.url}/_actions/incidents.setState`, {
      method: 'POST',
      headers: { ...staffHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ id: incident.id, estado: 'En Proceso', notificar: false }),
    });
    expect(state.status).toBe(200);

    const created = await fetch(`${server.url}/_actions/clients.create`, {
      method: 'POST',
      headers: staffHeaders,
      body: new URLSearchParams({
        razonSocial: 'Ferretería El Clavo SRL',
        nombreRepresentante: 'Luis Peña',
        telefono: '8095550100',
        email: 'luis@elclavo.example',
        rnc: '101850043',
        tipoProyecto: 'Implementación AdmCloud',
      }),
    });
    expect(created.status).toBe(200);
    const client = await db
      .selectFrom('clients')
      .select('id')
      .where('razonSocial', '=', 'Ferretería El Clavo SRL')
      .executeTakeFirstOrThrow();
    const welcome = await fetch(`${server.url}/_actions/clients.sendWelcome`, {
      method: 'POST',
      headers: { ...staffHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ id: client.id }),
    });
    expect(welcome.status).toBe(200);

    const logout = await fetch(`${server.url}/api/staff/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...staffHeaders, 'x-forwarded-for': '198.51.100.23' },
    });
    expect(logout.status).toBe(303);

    const staff = { actorId: user.id, actorEmail: staffEmail };
    expect(
      (await events()).map(({ action, actorId, actorEmail, network, subject, detail }) => ({
        action,
        actorId,
        actorEmail,
        network,
        subject,
        detail,
      })),
    ).toEqual([
      {
        action: 'signin.failed',
        actorId: null,
        actorEmail: staffEmail,
        network: '192.0.2.44',
        subject: null,
        detail: null,
      },
      { action: 'signin.ok', ...staff, network: '198.51.100.21', subject: null, detail: null },
      {
        action: 'incident.state',
        ...staff,
        network: '198.51.100.22',
        subject: 'INC-20260101-4242',
        detail: 'En Proceso',
      },
      {
        action: 'client.created',
        ...staff,
        network: '198.51.100.22',
        subject: String(client.id),
        detail: 'Ferretería El Clavo SRL',
      },
      {
        action: 'client.welcome',
        ...staff,
        network: '198.51.100.22',
        subject: String(client.id),
        detail: null,
      },
      { action: 'signout', ...staff, network: '198.51.100.23', subject: null, detail: null },
    ]);

    // The same events, in words, under 'Actividad' on the settings page, newest first.
    const again = await signIn(staffEmail, firstStaffPassword(server), '198.51.100.24');
    const page = await fetch(`${server.url}/admin/configuracion`, {
      headers: {
        cookie: again.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .join('; '),
      },
    });
    expect(page.status).toBe(200);
    const activity = (await page.text()).split('id="actividad"')[1] ?? '';
    const labels = [
      'Inicio de sesión',
      'Cierre de sesión',
      'Correo de bienvenida enviado',
      'Cliente agregado',
      'Cambio de estado de incidencia',
      'Inicio de sesión',
      'Intento de inicio de sesión fallido',
    ];
    let from = 0;
    for (const label of labels) {
      const at = activity.indexOf(`${label}`, from);
      expect(at, label).toBeGreaterThan(-1);
      from = at + label.length;
    }
    expect(activity).toContain('INC-20260101-4242');
    expect(activity).toContain('192.0.2.44');
  });
});

/**
 * The one way a staff form is handled (docs/decisions/0012-staff-forms-as-actions.md), over HTTP
 * against the production build: a form posts an action to its page; the middleware runs it once and
 * answers 303 to the page's `?hecho=` outcome on success, or the page again with the refusal's status
 * (400, 404, 409), each field's Spanish message and the values typed — never a password. Over
 * `/_actions/` the same action answers JSON with its status and fields.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALAMOS_FORM } from '../support/factories.ts';
import { postForm } from '../support/http.ts';
import { signInFirstStaff } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, db } = useSite({ env: { LOG_LEVEL: 'warn' } });

let cookie = '';
let clientId = 0;

beforeAll(async () => {
  cookie = await signInFirstStaff(server);
  const created = await postForm(
    server.url,
    '/_actions/clients.create',
    { ...ALAMOS_FORM },
    { headers: { cookie } },
  );
  expect(created.status, created.body).toBe(200);
  clientId = (
    await db
      .selectFrom('clients')
      .select('id')
      .where('email', '=', ALAMOS_FORM.email)
      .executeTakeFirstOrThrow()
  ).id;
});

const edit = (fields: Record<string, string>, path = `/admin/clientes/${clientId}?_action=clients.update`) =>
  postForm(server.url, path, { ...ALAMOS_FORM, ...fields }, { headers: { cookie } });
const versionNow = async () =>
  String(
    (await db.selectFrom('clients').select('version').where('id', '=', clientId).executeTakeFirstOrThrow())
      .version,
  );

describe('a staff form', () => {
  it('answers a saved edit with 303 to the page and its outcome, and the page says so', async () => {
    const saved = await edit({ version: await versionNow(), telefono: '809 555 0143' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/admin/clientes/${clientId}?hecho=editado`);
    expect(
      (await db.selectFrom('clients').select('telefono').where('id', '=', clientId).executeTakeFirstOrThrow())
        .telefono,
    ).toBe('+1 809-555-0143');
  });

  it('renders a refused edit again with 400, the message of each field and every value typed', async () => {
    const refused = await edit({
      version: await versionNow(),
      email: 'no-es-correo',
      razonSocial: 'Tecleado "así" SRL',
      nombreRepresentante: '',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('No se guardaron los cambios. Revisa los campos marcados.');
    expect(refused.body).toContain('Correo electrónico no válido.');
    expect(refused.body).toContain('Este campo es obligatorio.');
    expect(refused.body).toContain('value="no-es-correo"');
    expect(refused.body).toMatch(/value="Tecleado (&quot;|&#34;)así(&quot;|&#34;) SRL"/);
  });

  it('answers a stale edit with 409 and an unknown client with 404, both rendered as pages', async () => {
    const stale = await edit({ version: String(Number(await versionNow()) - 1), telefono: '809 555 0144' });
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('value="809 555 0144"');
    const unknown = await edit({ version: '0' }, '/admin/clientes/999999?_action=clients.update');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('Cliente no encontrado');
  });

  it('answers the same action over /_actions/ as JSON: its status and each field', async () => {
    const refused = await postForm(
      server.url,
      '/_actions/clients.update',
      { ...ALAMOS_FORM, id: String(clientId), version: await versionNow(), email: 'mal' },
      { headers: { cookie } },
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({
      type: 'AstroActionError',
      code: 'BAD_REQUEST',
      fields: { email: 'Correo electrónico no válido.' },
    });
    const anonymous = await postForm(server.url, '/_actions/clients.update', { id: String(clientId) });
    expect(anonymous.status).toBe(401);
  });

  it('never shows a password again: a refused change keeps no password field filled', async () => {
    const secret = 'una-clave-equivocada-7731';
    const refused = await postForm(
      server.url,
      '/admin/configuracion?_action=settings.changePassword',
      { cuenta: 'x', actual: secret, nueva: 'corta', repeticion: 'otra' },
      { headers: { cookie } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('No se cambió la contraseña: revisa los campos marcados.');
    expect(refused.body).not.toContain(secret);
    expect(refused.body).not.toContain('value="corta"');
  });

  it('writes nothing when a staff page is posted without its action', async () => {
    const before = await db
      .selectFrom('clients')
      .select(['telefono', 'version'])
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    const plain = await postForm(
      server.url,
      `/admin/clientes/${clientId}`,
      { ...ALAMOS_FORM, _intent: 'editar', version: String(before.version), telefono: '809 555 0199' },
      { headers: { cookie } },
    );
    expect(plain.status).toBe(200);
    expect(
      await db
        .selectFrom('clients')
        .select(['telefono', 'version'])
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });

  it('imports a previewed CSV once: its confirmation posted again within the hour imports nothing (issue 24, finding 6)', async () => {
    const csv = [
      'Razón social,Nombre del representante,Teléfono,Correo electrónico,RNC o cédula,Tipo de proyecto',
      'Sin Número SRL,Rosa,8095550105,rosa@sin-numero.example,-,AdmCloud',
      'Una Vez SRL,Luis,8095550106,luis@una-vez.example,101850078,AdmCloud',
    ].join('\n');
    const upload = new FormData();
    upload.set('archivo', new File([csv], 'clientes.csv', { type: 'text/csv' }));
    const preview = await fetch(`${server.url}/admin/clientes/importar?_action=clients.importPreview`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
      body: upload,
    });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain('RNC o cédula: no tiene ningún número.');
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
    const confirmation = { firma: hidden('firma'), contenido: hidden('contenido') };
    expect(confirmation.firma).not.toBe('');
    const confirm = () =>
      postForm(server.url, '/admin/clientes/importar?_action=clients.importConfirm', confirmation, {
        headers: { cookie },
      });
    const first = await confirm();
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/admin/clientes/importar?importados=1&omitidas=1');
    const again = await confirm();
    expect(again.status).toBe(400);
    expect(again.body).toContain('Esta vista previa ya se importó.');
    expect(
      await db
        .selectFrom('clients')
        .select('id')
        .where('email', 'in', ['luis@una-vez.example', 'rosa@sin-numero.example'])
        .execute(),
    ).toHaveLength(1);
  });
});

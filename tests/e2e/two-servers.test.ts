/**
 * Several machines behind a load balancer: two server processes on two ports, one PostgreSQL
 * database (a schema of this run's own), the same AUTH_SECRET. Whatever one process knows, the other
 * must know too: sessions, rate limits, the mail outbox and page-view counts live in the database.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgSchema,
  dropPgSchema,
  openDatabase,
  withSearchPath,
  type Db,
} from '../../src/server/db/index.ts';
import { postAction, submitIncident } from '../support/actions.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/db.ts';
import {
  firstStaffPassword,
  generatedFirstPassword,
  startServer,
  TEST_AUTH_SECRET,
  type RunningServer,
} from '../support/server.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp.ts';

const ADMIN = 'admin@verticeconsultores.com.do';

describe.skipIf(!postgresAvailable)('two server processes on one PostgreSQL database', () => {
  const schema = `t2_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  let a: RunningServer;
  let b: RunningServer;
  let smtp: SmtpPeer;
  let db: Db;
  let password = '';

  beforeAll(async () => {
    await createPgSchema(TEST_DATABASE_URL, schema);
    smtp = await startSmtpPeer();
    const env = {
      DATABASE_URL: withSearchPath(TEST_DATABASE_URL, schema),
      // Shared by both; the tests' form start times are signed with it (tests/support/form-stamp.ts).
      AUTH_SECRET: TEST_AUTH_SECRET,
      ADMIN_EMAILS: ADMIN,
      TRUST_PROXY: 'true',
      SMTP_URL: smtp.url,
      FORM_RATE_LIMIT: '5',
      // A burst of incidents is digested every 2 s instead of every 15 minutes, so the test sees them all.
      STAFF_DIGEST_INTERVAL_SECONDS: '2',
      LOG_LEVEL: 'info',
      // Both answer for the same public address, as behind a load balancer.
      SITE_URL: 'http://127.0.0.1:8080',
    };
    // Started together, as a deploy would: migrations and the first staff account must not collide.
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    // Exactly one of them created the first account and wrote its generated password (never printed).
    const written = [a, b].map((server) => generatedFirstPassword(server)).filter((found) => found !== null);
    expect(written).toHaveLength(1);
    for (const server of [a, b]) expect(server.output()).not.toContain(written[0]!.password);
    password = firstStaffPassword(generatedFirstPassword(a) ? a : b);
    db = openDatabase(env.DATABASE_URL).db;
  });

  afterAll(async () => {
    await db?.destroy();
    const codes = await Promise.all([a?.stop(), b?.stop()]);
    await smtp?.stop();
    await dropPgSchema(TEST_DATABASE_URL, schema);
    expect(codes).toEqual([0, 0]);
  });

  function signIn(server: RunningServer, email: string, secret: string, ip: string): Promise<Response> {
    return fetch(`${server.url}/admin-login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: server.url,
        'x-forwarded-for': ip,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ email, password: secret }),
    });
  }

  const queuedMails = async () =>
    Number(
      (
        await db
          .selectFrom('mailOutbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const dashboard = (server: RunningServer, cookie: string) =>
    fetch(`${server.url}/admin`, { redirect: 'manual', headers: { cookie } });

  it('shares sessions: signed in on A works on B; signed out on A is refused on B', async () => {
    const response = await signIn(a, ADMIN, password, '198.51.100.10');
    expect(response.status).toBe(303);
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toMatch(/session_token=/);

    expect((await dashboard(b, cookie)).status).toBe(200);
    expect((await dashboard(a, cookie)).status).toBe(200);

    const out = await fetch(`${a.url}/api/staff/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: a.url },
    });
    expect(out.status).toBe(303);
    const refused = await dashboard(b, cookie);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin-login');
  });

  it("ends another session on every process at once: 'Cerrar las demás sesiones' on A is refused on B", async () => {
    const cookieOf = (response: Response) =>
      response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
    const mine = cookieOf(await signIn(a, ADMIN, password, '198.51.100.11'));
    const other = cookieOf(await signIn(b, ADMIN, password, '198.51.100.12'));
    expect((await dashboard(b, other)).status).toBe(200);
    const ended = await fetch(`${a.url}/admin/configuracion?_action=settings.endOtherSessions`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: mine, origin: a.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({}),
    });
    expect(ended.status).toBeLessThan(400);
    const refused = await dashboard(b, other);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin-login');
    expect((await dashboard(b, mine)).status).toBe(200);
  });

  it("shows an incident created through B on A's kept incident list at the next load, and refuses it there once signed out on B", async () => {
    const cookie = (await signIn(a, ADMIN, password, '198.51.100.13')).headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const list = () => fetch(`${a.url}/admin/incidencias`, { redirect: 'manual', headers: { cookie } });
    // Loaded until A answers from its render cache (src/server/page-cache/).
    await expect
      .poll(async () => (await list()).headers.get('x-render-cache'), { timeout: 15_000 })
      .toBe('hit');
    const created = await submitIncident(b.url, 'caché de la lista', { 'x-forwarded-for': '198.51.100.14' });
    expect(created.numero).toMatch(/^INC-/);
    const after = await list();
    expect(after.headers.get('x-render-cache')).toBeNull();
    expect(await after.text()).toContain(created.numero);

    const out = await fetch(`${b.url}/api/staff/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: b.url },
    });
    expect(out.status).toBe(303);
    const refused = await list();
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin-login');
  });

  it('counts the sign-in limit per IP across both processes', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const server = attempt % 2 ? b : a;
      statuses.push(
        (await signIn(server, `intruso${attempt}@example.com`, 'clave-equivocada-123', '198.51.100.20'))
          .status,
      );
    }
    // 10 sign-ins per IP per 10 minutes in all: the 11th is refused, whichever process gets it.
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await signIn(a, ADMIN, password, '198.51.100.20')).status).toBe(429);
    expect((await signIn(b, ADMIN, password, '198.51.100.21')).status).toBe(303);
  });

  it("shows an article published through one process on the other's blog, feed and sitemap within 5 s, and takes it away after 'Despublicar' (NOTIFY)", async () => {
    const response = await signIn(a, ADMIN, password, '198.51.100.40');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const save = (path: string, fields: Record<string, string>) =>
      fetch(`${a.url}${path}?_action=content.save`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          origin: a.url,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '198.51.100.40',
        },
        body: new URLSearchParams(fields),
      });
    const fields = {
      tipo: 'blog',
      titulo: 'Publicado desde el proceso A',
      slug: 'desde-el-proceso-a',
      resumen: 'Un artículo publicado en un proceso y servido por el otro.',
      cuerpo: 'Texto del artículo.',
    };
    const published = await save('/admin/contenido/nuevo', { ...fields, intencion: 'publicar' });
    expect(published.status).toBe(303);
    const editor = published.headers.get('location')!.replace(/\?.*$/, '');
    const onB = async (path: string) => (await fetch(`${b.url}${path}`)).text();
    const started = Date.now();
    // B's blog, feed and sitemap are rendered into its memory: they change only when B hears of the change.
    await expect
      .poll(() => onB('/blog'), { timeout: 5000, interval: 100 })
      .toContain('/blog/desde-el-proceso-a');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await onB('/rss.xml')).toContain('Publicado desde el proceso A');
    expect(await onB('/sitemap.xml')).toContain('/blog/desde-el-proceso-a');

    const row = await db
      .selectFrom('articles')
      .select(['id', 'version'])
      .where('slug', '=', 'desde-el-proceso-a')
      .executeTakeFirstOrThrow();
    const unpublished = await save(editor, {
      ...fields,
      id: String(row.id),
      version: String(row.version),
      intencion: 'despublicar',
    });
    expect(unpublished.status).toBe(303);
    await expect
      .poll(() => onB('/blog'), { timeout: 5000, interval: 100 })
      .not.toContain('/blog/desde-el-proceso-a');
    expect((await fetch(`${b.url}/blog/desde-el-proceso-a`)).status).toBe(404);
  });

  it("shows a help article published through one process on the other's help centre within 5 s; its search and votes there too", async () => {
    const response = await signIn(a, ADMIN, password, '198.51.100.41');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const published = await fetch(`${a.url}/admin/contenido/nuevo?_action=content.save`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie,
        origin: a.url,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '198.51.100.41',
      },
      body: new URLSearchParams({
        tipo: 'ayuda',
        titulo: 'Facturación desde el proceso A',
        slug: 'ayuda-desde-el-proceso-a',
        resumen: 'Un artículo de ayuda publicado en un proceso y servido por el otro.',
        cuerpo: 'Texto del artículo.',
        etiquetas: 'Facturación',
        intencion: 'publicar',
      }),
    });
    expect(published.status).toBe(303);
    const onB = async (path: string) => (await fetch(`${b.url}${path}`)).text();
    const started = Date.now();
    await expect
      .poll(() => onB('/ayuda'), { timeout: 5000, interval: 100 })
      .toContain('/ayuda/ayuda-desde-el-proceso-a');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await onB('/sitemap.xml')).toContain('/ayuda/ayuda-desde-el-proceso-a');
    expect(await onB('/ayuda?q=facturacion')).toContain('/ayuda/ayuda-desde-el-proceso-a');
    const row = await db
      .selectFrom('articles')
      .select('id')
      .where('slug', '=', 'ayuda-desde-el-proceso-a')
      .executeTakeFirstOrThrow();
    for (const server of [a, b]) {
      const vote = await fetch(`${server.url}/api/ayuda/util`, {
        method: 'POST',
        headers: {
          origin: server.url,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ articulo: String(row.id), voto: 'si' }),
      });
      expect(await vote.json()).toEqual({ contado: true });
    }
    const counts = await db
      .selectFrom('articleVotes')
      .select(['helpful', 'notHelpful'])
      .where('articleId', '=', row.id)
      .executeTakeFirstOrThrow();
    expect([Number(counts.helpful), Number(counts.notHelpful)]).toEqual([2, 0]);
  });

  it("shows an announcement and a hidden logo changed through one process in the other's built pages within 5 s (NOTIFY)", async () => {
    const response = await signIn(a, ADMIN, password, '198.51.100.46');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const post = (path: string, action: string, fields: Record<string, string>) =>
      fetch(`${a.url}${path}?_action=${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          origin: a.url,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': '198.51.100.46',
        },
        body: new URLSearchParams(fields),
      });
    const onB = async (path: string) => (await fetch(`${b.url}${path}`)).text();
    expect(await onB('/')).toContain('alt="Cibao Plast"');
    const created = await post('/admin/anuncios/nuevo', 'announcements.save', {
      titulo: 'Anunciado desde el proceso A',
      mensaje: 'Un anuncio guardado en un proceso y mostrado por el otro.',
      enlace: '/contacto',
      inicio: '2026-01-01',
      fin: '',
    });
    expect(created.status).toBe(303);
    const started = Date.now();
    // B's built pages take the new toast when B hears of the change.
    await expect
      .poll(() => onB('/servicios'), { timeout: 5000, interval: 100 })
      .toContain('Anunciado desde el proceso A');
    expect(Date.now() - started).toBeLessThan(5000);
    const logo = await db
      .selectFrom('clientLogos')
      .select(['id', 'version'])
      .where('name', '=', 'Cibao Plast')
      .executeTakeFirstOrThrow();
    const hidden = await post('/admin/logos', 'logos.visibility', {
      id: String(logo.id),
      version: String(logo.version),
      visible: 'no',
    });
    expect(hidden.status).toBe(303);
    await expect.poll(() => onB('/'), { timeout: 5000, interval: 100 }).not.toContain('alt="Cibao Plast"');
    expect(await onB('/clientes')).not.toContain('alt="Cibao Plast"');
  });

  it('counts the public form limit per IP across both processes', async () => {
    const before = await queuedMails();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const server = attempt % 2 ? b : a;
      const answer = await postAction(
        server.url,
        'contact.send',
        { name: `Persona ${attempt}`, email: `p${attempt}@cliente.example`, message: `Mensaje ${attempt}` },
        { 'x-forwarded-for': '198.51.100.30' },
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Per accepted message, a staff notice and the writer's confirmation (each writer a new address).
    expect(await queuedMails()).toBe(before + 10);
  });

  it('sends every queued mail exactly once while both workers run', async () => {
    // Mails queued by the tests before this one (five contact notices and five confirmations when the whole file runs).
    const earlier = await queuedMails();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        submitIncident(index % 2 ? b.url : a.url, `two-${index}`, {
          'x-forwarded-for': `203.0.113.${index + 1}`,
        }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // A confirmation per incident, and a staff notice for each until the hour's notices are used up;
    // the rest wait for a digest, which either worker queues on its next round.
    expect(await queuedMails()).toBeGreaterThanOrEqual(earlier + 12 + 1);
    const held = () =>
      db.selectFrom('incidents').select('id').where('staffNoticePending', '=', true).execute();
    await expect.poll(async () => (await held()).length, { timeout: 30_000 }).toBe(0);
    const queued = await queuedMails();
    await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(queued);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // room for a duplicate to show up
    expect(smtp.messages).toHaveLength(queued);
    // The text too: two digests may share a subject ("2 incidencias nuevas (resumen)").
    const keys = smtp.messages.map(
      (mail) => `${mail.to && 'text' in mail.to ? mail.to.text : ''}|${mail.subject}|${mail.text}`,
    );
    expect(new Set(keys).size).toBe(queued);
    const rows = await db.selectFrom('mailOutbox').select(['status', 'attempts']).execute();
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    // Both processes sent mail, and their logs add up to one send per row.
    const sentBy = (server: RunningServer) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"mail sent"')).length;
    expect(sentBy(a)).toBeGreaterThan(0);
    expect(sentBy(b)).toBeGreaterThan(0);
    // The log is written asynchronously: the last "mail sent" line may trail the mail itself.
    await expect.poll(() => sentBy(a) + sentBy(b)).toBe(queued);
    // Every incident reached the staff inbox exactly once, in a notice or a digest, whichever process queued it.
    for (const index of Array.from({ length: 12 }, (_, i) => i)) {
      const told = smtp.messages.filter(
        (mail) =>
          (mail.subject?.startsWith('Nueva incidencia') || mail.subject?.endsWith('(resumen)')) &&
          new RegExp(`two-${index}(?!\\d)`).test(mail.text ?? ''),
      );
      expect(told, `two-${index}`).toHaveLength(1);
    }
  });

  it('adds up page views from both processes on either dashboard', async () => {
    for (const [server, path] of [
      [a, '/blog'],
      [a, '/blog'],
      [b, '/productos'],
      [b, '/blog'],
      [a, '/servicios'],
    ] as const) {
      const response = await fetch(`${server.url}/api/pv`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'text/plain' },
        body: path,
      });
      expect(response.status).toBe(204);
    }
    const response = await signIn(b, ADMIN, password, '198.51.100.40');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    // Each process writes the views it counted every few seconds (src/server/analytics).
    for (const server of [a, b]) {
      const visits = async () =>
        /data-testid="visitas-hoy"[^>]*>\s*(?:<!--[^>]*-->)?\s*(\d+)/.exec(
          await (await dashboard(server, cookie)).text(),
        )?.[1];
      await expect.poll(visits, { timeout: 15_000, message: server.url }).toBe('5');
    }
  });
});

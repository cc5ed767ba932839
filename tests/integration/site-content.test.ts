/**
 * Announcements and client logos in the database (issue 23, migration 0036) on both engines: the
 * writers with their version check and audit events, the toast's order and active days, the logos'
 * order ('Subir'/'Bajar', the dragged order), shown/hidden, the uploaded images (SVG sanitised, raster
 * re-encoded), and the one-time import of the files' four announcements and eighteen logos.
 */
import { afterEach, expect, it } from 'vitest';
import sharp from 'sharp';
import { ANNOUNCEMENTS } from '../../src/content/announcements.ts';
import { CLIENTS } from '../../src/content/catalog/clients.ts';
import { describeEvents, recentEvents } from '../../src/server/audit/index.ts';
import {
  activeAnnouncements,
  createAnnouncement,
  deleteAnnouncement,
  listAnnouncements,
  updateAnnouncement,
} from '../../src/server/content/announcements.ts';
import { onContentChange } from '../../src/server/content/changes.ts';
import {
  createClientLogo,
  deleteClientLogo,
  listClientLogos,
  moveClientLogo,
  reorderClientLogos,
  setClientLogoVisible,
  shownClientLogos,
  updateClientLogo,
  uploadedLogoFiles,
  uploadedLogoPath,
} from '../../src/server/content/client-logos.ts';
import { prepareLogoImage } from '../../src/server/content/logo-image.ts';
import { startPublicPages, type FetchedPage } from '../../src/server/content/public-pages.ts';
import { fragmentEnd, fragmentStart } from '../../src/lib/site-fragments.ts';
import { IMMUTABLE, renderedFile, type CachedFile } from '../../src/server/http/static-files.ts';
import { importAnnouncements, importClientLogos } from '../../src/server/content/site-import.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };
const T0 = new Date('2026-03-02T14:00:00.000Z');

const announcement = (overrides: Partial<Parameters<typeof createAnnouncement>[1]> = {}) => ({
  title: 'Nuevo reporte de ventas',
  message: 'Tiendao estrena un reporte de ventas por hora.',
  link: '/producto/tiendao',
  startsOn: '2026-03-01',
  endsOn: null,
  ...overrides,
});

async function svgLogo(name: string) {
  const prepared = await prepareLogoImage(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="72" viewBox="0 0 240 72"><text x="10" y="40">${name}</text></svg>`,
    ),
  );
  if (!prepared.ok) throw new Error(prepared.message);
  return prepared.image;
}

describeEachEngine('announcements and client logos', (database) => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('imports the four announcements once, with their ids as keys and in their order', async () => {
    const { db } = database();
    expect(await importAnnouncements(db, ANNOUNCEMENTS, T0)).toBe(4);
    const stored = await listAnnouncements(db);
    expect(stored.map((item) => item.key)).toEqual(ANNOUNCEMENTS.map((item) => item.id));
    expect(stored.map(({ title, message, link }) => ({ title, message, link }))).toEqual(
      ANNOUNCEMENTS.map(({ title, message, link }) => ({ title, message, link })),
    );
    expect((await activeAnnouncements(db, T0)).length).toBe(4);
    // A second start (or a second process) imports nothing, even after a deletion.
    await deleteAnnouncement(db, stored[0]!.id, stored[0]!.version, ANA, T0);
    expect(await importAnnouncements(db, ANNOUNCEMENTS, T0)).toBeNull();
    expect((await listAnnouncements(db)).length).toBe(3);
  });

  it("imports the eighteen logos once, in order, shown, naming the build's images", async () => {
    const { db } = database();
    expect(await importClientLogos(db, CLIENTS, T0)).toBe(18);
    const logos = await listClientLogos(db);
    expect(logos.map((logo) => logo.name)).toEqual(CLIENTS.map((client) => client.name));
    expect(logos.map((logo) => logo.imageRef)).toEqual(
      CLIENTS.map((client) => `asset:clients/${client.file}`),
    );
    expect(logos.every((logo) => logo.visible && logo.imageWidth === 240 && logo.imageHeight === 72)).toBe(
      true,
    );
    expect(await importClientLogos(db, CLIENTS, T0)).toBeNull();
    expect(await uploadedLogoFiles(db)).toEqual([]);
  });

  it('writes announcements at their version, with audit events, and shows the active ones newest first', async () => {
    const { db } = database();
    let changes = 0;
    stop = await onContentChange(db, () => void (changes += 1));
    const older = await createAnnouncement(
      db,
      announcement({ title: 'Anterior', startsOn: '2026-02-01' }),
      ANA,
      T0,
    );
    const newer = await createAnnouncement(db, announcement({ startsOn: '2026-03-02' }), ANA, T0);
    const future = await createAnnouncement(
      db,
      announcement({ title: 'Mañana', startsOn: '2026-03-03' }),
      ANA,
      T0,
    );
    const ended = await createAnnouncement(
      db,
      announcement({ title: 'Terminado', startsOn: '2026-01-01', endsOn: '2026-03-01' }),
      ANA,
      T0,
    );
    expect(newer.key).toMatch(/^nuevo-reporte-de-ventas-[0-9a-f]{8}$/);
    expect(changes).toBe(4);
    // 10:00 in Santo Domingo on 2 March: the future one has not started, the ended one ended yesterday.
    expect((await activeAnnouncements(db, T0)).map((item) => item.id)).toEqual([newer.id, older.id]);
    // The end day is included, to its last minute in Santo Domingo (03:59 UTC the next day).
    expect(
      (await activeAnnouncements(db, new Date('2026-03-02T03:59:00.000Z'))).map((item) => item.title),
    ).toContain('Terminado');
    expect(
      (await activeAnnouncements(db, new Date('2026-03-03T04:00:00.000Z'))).map((item) => item.id),
    ).toContain(future.id);
    expect(ended.endsOn).toBe('2026-03-01');

    const saved = await updateAnnouncement(
      db,
      newer.id,
      1,
      announcement({ title: 'Reporte por hora' }),
      ANA,
      T0,
    );
    expect(saved).toMatchObject({
      kind: 'saved',
      value: { title: 'Reporte por hora', version: 2, key: newer.key },
    });
    // A second editor with the page of version 1 is refused, and nothing is written.
    const stale = await updateAnnouncement(db, newer.id, 1, announcement({ title: 'Otro' }), ANA, T0);
    expect(stale).toMatchObject({ kind: 'stale', current: { title: 'Reporte por hora', version: 2 } });
    expect(await deleteAnnouncement(db, newer.id, 1, ANA, T0)).toMatchObject({ kind: 'stale' });
    expect(await deleteAnnouncement(db, newer.id, 2, ANA, T0)).toMatchObject({ kind: 'saved' });
    expect(await deleteAnnouncement(db, newer.id, 2, ANA, T0)).toEqual({ kind: 'not-found' });
    const actions = (await recentEvents(db)).map((event) => event.action);
    expect(actions.filter((action) => action === 'announcement.created').length).toBe(4);
    expect(actions).toContain('announcement.edited');
    expect(actions).toContain('announcement.deleted');
    // 'Actividad' names them and links to the one still there.
    const rows = await describeEvents(db, await recentEvents(db));
    expect(
      rows.find(
        (row) => row.action === 'announcement.created' && row.subject?.text === `Anuncio n.º ${older.id}`,
      ),
    ).toMatchObject({
      label: 'Anuncio creado',
      subject: { href: `/admin/anuncios/${older.id}` },
    });
  });

  it('orders logos with Subir and Bajar and by a dragged order, shows and hides them, at their version', async () => {
    const { db } = database();
    const [a, b, c] = [
      await createClientLogo(db, { name: 'Alfa', link: null, visible: true }, await svgLogo('Alfa'), ANA, T0),
      await createClientLogo(
        db,
        { name: 'Beta', link: 'https://beta.example', visible: true },
        await svgLogo('Beta'),
        ANA,
        T0,
      ),
      await createClientLogo(
        db,
        { name: 'Gamma', link: null, visible: true },
        await svgLogo('Gamma'),
        ANA,
        T0,
      ),
    ];
    const names = async () => (await listClientLogos(db)).map((logo) => logo.name);
    expect(await names()).toEqual(['Alfa', 'Beta', 'Gamma']);
    expect(await moveClientLogo(db, c!.id, c!.version, 'subir', ANA, T0)).toMatchObject({ kind: 'saved' });
    expect(await names()).toEqual(['Alfa', 'Gamma', 'Beta']);
    // The first one cannot go up: nothing moves.
    expect(await moveClientLogo(db, a!.id, a!.version, 'subir', ANA, T0)).toMatchObject({ kind: 'saved' });
    expect(await names()).toEqual(['Alfa', 'Gamma', 'Beta']);
    // A page rendered before a move holds an old version: refused.
    expect(await moveClientLogo(db, c!.id, c!.version, 'bajar', ANA, T0)).toMatchObject({ kind: 'stale' });
    const alfa = (await listClientLogos(db))[0]!;
    expect(await moveClientLogo(db, alfa.id, alfa.version, 'bajar', ANA, T0)).toMatchObject({
      kind: 'saved',
    });
    expect(await names()).toEqual(['Gamma', 'Alfa', 'Beta']);
    const versions = new Map((await listClientLogos(db)).map((logo) => [logo.id, logo.version]));
    const dragged = [b!.id, a!.id, c!.id].map((id) => ({ id, version: versions.get(id)! }));
    expect(await reorderClientLogos(db, dragged, ANA, T0)).toBe('saved');
    expect(await names()).toEqual(['Beta', 'Alfa', 'Gamma']);
    // The same dragged list again, from the page rendered before: its versions are old now.
    expect(
      await reorderClientLogos(
        db,
        [c!.id, b!.id, a!.id].map((id) => ({ id, version: versions.get(id)! })),
        ANA,
        T0,
      ),
    ).toBe('stale');
    expect(await names()).toEqual(['Beta', 'Alfa', 'Gamma']);

    const beta = (await listClientLogos(db))[0]!;
    expect(await setClientLogoVisible(db, beta.id, beta.version, false, ANA, T0)).toMatchObject({
      kind: 'saved',
      value: { visible: false },
    });
    expect((await shownClientLogos(db)).map((logo) => logo.name)).toEqual(['Alfa', 'Gamma']);
    const hidden = (await listClientLogos(db))[0]!;
    const edited = await updateClientLogo(
      db,
      hidden.id,
      hidden.version,
      { name: 'Beta SRL', link: null, visible: true },
      null,
      ANA,
      T0,
    );
    expect(edited).toMatchObject({
      kind: 'saved',
      value: { name: 'Beta SRL', visible: true, link: null, imageHash: beta.imageHash },
    });
    expect(await deleteClientLogo(db, c!.id, 1, ANA, T0)).toMatchObject({ kind: 'stale' });
    const gamma = (await listClientLogos(db)).find((logo) => logo.name === 'Gamma')!;
    expect(await deleteClientLogo(db, gamma.id, gamma.version, ANA, T0)).toMatchObject({ kind: 'saved' });
    expect(await names()).toEqual(['Beta SRL', 'Alfa']);
    const actions = (await recentEvents(db)).map((event) => event.action);
    for (const action of ['logo.created', 'logo.moved', 'logo.edited', 'logo.deleted'])
      expect(actions).toContain(action);
  });

  it('keeps an uploaded image in the row: SVG sanitised, PNG re-encoded as WebP, served at an address of its bytes', async () => {
    const { db } = database();
    const evil = await prepareLogoImage(
      Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" onload="alert(1)"><script>alert(2)</script>' +
          '<style>rect{fill:red}</style><a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)"/></a>' +
          '<foreignObject><iframe src="https://evil.example"></iframe></foreignObject><image href="https://evil.example/x.png"/>' +
          '<use href="data:image/svg+xml,x"/><rect fill="url(https://evil.example/#x)" width="1" height="1"/></svg>',
      ),
    );
    expect(evil.ok).toBe(true);
    if (!evil.ok) return;
    const svg = evil.image.data.toString('utf8');
    for (const bad of [
      'script',
      'onload',
      'onclick',
      'javascript:',
      'style',
      'foreignObject',
      'iframe',
      'evil.example',
      'data:',
      '<a',
      '<image',
    ])
      expect(svg).not.toContain(bad);
    expect(svg).toContain('<rect width="10" height="10"></rect>');
    expect(evil.image).toMatchObject({ type: 'image/svg+xml', width: 100, height: 40 });

    const png = await sharp({ create: { width: 800, height: 200, channels: 4, background: '#1a4280' } })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'secreto' } } })
      .toBuffer();
    const raster = await prepareLogoImage(png);
    expect(raster).toMatchObject({ ok: true, image: { type: 'image/webp', width: 400, height: 100 } });
    if (!raster.ok) return;
    expect((await sharp(raster.image.data).metadata()).exif).toBeUndefined();
    expect(await prepareLogoImage(Buffer.from('GIF89a....'))).toMatchObject({
      ok: false,
      message: 'La imagen debe ser PNG, JPEG, WebP o SVG.',
    });
    expect(
      await prepareLogoImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])),
    ).toMatchObject({ ok: false });

    const logo = await createClientLogo(
      db,
      { name: 'Raster', link: null, visible: false },
      raster.image,
      ANA,
      T0,
    );
    const path = uploadedLogoPath(logo);
    expect(path).toBe(`/logos/${logo.id}-${raster.image.hash}.webp`);
    const files = await uploadedLogoFiles(db);
    expect(files).toEqual([{ path, type: 'image/webp', data: raster.image.data }]);
  });

  it('npm run data carries them: keys, dates, order, shown/hidden, uploaded images, and the imports as done', async () => {
    const { db, engine } = database();
    await importAnnouncements(db, ANNOUNCEMENTS, T0);
    await importClientLogos(db, CLIENTS, T0);
    await createAnnouncement(db, announcement({ endsOn: '2026-04-01' }), ANA, T0);
    const uploaded = await createClientLogo(
      db,
      { name: 'Subido', link: 'https://subido.example', visible: false },
      await svgLogo('Subido'),
      ANA,
      T0,
    );
    await moveClientLogo(db, uploaded.id, uploaded.version, 'subir', ANA, T0);
    const exported = JSON.parse(JSON.stringify(await exportData(db))) as unknown;
    const target = await createTestDatabase(engine);
    try {
      const summary = await importData(target.db, exported);
      expect(summary.announcements).toEqual({ imported: 5, skipped: 0, invalid: 0 });
      expect(summary.clientLogos).toEqual({ imported: 19, skipped: 0, invalid: 0 });
      const shape = async (from: typeof db) => ({
        announcements: (await listAnnouncements(from)).map(
          ({ key, title, message, link, startsOn, endsOn }) => ({
            key,
            title,
            message,
            link,
            startsOn,
            endsOn,
          }),
        ),
        logos: (await listClientLogos(from)).map(({ name, imageRef, imageHash, link, visible }) => ({
          name,
          imageRef,
          imageHash,
          link,
          visible,
        })),
        files: await uploadedLogoFiles(from),
      });
      const after = await shape(target.db);
      expect(after.announcements).toEqual((await shape(db)).announcements);
      expect(after.logos).toEqual((await shape(db)).logos);
      expect(after.files.map((file) => file.data)).toEqual((await shape(db)).files.map((file) => file.data));
      // The target never imports the files' announcements and logos again; a second import skips them all.
      expect(await importAnnouncements(target.db, ANNOUNCEMENTS, T0)).toBeNull();
      expect(await importClientLogos(target.db, CLIENTS, T0)).toBeNull();
      const again = await importData(target.db, exported);
      expect(again.announcements).toEqual({ imported: 0, skipped: 5, invalid: 0 });
      expect(again.clientLogos).toEqual({ imported: 0, skipped: 19, invalid: 0 });
    } finally {
      await target.cleanup();
    }
  });

  it('puts the current toast and walls into the built pages at each change; a page that comes out as built keeps its entry', async () => {
    const { db } = database();
    await importAnnouncements(db, ANNOUNCEMENTS, T0);
    // A stand-in for the fragment routes: the active titles and the shown names, from the database.
    const fetchPage = async (path: string): Promise<FetchedPage> => {
      let body = '';
      if (path === '/fragmentos/novedades')
        body = `<aside>${(await activeAnnouncements(db)).map((item) => item.title).join('|')}</aside>`;
      else if (path.startsWith('/fragmentos/logos'))
        body = `<ul>${(await shownClientLogos(db)).map((logo) => logo.name).join('|')}</ul>`;
      return {
        status: path.startsWith('/fragmentos/') ? 200 : 404,
        body: Buffer.from(body),
        contentType: 'text/html; charset=utf-8',
        csp: null,
      };
    };
    const built = async (title: string, wall: string) => {
      const page = `<html><body>${fragmentStart('novedades')}<aside>${title}</aside>${fragmentEnd('novedades')}<main>${fragmentStart('logos-inicio')}<ul>${wall}</ul>${fragmentEnd('logos-inicio')}</main>${'x'.repeat(2000)}</body></html>`;
      return renderedFile(
        Buffer.from(page),
        'text/html; charset=utf-8',
        [['Content-Security-Policy', "script-src 'self'"]],
        T0,
        'quick',
      );
    };
    const asBuilt = await built(ANNOUNCEMENTS.map((item) => item.title).join('|'), '');
    const files = new Map<string, CachedFile>([
      ['/', asBuilt],
      ['/index.html', asBuilt],
    ]);
    const pages = startPublicPages({ db, files, fetchPage, compression: 'quick' });
    try {
      await pages.ready;
      // Imported, nothing differs from the build: the same entry (its compressed copies, ETag, Last-Modified).
      expect(files.get('/')).toBe(asBuilt);
      const logo = await createClientLogo(
        db,
        { name: 'Alfa', link: null, visible: true },
        await svgLogo('Alfa'),
        ANA,
        T0,
      );
      await createAnnouncement(db, announcement({ title: 'Lo nuevo', startsOn: '2020-01-01' }), ANA, T0);
      await pages.refresh();
      const changed = files.get('/')!;
      expect(changed).not.toBe(asBuilt);
      expect(files.get('/index.html')).toBe(changed);
      expect(changed.etag).not.toBe(asBuilt.etag);
      expect(changed.pageHeaders).toEqual(asBuilt.pageHeaders);
      const text = changed.bodies.identity.toString();
      expect(text).toContain(
        `${fragmentStart('novedades')}<aside>${ANNOUNCEMENTS.map((item) => item.title).join('|')}|Lo nuevo</aside>${fragmentEnd('novedades')}`,
      );
      expect(text).toContain(`${fragmentStart('logos-inicio')}<ul>Alfa</ul>${fragmentEnd('logos-inicio')}`);
      expect(changed.bodies.br && changed.bodies.gzip).toBeTruthy();
      // The uploaded image, from memory, for a year.
      const image = files.get(uploadedLogoPath(logo)!)!;
      expect(image.cacheControl).toBe(IMMUTABLE);
      expect(image.contentType).toBe('image/svg+xml');
      // Hidden and the announcement gone: the page follows again.
      await setClientLogoVisible(db, logo.id, logo.version, false, ANA, T0);
      await pages.refresh();
      expect(files.get('/')!.bodies.identity.toString()).toContain(
        `${fragmentStart('logos-inicio')}<ul></ul>${fragmentEnd('logos-inicio')}`,
      );
    } finally {
      await pages.stop();
    }
  });
});

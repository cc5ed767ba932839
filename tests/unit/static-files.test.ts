import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  BUILD_ORIGIN,
  chooseEncoding,
  etagMatches,
  loadStaticFiles,
  precompressBuild,
  renderedFile,
  staticFilesHandler,
  urlPathsOf,
  withSiteOrigin,
  type CachedFile,
  type Encoding,
} from '../../src/server/http/static-files.ts';

const all = new Set<Encoding>(['br', 'gzip', 'identity']);

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, then the plain bytes, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br', all)).toBe('br');
    expect(chooseEncoding('gzip', all)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', all)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0', all)).toBe('identity');
    expect(chooseEncoding('*', all)).toBe('br');
    expect(chooseEncoding('*;q=0, identity', all)).toBe('identity');
    expect(chooseEncoding(undefined, all)).toBe('identity');
    expect(chooseEncoding('deflate', all)).toBe('identity');
  });

  it('offers only what the file has', () => {
    expect(chooseEncoding('br, gzip', new Set<Encoding>(['gzip', 'identity']))).toBe('gzip');
    expect(chooseEncoding('br, gzip', new Set<Encoding>(['identity']))).toBe('identity');
  });
});

describe('etagMatches', () => {
  it('compares weakly across a list, and * matches', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abcd"', 'W/"abc"')).toBe(false);
  });
});

describe('urlPathsOf', () => {
  it('maps index files to their clean URL (trailingSlash never)', () => {
    expect(urlPathsOf('index.html')).toEqual(['/index.html', '/']);
    expect(urlPathsOf('servicios/index.html')).toEqual(['/servicios/index.html', '/servicios']);
    expect(urlPathsOf('_astro/a.css')).toEqual(['/_astro/a.css']);
  });
});

describe('loadStaticFiles', () => {
  it('uses the build’s compressed copies when they match the content, and compresses at start otherwise', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vertice-static-'));
    try {
      const client = join(root, 'client');
      mkdirSync(join(client, 'servicios'), { recursive: true });
      const html = Buffer.from(`<!doctype html><p>${'Servicios de consultoría. '.repeat(200)}</p>`);
      writeFileSync(join(client, 'servicios/index.html'), html);
      writeFileSync(join(client, 'tiny.txt'), 'hola');

      const atStart = await loadStaticFiles(client);
      const page = atStart.get('/servicios')!;
      expect(brotliDecompressSync(page.bodies.br!).equals(html)).toBe(true);
      expect(gunzipSync(page.bodies.gzip!).equals(html)).toBe(true);
      expect(atStart.get('/tiny.txt')!.bodies).toEqual({ identity: Buffer.from('hola') });

      const copies = join(root, 'precompressed');
      expect(await precompressBuild(client, copies)).toBe(1);
      // Brotli is deterministic, so the copy the build wrote is replaced by another valid one (quality 1,
      // other bytes): the loader must serve exactly the file it finds, not compress the page again.
      const [brCopy] = readdirSync(copies).filter((name) => name.endsWith('.br'));
      const [gzCopy] = readdirSync(copies).filter((name) => name.endsWith('.gz'));
      const quick = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
      const quickGzip = gzipSync(html, { level: 1 });
      expect(quick.equals(page.bodies.br!)).toBe(false);
      writeFileSync(join(copies, brCopy!), quick);
      writeFileSync(join(copies, gzCopy!), quickGzip);
      const fromBuild = await loadStaticFiles(client, { precompressedDir: copies });
      expect(fromBuild.get('/servicios')!.bodies.br!.equals(quick)).toBe(true);
      expect(fromBuild.get('/servicios')!.bodies.gzip!.equals(quickGzip)).toBe(true);
      expect(brotliDecompressSync(fromBuild.get('/servicios')!.bodies.br!).equals(html)).toBe(true);
      // A changed file no longer matches its old copies (they are named by content): compressed afresh.
      const changed = Buffer.concat([html, Buffer.from('<p>nuevo</p>')]);
      writeFileSync(join(client, 'servicios/index.html'), changed);
      const afterChange = await loadStaticFiles(client, { precompressedDir: copies });
      expect(brotliDecompressSync(afterChange.get('/servicios')!.bodies.br!).equals(changed)).toBe(true);
      expect(afterChange.get('/servicios')!.etag).not.toBe(page.etag);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('one build, any SITE_URL', () => {
  it('puts the run-time origin where the build wrote its placeholder, and serves best-quality copies once ready', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vertice-site-url-'));
    try {
      const client = join(root, 'client');
      mkdirSync(client, { recursive: true });
      const page = (origin: string) =>
        `<!doctype html><link rel="canonical" href="${origin}/servicios"><a href="https://wa.me/?text=${encodeURIComponent(`${origin}/blog`)}">x</a><p>${'Consultoría. '.repeat(300)}</p>`;
      writeFileSync(join(client, 'index.html'), page(BUILD_ORIGIN));
      const copies = join(root, 'precompressed');
      await precompressBuild(client, copies);

      let recompressed!: (count: number) => void;
      const ready = new Promise<number>((resolve) => (recompressed = resolve));
      const files = await loadStaticFiles(client, {
        precompressedDir: copies,
        siteUrl: 'https://www.ejemplo.com.do/',
        onRecompressed: (count) => recompressed(count),
      });
      const served = files.get('/')!;
      const expected = Buffer.from(page('https://www.ejemplo.com.do'));
      expect(served.bodies.identity.equals(expected)).toBe(true);
      // The build's copies hold the placeholder: they must not be served.
      expect(brotliDecompressSync(served.bodies.br!).equals(expected)).toBe(true);
      expect(gunzipSync(served.bodies.gzip!).equals(expected)).toBe(true);
      expect(await ready).toBe(1);
      const best = served.bodies.br!;
      expect(brotliDecompressSync(best).toString()).toBe(page('https://www.ejemplo.com.do'));
      expect(best.length).toBeLessThanOrEqual(
        brotliCompressSync(Buffer.from(page('https://www.ejemplo.com.do')), {
          params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
        }).length,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps the quick copies when told not to recompress (STATIC_RECOMPRESS=false)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vertice-site-url-'));
    try {
      const client = join(root, 'client');
      mkdirSync(client, { recursive: true });
      const page = (origin: string) =>
        `<!doctype html><link rel="canonical" href="${origin}/"><p>${'Consultoría. '.repeat(300)}</p>`;
      writeFileSync(join(client, 'index.html'), page(BUILD_ORIGIN));
      let recompressed = 0;
      const files = await loadStaticFiles(client, {
        siteUrl: 'https://www.ejemplo.com.do/',
        recompress: false,
        onRecompressed: (count) => (recompressed += count),
      });
      const quick = files.get('/')!.bodies.br!;
      expect(brotliDecompressSync(quick).toString()).toBe(page('https://www.ejemplo.com.do'));
      // The pass would start a second after loading: nothing happens, and the quick copy stays.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(recompressed).toBe(0);
      expect(files.get('/')!.bodies.br).toBe(quick);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves a file without the placeholder untouched', () => {
    const bytes = Buffer.from('<p>sin dirección</p>');
    expect(withSiteOrigin(bytes, 'https://www.ejemplo.com.do')).toBe(bytes);
  });
});

describe('pages rendered at run time (docs/decisions/0019)', () => {
  it('answers them from memory like a built file: encodings, ETag, 304, CSP; gone from the table, the next handler answers; a render request passes by', async () => {
    const files = new Map<string, CachedFile>();
    const html = `<!doctype html><title>Blog</title><p>${'Artículos y guías. '.repeat(200)}</p>`;
    files.set(
      '/blog',
      await renderedFile(
        Buffer.from(html),
        'text/html; charset=utf-8',
        [['Content-Security-Policy', "script-src 'self'"]],
        new Date('2026-03-02T14:00:00Z'),
      ),
    );
    const server = createServer(
      staticFilesHandler(
        files,
        (_req, res) => {
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('ruta');
        },
        { bypass: (req) => req.headers['x-render'] === 'sí' },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const get = (headers: Record<string, string> = {}) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          httpGet(`${base}/blog`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          }).on('error', reject);
        });
      const br = await get({ 'Accept-Encoding': 'br, gzip' });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toBe(html);
      expect(br.headers['content-security-policy']).toBe("script-src 'self'");
      expect(br.headers['last-modified']).toBe('Mon, 02 Mar 2026 14:00:00 GMT');
      const gz = await get({ 'Accept-Encoding': 'gzip' });
      expect(gunzipSync(gz.body).toString()).toBe(html);
      expect((await get()).body.toString()).toBe(html);
      expect((await get({ 'If-None-Match': br.headers.etag! })).status).toBe(304);
      // The same bytes rendered again (or by another process) have the same ETag.
      expect((await renderedFile(Buffer.from(html), 'text/html; charset=utf-8', [])).etag).toBe(
        br.headers.etag,
      );
      expect((await get({ 'x-render': 'sí' })).body.toString()).toBe('ruta');
      files.delete('/blog');
      expect((await get()).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { baseHeaders } from '../../src/server/http/security.ts';
import { BUILD_ORIGIN } from '../../src/server/http/static-files.ts';
import { isPrivatePath } from '../../src/routes.ts';
import { routesUnder, STAFF_ACTIONS } from '../support/routes.ts';
import { formStamp } from '../support/form-stamp.ts';
import { firstStaffPassword, ROOT } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server } = useSite({ browser: false });

function expectBaseHeaders(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('permissions-policy')).toContain('camera=()');
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('x-powered-by')).toBeNull();
  // Plain http here: no HSTS.
  expect(response.headers.get('strict-transport-security')).toBeNull();
}

describe('response headers at the choke point', () => {
  it('are on prerendered pages, which revalidate', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expectBaseHeaders(response);
    expect(response.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    // Astro's hash-based policy, sent as a header (not a <meta>, which could not carry frame-ancestors).
    const csp = response.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toMatch(/'sha256-/);
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(await response.text()).not.toMatch(/http-equiv="content-security-policy"/i);
    expect(response.headers.get('etag') ?? response.headers.get('last-modified')).toBeTruthy();
  });

  it('are on hashed assets, which are cached for a year', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = html.match(/\/_astro\/[^"']+\.css/)?.[0];
    expect(asset).toBeTruthy();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expectBaseHeaders(response);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('are on on-demand routes, and private routes are never cached', async () => {
    for (const path of ['/healthz', '/admin-login']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expectBaseHeaders(response);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('never let a cache keep the follow-up page (the problem text and the conversation) or its answers', async () => {
    const answer = new URLSearchParams({
      token: 'A'.repeat(24),
      respuesta: 'Sigue sin funcionar.',
      website: '',
      startedAt: formStamp(),
    });
    const requests: Array<[string, RequestInit]> = [
      ['/soporte/seguimiento', {}],
      [`/soporte/seguimiento?token=${'A'.repeat(24)}`, {}],
      [
        '/soporte/seguimiento?_action=incidents.answer',
        { method: 'POST', headers: { origin: server.url }, body: answer },
      ],
      [
        '/soporte/seguimiento?_action=incidents.track',
        {
          method: 'POST',
          headers: { origin: server.url },
          body: new URLSearchParams({
            numeroIncidencia: 'INC-20250102-1111',
            email: 'ana@example.com',
            website: '',
            startedAt: formStamp(),
          }),
        },
      ],
    ];
    for (const [path, init] of requests) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
      expect(response.status, path).toBeLessThan(500);
      expectBaseHeaders(response);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('are on the 404 page', async () => {
    const response = await fetch(`${server.url}/no-existe`);
    expect(response.status).toBe(404);
    expectBaseHeaders(response);
  });

  it('are on every route: each page and endpoint (the staff ones signed in), every asset they load, every action answer', async () => {
    // A staff session, so the staff pages answer themselves rather than the redirect.
    const password = firstStaffPassword(server);
    const login = await fetch(`${server.url}/admin-login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'admin@verticeconsultores.com.do', password }),
    });
    expect(login.status).toBe(303);
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');

    // Every route file without parameters, plus every URL of the sitemap (the blog articles).
    const routes = new Set(routesUnder('.').filter((path) => !/\/(1|x)(\.|\/|$)/.test(path)));
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) routes.add(new URL(loc!).pathname);
    expect(routes.size).toBeGreaterThan(25);
    const assets = new Set<string>();
    for (const path of routes) {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: 'manual' });
      // Pages answer themselves (signed in, /admin-login sends on to /admin); error pages and APIs vary;
      // the fragments answer the server's own render requests only (404 to anyone else).
      if (!/^\/(404|413|500|api\/|fragmentos\/)/.test(path))
        expect(response.status, path).toBe(path === '/admin-login' ? 303 : 200);
      expectBaseHeaders(response);
      if (isPrivatePath(path)) expect(response.headers.get('cache-control'), path).toBe('no-store');
      const body = (response.headers.get('content-type') ?? '').includes('html') ? await response.text() : '';
      for (const [, url] of body.matchAll(/(?:src|href|srcset|poster)="([^"]+)"/g)) {
        for (const candidate of url!.split(',').map((part) => part.trim().split(/\s+/)[0]!)) {
          if (candidate.startsWith('/') && !candidate.startsWith('//') && !routes.has(candidate))
            assets.add(candidate.replace(/&amp;/g, '&'));
        }
      }
    }
    const fonts = new Set<string>();
    for (const asset of assets) {
      const response = await fetch(`${server.url}${asset}`, { headers: { cookie } });
      expect(response.status, asset).toBe(200);
      expectBaseHeaders(response);
      if (asset.endsWith('.css'))
        for (const [, url] of (await response.text()).matchAll(/url\((\/_astro\/[^)]+)\)/g)) fonts.add(url!);
    }
    expect([...assets].filter((asset) => asset.startsWith('/_astro/')).length).toBeGreaterThan(10);
    for (const font of fonts) expectBaseHeaders(await fetch(`${server.url}${font}`));

    // Every action, public and staff, whatever it answers to an empty call, and the refusals of the choke point.
    for (const name of ['incidents.create', 'incidents.track', 'contact.send', ...STAFF_ACTIONS]) {
      const response = await fetch(`${server.url}/_actions/${name}`, {
        method: 'POST',
        headers: { cookie, origin: server.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expectBaseHeaders(response);
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
    const crossSite = await fetch(`${server.url}/_actions/contact.send`, {
      method: 'POST',
      headers: { origin: 'https://otro.example' },
      body: new URLSearchParams({ name: 'a' }),
    });
    expect(crossSite.status).toBe(403);
    expectBaseHeaders(crossSite);
    const tooBig = await fetch(`${server.url}/api/pv`, {
      method: 'POST',
      headers: { origin: server.url },
      body: 'x'.repeat(5000),
    });
    expect(tooBig.status).toBe(413);
    expectBaseHeaders(tooBig);
  });

  it('refuse TRACE', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}/`, { method: 'TRACE' }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
  });

  it('never serve dotfiles, the database or the sources', async () => {
    for (const path of [
      '/.env',
      '/.git/config',
      '/data/site.db',
      '/site.db',
      '/package.json',
      '/src/server/config.ts',
      '/%2e%2e/package.json',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      const body = await response.text();
      expect(body).not.toContain('SQLite format');
      expect(body).not.toContain('"dependencies"');
    }
  });
});

describe('baseHeaders', () => {
  it('adds HSTS only when the site is served over https', () => {
    expect(baseHeaders({ SITE_URL: 'https://example.com' })['Strict-Transport-Security']).toMatch(
      /max-age=\d+/,
    );
    expect(baseHeaders({ SITE_URL: 'http://127.0.0.1:4321' })['Strict-Transport-Security']).toBeUndefined();
  });
});

describe('compression', () => {
  it('serves text compressed when the browser accepts it', async () => {
    const { request } = await import('node:http');
    const encoding = await new Promise<string | undefined>((resolve, reject) => {
      const req = request(`${server.url}/`, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        res.resume();
        resolve(res.headers['content-encoding']);
      });
      req.on('error', reject);
      req.end();
    });
    expect(encoding).toBe('br');
  });
});

describe('built files from memory (src/server/http/static-files.ts)', () => {
  // The built file as served: the run-time SITE_URL's origin where the build wrote its placeholder.
  const disk = (path: string) =>
    Buffer.from(
      readFileSync(join(ROOT, 'dist/client', path), 'latin1').replaceAll(
        BUILD_ORIGIN,
        new URL(server.env.SITE_URL!).origin,
      ),
      'latin1',
    );
  const pageCsp = (route: string) =>
    (
      JSON.parse(readFileSync(join(ROOT, 'dist/_headers.json'), 'utf8')) as Array<{
        pathname: string;
        headers: Array<{ key: string; value: string }>;
      }>
    )
      .find((entry) => entry.pathname === route)
      ?.headers.find((header) => header.key === 'Content-Security-Policy')?.value;

  /** Raw request (fetch would decode the body and hide Content-Encoding). */
  function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('sends the bytes of dist/client in brotli, gzip or plain, as Accept-Encoding asks', async () => {
    const original = disk('servicios/index.html');
    const br = await raw('/servicios', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(original.length / 3);

    const gz = await raw('/servicios', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);

    const plain = await raw('/servicios', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    for (const response of [br, gz, plain]) expect(response.headers.vary).toBe('Accept-Encoding');
  });

  it('keeps the headers the adapter sent: page CSP, security headers, type, caching', async () => {
    const page = await fetch(`${server.url}/servicios`);
    expectBaseHeaders(page);
    expect(page.headers.get('content-security-policy')).toBe(pageCsp('/servicios'));
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('public, max-age=0');
    expect(page.headers.get('last-modified')).toBe(
      statSync(join(ROOT, 'dist/client/servicios/index.html')).mtime.toUTCString(),
    );
    expect((await fetch(`${server.url}/`)).headers.get('content-security-policy')).toBe(pageCsp('/'));

    const script = readdirSync(join(ROOT, 'dist/client/_astro')).find((name) => name.endsWith('.js'));
    expect(script).toBeTruthy();
    const asset = await fetch(`${server.url}/_astro/${script}`);
    expectBaseHeaders(asset);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const icon = await raw('/favicon.svg', { 'accept-encoding': 'br' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body.equals(disk('favicon.svg'))).toBe(true); // too small to be worth compressing
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toBe(disk('robots.txt').toString('utf8'));
  });

  it('answers 304 to a matching If-None-Match or If-Modified-Since, with the validators and no body', async () => {
    const first = await raw('/servicios', { 'accept-encoding': 'br' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await raw('/servicios', { 'accept-encoding': 'br', 'if-none-match': `W/"otra", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=0');
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    // The same representation-independent tag whatever the encoding.
    expect((await raw('/servicios', { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    expect((await raw('/servicios', { 'if-none-match': 'W/"otra"' })).status).toBe(200);
    expect((await raw('/servicios', { 'if-modified-since': first.headers['last-modified']! })).status).toBe(
      304,
    );
    expect((await raw('/servicios', { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(
      200,
    );
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await raw('/', { 'accept-encoding': 'gzip' });
    const head = await raw('/', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-type',
      'content-length',
      'content-encoding',
      'etag',
      'cache-control',
      'content-security-policy',
      'vary',
    ]) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('leaves what it does not hold to the adapter: trailing slashes, unknown paths, POST, on-demand routes', async () => {
    const slash = await fetch(`${server.url}/servicios/`, { redirect: 'manual' });
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/servicios');
    expect((await fetch(`${server.url}/servicios/no-existe`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${server.url}/servicios?ref=x`)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseHeaders, isPrivatePath } from '../../src/server/http/security.ts';
import { routesUnder, staffActionNames } from '../support/routes.ts';
import { firstStaffPassword, startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

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
    const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

    // Every route file without parameters, plus every URL of the sitemap (the blog articles).
    const routes = new Set(routesUnder('.').filter((path) => !/\/(1|x)(\.|\/|$)/.test(path)));
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) routes.add(new URL(loc!).pathname);
    expect(routes.size).toBeGreaterThan(25);
    const assets = new Set<string>();
    for (const path of routes) {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: 'manual' });
      // Pages answer themselves (signed in, /admin-login sends on to /admin); error pages and APIs vary.
      if (!/^\/(404|500|api\/)/.test(path)) expect(response.status, path).toBe(path === '/admin-login' ? 303 : 200);
      expectBaseHeaders(response);
      if (isPrivatePath(path)) expect(response.headers.get('cache-control'), path).toBe('no-store');
      const body = (response.headers.get('content-type') ?? '').includes('html') ? await response.text() : '';
      for (const [, url] of body.matchAll(/(?:src|href|srcset|poster)="([^"]+)"/g)) {
        for (const candidate of url!.split(',').map((part) => part.trim().split(/\s+/)[0]!)) {
          if (candidate.startsWith('/') && !candidate.startsWith('//') && !routes.has(candidate)) assets.add(candidate.replace(/&amp;/g, '&'));
        }
      }
    }
    const fonts = new Set<string>();
    for (const asset of assets) {
      const response = await fetch(`${server.url}${asset}`, { headers: { cookie } });
      expect(response.status, asset).toBe(200);
      expectBaseHeaders(response);
      if (asset.endsWith('.css')) for (const [, url] of (await response.text()).matchAll(/url\((\/_astro\/[^)]+)\)/g)) fonts.add(url!);
    }
    expect([...assets].filter((asset) => asset.startsWith('/_astro/')).length).toBeGreaterThan(10);
    for (const font of fonts) expectBaseHeaders(await fetch(`${server.url}${font}`));

    // Every action, public and staff, whatever it answers to an empty call, and the refusals of the choke point.
    for (const name of ['incidents.create', 'incidents.track', 'contact.send', ...staffActionNames()]) {
      const response = await fetch(`${server.url}/_actions/${name}`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': 'application/json' }, body: '{}' });
      expectBaseHeaders(response);
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
    const crossSite = await fetch(`${server.url}/_actions/contact.send`, { method: 'POST', headers: { origin: 'https://otro.example' }, body: new URLSearchParams({ name: 'a' }) });
    expect(crossSite.status).toBe(403);
    expectBaseHeaders(crossSite);
    const tooBig = await fetch(`${server.url}/api/pv`, { method: 'POST', headers: { origin: server.url }, body: 'x'.repeat(5000) });
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
    for (const path of ['/.env', '/.git/config', '/data/site.db', '/site.db', '/package.json', '/src/server/config.ts', '/%2e%2e/package.json']) {
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
    expect(baseHeaders({ SITE_URL: 'https://example.com' })['Strict-Transport-Security']).toMatch(/max-age=\d+/);
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

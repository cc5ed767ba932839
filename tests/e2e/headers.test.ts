import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseHeaders } from '../../src/server/http/security.ts';
import { startServer, type RunningServer } from '../support/server.ts';

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

/**
 * What the server answers around the pages themselves (issue 10): the methods a built page takes, the
 * charset of every HTML response, and the 404 page's own CSP.
 */
import { describe, expect, it } from 'vitest';
import { watchConsole } from '../support/browser.ts';
import { formStamp } from '../support/form-stamp.ts';
import { send } from '../support/http.ts';
import { useSite } from '../support/site.ts';

const { server, browser } = useSite({ shared: true });

describe('serving', () => {
  it('answers 405 with Allow to a write on a built page, and still takes the forms of on-demand pages', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['/', '/contacto', '/blog', '/producto/tiendao']) {
        const response = await send(`${server.url}${path}`, {
          method,
          headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'x=1',
        });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.allow, `${method} ${path}`).toBe('GET, HEAD');
      }
    }
    const form = await send(`${server.url}/soporte/nueva?_action=incidents.create`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `problema=Prueba%20de%20servidor&startedAt=${formStamp()}`,
    });
    expect(form.status).toBe(200);
    expect(form.body).toContain('Tu incidencia ha sido registrada con el número:');
  });

  it('says charset=utf-8 on every HTML response, built or rendered on demand', async () => {
    for (const path of [
      '/',
      '/contacto',
      '/soporte',
      '/soporte/seguimiento',
      '/admin-login',
      '/blog/no-existe',
      '/pagina-inventada',
    ]) {
      const response = await send(`${server.url}${path}`);
      expect(response.headers['content-type'], path).toBe('text/html; charset=utf-8');
    }
  });

  it('gives the 404 page its own CSP, under which its inline script runs', async () => {
    const response = await send(`${server.url}/pagina-inventada`);
    expect(response.status).toBe(404);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src[^;]*'sha256-/);
    expect(csp).toContain("frame-ancestors 'none'");
    const page = await browser.newPage();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/pagina-inventada`);
    await page.waitForLoadState('load');
    // The page's own 404 status is logged by Chromium; anything else (a CSP refusal of its script) is a failure.
    expect(consoleWatch.problems.filter((problem) => !problem.includes('status of 404'))).toEqual([]);
    await page.close();
  });
});

/**
 * Behind a proxy with TRUST_PROXY off every visitor shares the proxy's allowance: a request carrying
 * X-Forwarded-For while the setting is off gets the operator one warning in the log, not one per
 * request (src/server/http/proxy-warning.ts). With TRUST_PROXY=true there is none
 * (tests/e2e/client-networks.test.ts checks that side).
 */
import { describe, expect, it } from 'vitest';
import { send } from '../support/http.ts';
import { useSite } from '../support/site.ts';

const { server } = useSite({ browser: false, env: { TRUST_PROXY: 'false' } });

/** The JSON log lines the server printed so far. */
function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('X-Forwarded-For with TRUST_PROXY off', () => {
  it('is warned about once, naming the setting, however many requests carry it', async () => {
    const requestsTo = (path: string) =>
      logLines().filter((entry) => entry.event === 'request' && entry.path === path).length;
    // Without the header there is nothing to say.
    expect((await send(`${server.url}/servicios`)).status).toBe(200);
    await expect.poll(() => requestsTo('/servicios')).toBe(1);
    expect(logLines().filter((entry) => entry.event === 'proxy.untrusted')).toHaveLength(0);

    const forwarded = [
      send(`${server.url}/`, { headers: { 'x-forwarded-for': '203.0.113.5' } }),
      send(`${server.url}/servicios`, { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.5' } }),
      send(`${server.url}/api/pv`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'text/plain', 'x-forwarded-for': '2001:db8::1' },
        body: '/blog',
      }),
    ];
    for (let index = 0; index < 5; index += 1)
      forwarded.push(
        send(`${server.url}/healthz`, { headers: { 'x-forwarded-for': `192.0.2.${index + 1}` } }),
      );
    expect((await Promise.all(forwarded)).map((response) => response.status)).toEqual([
      200, 200, 204, 200, 200, 200, 200, 200,
    ]);
    // Every one of those requests is logged by now, so the count below is final.
    await expect
      .poll(
        () => requestsTo('/healthz') >= 5 && requestsTo('/api/pv') === 1 && requestsTo('/servicios') === 2,
      )
      .toBe(true);
    const warnings = logLines().filter((entry) => entry.event === 'proxy.untrusted');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, setting: 'TRUST_PROXY' });
    expect(String(warnings[0]?.msg)).toMatch(/TRUST_PROXY is off.*behind a proxy.*share/);
  });
});

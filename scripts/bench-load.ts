/**
 * `npm run bench:load`: throughput and latency of the production server under load (autocannon, on
 * loopback), beside a bare `node:http` server that sends the same bytes as the static page, measured
 * in the same run so the ratio means something on a shared, noisy machine.
 *
 * Options: --no-build, --duration SECONDS (default 10), --connections N (default 10).
 * A benchmark, not a test.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ROOT, startServer, type RunningServer } from '../tests/support/server.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) || fallback : fallback;
};
const duration = option('--duration', 10);
const connections = option('--connections', 10);

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Status codes that count as a success. */
  expect?: number[];
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  unexpected: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs one scenario and reports req/s and exact latency percentiles of every response. */
export async function measure(scenario: Scenario): Promise<Measurement> {
  const latencies: number[] = [];
  let unexpected = 0;
  const expected = new Set(scenario.expect ?? [200]);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: scenario.url, method: scenario.method ?? 'GET', headers: scenario.headers, body: scenario.body, connections, duration },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      if (!expected.has(statusCode)) unexpected += 1;
    });
  });
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    requestsPerSecond: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: result.errors + result.timeouts,
    unexpected,
  };
}

/** A bare node:http server that answers every request with the given bytes and headers. */
async function bareServer(body: Buffer, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Signs in with the staff account the server created on its first start (password printed once). */
async function signInFirstStaff(server: RunningServer): Promise<string> {
  const email = /Cuenta de personal creada: (\S+)/.exec(server.output())?.[1];
  const password = /se muestra una sola vez\): (\S+)/.exec(server.output())?.[1];
  if (!email || !password) throw new Error('El servidor no creó la cuenta de personal inicial.');
  const response = await fetch(`${server.url}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  if (response.status !== 303 || !cookie) throw new Error(`No se pudo iniciar sesión (${response.status}).`);
  return cookie;
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const server: RunningServer = await startServer({ env: { LOG_LEVEL: 'warn', FORM_RATE_LIMIT: '0' } });
  const staticPath = '/servicios';
  const reference = await fetch(`${server.url}${staticPath}`, { headers: { 'accept-encoding': 'identity' } });
  const bytes = Buffer.from(await reference.arrayBuffer());
  const bare = await bareServer(bytes, reference.headers.get('content-type') ?? 'text/html');
  const results: Measurement[] = [];
  try {
    const cookie = await signInFirstStaff(server);
    const incident = new URLSearchParams({
      problema: 'No imprime la factura con NCF desde la caja 2.',
      nombre: 'Cliente de carga',
      telefono: '809-555-0100',
      email: 'carga@cliente.example',
      rnc: '101850043',
    }).toString();
    const scenarios: Scenario[] = [
      { name: `bare node:http, same ${bytes.length} bytes`, url: bare.url },
      { name: `static page ${staticPath}`, url: `${server.url}${staticPath}` },
      { name: 'home page /', url: `${server.url}/` },
      { name: 'health check /healthz (database round trip)', url: `${server.url}/healthz` },
      {
        name: 'incident creation POST /_actions/incidents.create',
        url: `${server.url}/_actions/incidents.create`,
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: incident,
      },
      // After the creation run, so the list has thousands of incidents to page through.
      { name: 'staff incident list /admin/incidencias (signed in)', url: `${server.url}/admin/incidencias`, headers: { cookie } },
    ];
    for (const scenario of scenarios) {
      process.stderr.write(`  ${scenario.name}…\n`);
      results.push(await measure(scenario));
    }
  } finally {
    await bare.close();
    await server.stop();
  }
  const bareRps = results[0]?.requestsPerSecond ?? NaN;
  console.log(`\nautocannon, ${connections} connections, ${duration} s per scenario, loopback\n`);
  console.log('| scenario | req/s | p50 ms | p95 ms | p99 ms | errors | unexpected status |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.unexpected} |`);
  }
  const staticRps = results[1]?.requestsPerSecond ?? NaN;
  console.log(`\nstatic page throughput / bare node:http throughput = ${(staticRps / bareRps).toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

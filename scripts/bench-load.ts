/**
 * `npm run bench:load`: throughput and latency of the production server under load (autocannon, on
 * loopback), beside a bare `node:http` server that sends the same bytes as the static page, measured
 * in the same run so the ratio means something on a shared, noisy machine.
 *
 * A beacon flood (POST /api/pv) is measured alone, from one client network and from a new network
 * per request (the server trusts X-Forwarded-For here, as behind a proxy), then the static page's
 * throughput while the many-network flood runs, as a ratio to the static page alone, in alternating
 * slices of the same run.
 *
 * The flood runs twice: as fast as it goes (on one event loop it then takes its share of the
 * server whatever it costs), and at --flood-rate beacons a second (what a share of the server that
 * many cost).
 *
 * The staff pages (the incident list, one incident, the client list and the staff home, signed in)
 * are each measured beside `/healthz` (one database round trip) in alternating slices, as a ratio to
 * it (issue 40: the list's goal is ≥ 0.5). The list is measured twice: as it is asked for again and
 * again (from the render cache, src/server/page-cache/, after the first render) and with a new ignored
 * query parameter on every request (rendered every time, as without that cache).
 *
 * Options: --no-build, --duration SECONDS (default 10), --connections N (default 10),
 * --flood-rate N (default 200), --staff (only the incidents' creation, to fill the list, and the
 * staff pages beside /healthz), --cpu-prof DIR (the server writes a V8 CPU profile of the run into DIR
 * when it stops).
 * A benchmark, not a test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { formStamp } from '../tests/support/form-stamp.ts';
import { ROOT, signInFirstStaff, startServer, type RunningServer } from '../tests/support/server.ts';
import { publishSampleHelp, SAMPLE_HELP } from './bench/sample-content.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) || fallback : fallback;
};
const duration = option('--duration', 10);
const connections = option('--connections', 10);
const floodRate = option('--flood-rate', 200);
const staffOnly = args.includes('--staff');
const profileDir = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1] : undefined;

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Status codes that count as a success. */
  expect?: number[];
  /** Each request from a client network of its own (a new X-Forwarded-For entry every time). */
  manyNetworks?: boolean;
  /** Requests per second for all connections together (autocannon's `overallRate`); as fast as it goes when unset. */
  rate?: number;
  /**
   * Each request with a query parameter of this name and a new value, which the page ignores: a staff
   * page then never comes from the render cache (src/server/page-cache/), whose key holds the URL.
   */
  uniqueQuery?: string;
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Run {
  requests: number;
  seconds: number;
  latencies: number[];
  errors: number;
  unexpected: number;
}

async function run(scenario: Scenario, seconds: number): Promise<Run> {
  const latencies: number[] = [];
  let unexpected = 0;
  const expected = new Set(scenario.expect ?? [200]);
  // A new network per request: 10.x.y.z counts up through 16 million addresses.
  let next = 0;
  const target = new URL(scenario.url);
  const requests = scenario.uniqueQuery
    ? [
        {
          setupRequest: (request: autocannon.Request) => {
            next += 1;
            const query = new URLSearchParams(target.search);
            query.set(scenario.uniqueQuery!, String(next));
            return { ...request, path: `${target.pathname}?${query}` };
          },
        },
      ]
    : scenario.manyNetworks
      ? [
          {
            setupRequest: (request: autocannon.Request) => {
              next += 1;
              const address = `10.${(next >> 16) & 255}.${(next >> 8) & 255}.${next & 255}`;
              return { ...request, headers: { ...request.headers, 'x-forwarded-for': address } };
            },
          },
        ]
      : undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: scenario.url,
        method: scenario.method ?? 'GET',
        headers: scenario.headers,
        body: scenario.body,
        connections,
        duration: seconds,
        requests,
        overallRate: scenario.rate,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      if (!expected.has(statusCode)) unexpected += 1;
    });
  });
  return {
    requests: latencies.length,
    seconds: result.duration,
    latencies,
    errors: result.errors + result.timeouts,
    unexpected,
  };
}

function summarize(name: string, runs: Run[]): Measurement {
  const latencies = runs.flatMap((item) => item.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((sum, item) => sum + item.seconds, 0);
  return {
    name,
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: runs.reduce((sum, item) => sum + item.errors, 0),
    unexpected: runs.reduce((sum, item) => sum + item.unexpected, 0),
  };
}

/** Runs one scenario and reports req/s and exact latency percentiles of every response. */
export async function measure(scenario: Scenario): Promise<Measurement> {
  return summarize(scenario.name, [await run(scenario, duration)]);
}

/**
 * Measures two scenarios in alternating slices of the same total time, so that a burst of load from
 * elsewhere on a shared machine falls on both alike: the ratio of their throughputs is what is compared.
 */
export async function measurePair(
  first: Scenario,
  second: Scenario,
  slices = 4,
): Promise<[Measurement, Measurement]> {
  const runs: [Run[], Run[]] = [[], []];
  const seconds = Math.max(1, Math.round(duration / slices));
  for (let slice = 0; slice < slices; slice += 1) {
    // Alternate which goes first, so neither always follows the other.
    const order = slice % 2 ? [1, 0] : [0, 1];
    for (const index of order) runs[index as 0 | 1].push(await run(index ? second : first, seconds));
  }
  return [summarize(first.name, runs[0]), summarize(second.name, runs[1])];
}

/**
 * The first scenario alone, and the first while the second floods the same server, in alternating
 * slices of the same total time: [first alone, first under the flood, the flood itself].
 */
export async function measureUnderFlood(
  quiet: Scenario,
  flood: Scenario,
  slices = 4,
): Promise<[Measurement, Measurement, Measurement]> {
  const alone: Run[] = [];
  const flooded: Run[] = [];
  const flooding: Run[] = [];
  const seconds = Math.max(1, Math.round(duration / slices));
  for (let slice = 0; slice < slices; slice += 1) {
    const both = async () => {
      const [quietRun, floodRun] = await Promise.all([run(quiet, seconds), run(flood, seconds)]);
      flooded.push(quietRun);
      flooding.push(floodRun);
    };
    if (slice % 2) {
      await both();
      alone.push(await run(quiet, seconds));
    } else {
      alone.push(await run(quiet, seconds));
      await both();
    }
  }
  return [
    summarize(`${quiet.name}, alone`, alone),
    summarize(`${quiet.name}, during the flood`, flooded),
    summarize(`${flood.name}, beside it`, flooding),
  ];
}

/**
 * A bare node:http server that answers every request with the given bytes, in a process of its own
 * like the site's server (inside this process it would share its thread with autocannon and lose).
 */
async function bareServer(
  body: Buffer,
  contentType: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const source = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY, 'base64');
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': process.env.CONTENT_TYPE, 'content-length': body.length });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['-e', source], {
    env: { BODY: body.toString('base64'), CONTENT_TYPE: contentType },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(chunk.toString().trim());
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  // TRUST_PROXY: the beacon flood plays many clients through X-Forwarded-For, as a proxy would report them.
  const server: RunningServer = await startServer({
    env: {
      LOG_LEVEL: 'warn',
      FORM_RATE_LIMIT: '0',
      TRUST_PROXY: 'true',
      ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(profileDir)}` } : {}),
    },
  });
  const staticPath = '/servicios';
  const reference = await fetch(`${server.url}${staticPath}`, { headers: { 'accept-encoding': 'identity' } });
  const bytes = Buffer.from(await reference.arrayBuffer());
  const bare = await bareServer(bytes, reference.headers.get('content-type') ?? 'text/html');
  const results: Measurement[] = [];
  const floods: { flood: string; ratio: number }[] = [];
  const articles: { article: string; against: string; ratio: number }[] = [];
  const staff: { page: string; ratio: number }[] = [];
  try {
    await measureAll();
  } finally {
    await bare.close();
    await server.stop();
  }
  async function measureAll(): Promise<void> {
    await publishSampleHelp(server.url, server.env.DATABASE_URL!);
    const cookie = await signInFirstStaff(server);
    const incident = new URLSearchParams({
      problema: 'No imprime la factura con NCF desde la caja 2.',
      nombre: 'Cliente de carga',
      telefono: '809-555-0100',
      email: 'carga@cliente.example',
      rnc: '101850043',
      // One signed start time for every request of the run (valid for a day).
      startedAt: formStamp(),
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
    ];
    const beacon = (name: string, manyNetworks: boolean): Scenario => ({
      name,
      url: `${server.url}/api/pv`,
      method: 'POST',
      headers: {
        origin: server.url,
        'content-type': 'text/plain;charset=UTF-8',
        ...(manyNetworks ? {} : { 'x-forwarded-for': '198.51.100.200' }),
      },
      body: '/servicios',
      expect: [204],
      manyNetworks,
    });
    scenarios.push(
      beacon('beacon flood POST /api/pv, one network (past 30 views, refused from memory)', false),
      beacon('beacon flood POST /api/pv, a new network per request (every view counted)', true),
    );
    const [bareScenario, staticScenario, ...others] = scenarios as [Scenario, Scenario, ...Scenario[]];
    if (!staffOnly) {
      process.stderr.write(`  ${bareScenario.name} and ${staticScenario.name}, alternating…\n`);
      results.push(...(await measurePair(bareScenario, staticScenario)));
    }
    for (const scenario of staffOnly ? others.filter((item) => item.method === 'POST').slice(0, 1) : others) {
      process.stderr.write(`  ${scenario.name}…\n`);
      results.push(await measure(scenario));
    }
    // After the creation run, so the list has thousands of incidents to page through.
    const health = { name: 'health check /healthz (beside a staff page)', url: `${server.url}/healthz` };
    const listHtml = await (await fetch(`${server.url}/admin/incidencias`, { headers: { cookie } })).text();
    const numero = /\/admin\/incidencias\/(INC-[0-9]+-[0-9]+)/.exec(listHtml)?.[1];
    if (!numero) throw new Error('The incident list shows no incident to open.');
    const staffPages: Scenario[] = [
      ['staff incident list /admin/incidencias', '/admin/incidencias'],
      [`one incident /admin/incidencias/${numero}`, `/admin/incidencias/${numero}`],
      ['client list /admin/clientes', '/admin/clientes'],
      ['staff home /admin', '/admin'],
    ].map(([name, path]) => ({
      name: `${name} (signed in)`,
      url: `${server.url}${path}`,
      headers: { cookie },
    }));
    // The list rendered for every request, as without the render cache (docs/decisions/0023).
    staffPages.splice(1, 0, {
      ...staffPages[0]!,
      name: 'staff incident list, every request rendered (a new ignored query each time: no render cache)',
      uniqueQuery: 'medida',
    });
    for (const page of staffPages) {
      process.stderr.write(`  ${health.name} and ${page.name}, alternating…\n`);
      const measured = await measurePair(health, page);
      staff.push({ page: page.name, ratio: measured[1].requestsPerSecond / measured[0].requestsPerSecond });
      results.push(...measured);
    }
    if (staffOnly) return;
    // Articles from the database ('Contenido', rendered into memory once per change) against a built,
    // prerendered page of the same memory table, compressed as browsers ask for them. Throughput
    // follows the bytes sent, so each article is set against the built page closest to it in size.
    const compressed = { 'accept-encoding': 'br, gzip' };
    // The bytes sent (fetch would decompress the body: the length of what came is in its header).
    const sizeOf = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers: compressed });
      await response.arrayBuffer();
      return Number(response.headers.get('content-length'));
    };
    const builtPages = await Promise.all(
      [
        '/servicios',
        '/sobrenosotros',
        '/productos',
        '/contacto',
        '/clientes',
        '/producto/admcloud',
        '/producto/tiendao',
      ].map(async (path) => ({ path, bytes: await sizeOf(path) })),
    );
    for (const path of ['/blog/mejor-erp-2025', `/ayuda/${SAMPLE_HELP.slug}`]) {
      const bytes = await sizeOf(path);
      const twin = builtPages.reduce((best, page) =>
        Math.abs(page.bytes - bytes) < Math.abs(best.bytes - bytes) ? page : best,
      );
      const built = {
        name: `prerendered page ${twin.path} (br, ${twin.bytes} bytes)`,
        url: `${server.url}${twin.path}`,
        headers: compressed,
      };
      const article = {
        name: `article from the database ${path} (br, ${bytes} bytes)`,
        url: `${server.url}${path}`,
        headers: compressed,
      };
      process.stderr.write(`  ${built.name} and ${article.name}, alternating…\n`);
      const measured = await measurePair(built, article);
      articles.push({
        article: path,
        against: twin.path,
        ratio: measured[1].requestsPerSecond / measured[0].requestsPerSecond,
      });
      results.push(...measured);
    }
    for (const rate of [undefined, floodRate]) {
      const flood = {
        ...beacon(
          `beacon flood, a new network per request, ${rate ? `${rate}/s` : 'as fast as it goes'}`,
          true,
        ),
        rate,
      };
      process.stderr.write(`  ${staticScenario.name} alone and during a ${flood.name}, alternating…\n`);
      const measured = await measureUnderFlood(staticScenario, flood);
      floods.push({
        flood: flood.name,
        ratio: measured[1].requestsPerSecond / measured[0].requestsPerSecond,
      });
      results.push(...measured);
    }
  }
  const bareRps = results[0]?.requestsPerSecond ?? NaN;
  console.log(
    `\nautocannon, ${connections} connections per scenario (the flood has its own ${connections}), ${duration} s per scenario (the first two, and each static page / flood trio, in alternating slices), loopback\n`,
  );
  console.log('| scenario | req/s | p50 ms | p95 ms | p99 ms | errors | unexpected status |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.unexpected} |`,
    );
  }
  for (const { page, ratio } of staff) {
    console.log(`${page} throughput / /healthz throughput beside it = ${ratio.toFixed(2)}`);
  }
  if (staffOnly) return;
  const staticRps = results[1]?.requestsPerSecond ?? NaN;
  console.log(`\nstatic page throughput / bare node:http throughput = ${(staticRps / bareRps).toFixed(2)}`);
  for (const { article, against, ratio } of articles) {
    console.log(
      `article ${article} throughput / prerendered ${against} throughput = ${ratio.toFixed(2)} (goal ≥ 0.9)`,
    );
  }
  for (const { flood, ratio } of floods) {
    console.log(`static page throughput during a ${flood} / alone = ${ratio.toFixed(2)} (goal ≥ 0.8)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

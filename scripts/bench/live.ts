/**
 * The live half of `npm run bench:admin` (issue 22, docs/decisions/0018): 200 staff browsers (HTTP
 * clients that read `/api/staff/eventos` as an EventSource does) connected to the production server;
 * incidents are opened one after another through the public form's action and the time until each
 * client has the event is recorded (from the moment the form is posted). Target: p95 under 1 s. Then the
 * incident list page's throughput (autocannon, signed in) with the 200 streams open, as a ratio to the
 * same page without them, measured in the same run, in alternating slices. Target: at least 0.8×.
 *
 * SQLite: one server. PostgreSQL (`BENCH_DATABASE_URL`, else `TEST_DATABASE_URL`, else the tests'
 * default server; a schema of its own, dropped afterwards): two servers on the same database, the
 * streams on one and the incidents opened through the other, so that every event crosses processes
 * (LISTEN/NOTIFY). `BENCH_LIVE_CLIENTS`, `BENCH_LIVE_INCIDENTS`, `BENCH_LIVE_SECONDS` change the sizes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  openDatabase,
  withSearchPath,
} from '../../src/server/db/index.ts';
import { postgresProblem } from '../../tests/support/templates.ts';
import { postAction } from '../../tests/support/actions.ts';
import { insertIncidents } from '../../tests/support/factories.ts';
import { eventParser } from '../../tests/support/live.ts';
import { ROOT, signInFirstStaff, startServer, type RunningServer } from '../../tests/support/server.ts';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 200);
const INCIDENTS = Number(process.env.BENCH_LIVE_INCIDENTS ?? 20);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 4);
const SEEDED = 2_000;
/** Slices of the list's throughput without and with the streams, taken in turn. */
const ROUNDS = 4;
const LIST = '/admin/incidencias';

interface Stream {
  /** When each incident's event arrived (performance.now()), by number. */
  seen: Map<string, number>;
  close(): void;
}

/** One staff browser's stream; resolves once the server has answered with the stream's headers and first bytes. */
async function openStream(url: string, cookie: string, onSeen: () => void): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/staff/eventos`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`Sin flujo de eventos: ${response.status}`);
  const seen = new Map<string, number>();
  const parse = eventParser((event) => {
    if (event.data.kind === 'incident.created' && event.data.numero) {
      seen.set(event.data.numero, performance.now());
      onSeen();
    }
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const first = await reader.read();
  if (first.value) parse(first.value);
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parse(value);
      }
    } catch {
      // Aborted at the end.
    }
  })();
  return { seen, close: () => controller.abort() };
}

async function listRate(url: string, cookie: string): Promise<number> {
  const result = await autocannon({
    url: `${url}${LIST}`,
    connections: 8,
    duration: SECONDS,
    headers: { cookie },
  });
  if (result.non2xx || result.errors)
    throw new Error(`La lista respondió con errores (${result.non2xx} no 2xx, ${result.errors} errores).`);
  return result.requests.average;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

interface LiveRow {
  engine: string;
  median: number;
  p95: number;
  max: number;
  delivered: number;
  expected: number;
  without: number;
  withStreams: number;
}

async function benchEngine(engine: 'sqlite' | 'postgres', pgUrl: string): Promise<LiveRow> {
  const schema = `bench_live_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'vertice-bench-live-'));
  let databaseUrl = join(dir, 'site.db');
  if (engine === 'postgres') {
    await createPgSchema(pgUrl, schema);
    databaseUrl = withSearchPath(pgUrl, schema);
  }
  const servers: RunningServer[] = [];
  const streams: Stream[] = [];
  try {
    const { db } = openDatabase(databaseUrl);
    await migrateToLatest(db);
    const day = (index: number) =>
      `2024${String(1 + Math.floor(index / 28_000)).padStart(2, '0')}${String(1 + (Math.floor(index / 1000) % 28)).padStart(2, '0')}`;
    await insertIncidents(
      db,
      Array.from({ length: SEEDED }, (_, index) => ({
        numeroIncidencia: `INC-${day(index)}-${1000 + (index % 1000)}`,
        fecha: new Date(Date.UTC(2024, 0, 1) + index * 60_000).toISOString(),
      })),
    );
    await db.destroy();
    const env = {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      FORM_RATE_LIMIT: '100000',
    };
    // PostgreSQL: the streams on one process, the incidents through another.
    const watched = await startServer({
      env,
      ...(engine === 'sqlite' ? { dataDir: dir, cleanup: false } : {}),
    });
    servers.push(watched);
    const writer = engine === 'postgres' ? await startServer({ env }) : watched;
    if (writer !== watched) servers.push(writer);
    const cookie = await signInFirstStaff(watched);

    // Warm-up.
    await autocannon({ url: `${watched.url}${LIST}`, connections: 4, duration: 2, headers: { cookie } });
    let arrivals = 0;
    let wanted = 0;
    let notify: (() => void) | null = null;
    const onSeen = () => {
      arrivals += 1;
      if (arrivals >= wanted) notify?.();
    };
    async function connectAll(): Promise<void> {
      for (let opened = 0; opened < CLIENTS; opened += 20)
        streams.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(20, CLIENTS - opened) }, () =>
              openStream(watched.url, cookie, onSeen),
            ),
          )),
        );
    }

    async function timeDeliveries(): Promise<void> {
      for (let index = 0; index < INCIDENTS; index++) {
        wanted = (index + 1) * CLIENTS;
        const everyone = new Promise<void>((resolve) => {
          notify = resolve;
          if (arrivals >= wanted) resolve();
        });
        const posted = performance.now();
        const answer = await postAction(
          writer.url,
          'incidents.create',
          {
            problema: `Prueba en vivo ${index}`,
            nombre: 'Cliente en vivo',
            telefono: '809-555-0100',
            email: `vivo+${index}@example.com`,
            rnc: '',
          },
          { 'x-forwarded-for': `192.0.2.${(index % 200) + 1}` },
        );
        if (answer.status !== 200 || !answer.numero)
          throw new Error(`No se creó la incidencia (${answer.status}: ${answer.message ?? ''}).`);
        await Promise.race([everyone, new Promise((resolve) => setTimeout(resolve, 5000))]);
        for (const stream of streams) {
          const at = stream.seen.get(answer.numero);
          if (at !== undefined) latencies.push(at - posted);
        }
      }
    }

    // The list without the streams and with them, in alternating slices (a shared machine's busy
    // moments fall on both alike); the deliveries are timed in the first slice with them.
    let without = 0;
    let withStreams = 0;
    const latencies: number[] = [];
    // Which comes first alternates too, so that neither always follows the other.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) without += await listRate(watched.url, cookie);
      await connectAll();
      if (round === 0) await timeDeliveries();
      withStreams += await listRate(watched.url, cookie);
      for (const stream of streams.splice(0)) stream.close();
      if (round % 2 === 1) without += await listRate(watched.url, cookie);
    }

    const row: LiveRow = {
      engine: engine === 'sqlite' ? 'SQLite' : 'PostgreSQL (2 procesos)',
      median: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: Math.max(...latencies),
      delivered: latencies.length,
      expected: CLIENTS * INCIDENTS,
      without: without / ROUNDS,
      withStreams: withStreams / ROUNDS,
    };
    return row;
  } finally {
    for (const stream of streams) stream.close();
    for (const server of servers) await server.stop();
    if (engine === 'postgres') await dropPgSchema(pgUrl, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLive(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
    console.log('\nEn vivo: no hay compilación (`npm run build`): se omite.');
    return;
  }
  const pgUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  console.log(
    `\nEn vivo (carga de la máquina al empezar: ${loadavg()[0]!.toFixed(1)} en ${availableParallelism()} núcleos): ${CLIENTS} navegadores del personal conectados a /api/staff/eventos, ${INCIDENTS} incidencias nuevas una tras otra; la lista de incidencias (${SEEDED.toLocaleString('es-DO')} incidencias) sin ellos y con ellos, ${ROUNDS} veces ${SECONDS} s cada una, alternadas`,
  );
  const rows = [await benchEngine('sqlite', pgUrl)];
  const problem = await postgresProblem(pgUrl);
  if (problem) console.log(`  PostgreSQL no responde en ${new URL(pgUrl).host} (${problem}): se omite.`);
  else rows.push(await benchEngine('postgres', pgUrl));
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(
    `\n| motor | entregas | mediana | p95 | máx. | objetivo p95 < 1 s | lista sin flujos | con ${CLIENTS} flujos | razón | objetivo ≥ 0,8× |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  let ok = true;
  for (const row of rows) {
    const ratio = row.withStreams / row.without;
    const fast = row.p95 < 1000 && row.delivered === row.expected;
    const kept = ratio >= 0.8;
    ok &&= fast && kept;
    console.log(
      `| ${row.engine} | ${row.delivered}/${row.expected} | ${ms(row.median)} | ${ms(row.p95)} | ${ms(row.max)} | ${fast ? 'cumple' : 'NO cumple'} | ${row.without.toFixed(0)} pet./s | ${row.withStreams.toFixed(0)} pet./s | ${ratio.toFixed(2)}× | ${kept ? 'cumple' : 'NO cumple'} |`,
    );
  }
  console.log(`  (carga de la máquina al terminar: ${loadavg()[0]!.toFixed(1)})`);
  if (!ok) process.exitCode = 1;
}

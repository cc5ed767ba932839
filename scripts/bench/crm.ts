/**
 * The CRM half of `npm run bench:admin` (issue 12): the staff home with its charts at 100,000
 * incidents (with their history) and 365 days of page views, and the client list filtered by project
 * state (`/admin/clientes?estado=…`) at 10,000 clients, on SQLite and on PostgreSQL. Targets: p95
 * under 50 ms and under 30 ms.
 *
 * Each engine gets a fresh database (a temporary SQLite file; a schema of its own on
 * `BENCH_DATABASE_URL`, else `TEST_DATABASE_URL`, else the tests' default server, dropped afterwards).
 * Two measures per scenario, after a warm-up:
 * - "consultas": the queries the page runs, in this process;
 * - "página": the whole page from the production build (`dist/`, built beforehand with `npm run build`),
 *   signed in, over loopback: guard, queries and HTML rendering, as the staff member waits for it.
 *   Skipped with a notice when there is no build.
 *
 * `BENCH_CRM_INCIDENTS` / `BENCH_CRM_CLIENTS` set other sizes (a quick check that it runs).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { PROJECT_STATES } from '../../src/domain/forms/client.ts';
import type { HistoryEntry, IncidentState } from '../../src/domain/incidents.ts';
import { mostViewedPages, visitsOnDay } from '../../src/server/analytics/index.ts';
import { listClients } from '../../src/server/clients/index.ts';
import { loadDashboardCharts } from '../../src/server/dashboard/index.ts';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  openDatabase,
  type Db,
  type DbEngine,
  withSearchPath,
} from '../../src/server/db/index.ts';
import { postgresProblem } from '../../tests/support/templates.ts';
import { clientRow } from '../../src/server/db/index.ts';
import { countIncidentsByState } from '../../src/server/incidents/index.ts';
import { insertIncidents } from '../../tests/support/factories.ts';
import { ROOT, signInFirstStaff, startServer } from '../../tests/support/server.ts';

const INCIDENTS = Number(process.env.BENCH_CRM_INCIDENTS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CRM_CLIENTS ?? 10_000);
const VIEW_DAYS = 365;
const PATHS = 40;
const WARM_UP = 30;
const RUNS = 200;
const DAY = 86_400_000;
const FILTER: (typeof PROJECT_STATES)[number] = 'en curso';

interface Row {
  engine: DbEngine;
  scenario: string;
  measure: string;
  median: number;
  p95: number;
  /**
   * SQLite's queries run in this process: their CPU time too, which a shared machine's load inflates
   * far less than the wall-clock time (on PostgreSQL the work happens in the server, out of sight).
   */
  cpu?: { median: number; p95: number };
  target: number;
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!,
  };
}

async function time(
  run: () => Promise<unknown>,
): Promise<{ median: number; p95: number; cpu: { median: number; p95: number } }> {
  for (let index = 0; index < WARM_UP; index++) await run();
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
  }
  return { ...stats(samples), cpu: stats(cpu) };
}

/**
 * 100,000 incidents over the two years before now (the newest today), each with its history: about
 * 7 in 10 resolved after 1 hour to 10 days (1 in 20 of those reopened and resolved again), the rest
 * taken up or still new.
 */
async function seedIncidents(db: Db, now: number): Promise<void> {
  const span = 730 * DAY;
  const rows = [];
  const histories: HistoryEntry[][] = [];
  for (let index = 0; index < INCIDENTS; index++) {
    const opened = now - span + Math.floor(((index + 0.5) / INCIDENTS) * span);
    const fecha = new Date(opened).toISOString();
    const history: HistoryEntry[] = [{ estado: 'Registrado', fecha, actor: null }];
    const roll = (index * 7919) % 100;
    const taken = opened + ((index * 31) % 48) * 3_600_000;
    if (roll < 90 && taken < now)
      history.push({
        estado: 'En Proceso',
        fecha: new Date(taken).toISOString(),
        actor: 'soporte@example.com',
      });
    const resolved = taken + (1 + ((index * 131) % 240)) * 3_600_000;
    if (roll < 70 && resolved < now) {
      history.push({
        estado: 'Resuelto',
        fecha: new Date(resolved).toISOString(),
        actor: 'soporte@example.com',
      });
      if (roll < 4 && resolved + 2 * DAY < now) {
        history.push({
          estado: 'En Proceso',
          fecha: new Date(resolved + DAY).toISOString(),
          actor: 'soporte@example.com',
        });
        history.push({
          estado: 'Resuelto',
          fecha: new Date(resolved + 2 * DAY).toISOString(),
          actor: 'soporte@example.com',
        });
      }
    }
    histories.push(history);
    rows.push({
      numeroIncidencia: `INC-${fecha.slice(0, 10).replace(/-/g, '')}-${String(index).padStart(6, '0')}`,
      problema: 'Prueba de rendimiento del panel.',
      nombre: 'José Pérez',
      telefono: '809-555-0100',
      email: '',
      rnc: String(100_000_000 + ((index * 7919) % 900_000_000)),
      estado: history.at(-1)!.estado as IncidentState,
      fecha,
    });
  }
  let next = 0;
  await insertIncidents(db, rows, () => histories[next++]!);
}

/** 365 days of page views on 40 paths (every path every day). */
async function seedViews(db: Db, now: number): Promise<void> {
  const values = [];
  for (let day = 0; day < VIEW_DAYS; day++) {
    const date = new Date(now - day * DAY).toISOString().slice(0, 10);
    for (let path = 0; path < PATHS; path++)
      values.push({
        day: date,
        path: path ? `/blog/articulo-${path}` : '/',
        count: 1 + ((day * 13 + path * 7) % 90),
      });
  }
  for (let start = 0; start < values.length; start += 1000)
    await db
      .insertInto('pageViews')
      .values(values.slice(start, start + 1000))
      .execute();
}

/** 10,000 clients in the four project states, 1 in 10 archived. */
async function seedClients(db: Db, now: number): Promise<void> {
  const rows = [];
  for (let index = 0; index < CLIENTS; index++) {
    rows.push(
      clientRow({
        razonSocial: `Empresa de prueba ${index} SRL`,
        nombreRepresentante: 'Ana Pérez',
        telefono: '+1 809-555-0100',
        email: `cliente${index}@example.com`,
        rnc: String(100_000_000 + index),
        tipoProyecto: 'Implementación AdmCloud',
        estadoProyecto: PROJECT_STATES[index % PROJECT_STATES.length]!,
        fechaRegistro: new Date(now - (CLIENTS - index) * 3_600_000).toISOString(),
        archivedAt: index % 10 === 9 ? new Date(now - DAY).toISOString() : null,
      }),
    );
  }
  for (let start = 0; start < rows.length; start += 500)
    await db
      .insertInto('clients')
      .values(rows.slice(start, start + 500))
      .execute();
}

/** The page over HTTP from the production build, signed in as the first staff account. */
async function timePages(
  databaseUrl: string,
  dataDir: string,
): Promise<{ dashboard: { median: number; p95: number }; clients: { median: number; p95: number } }> {
  const server = await startServer({
    dataDir,
    cleanup: false,
    env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  try {
    const cookie = await signInFirstStaff(server);
    const page = (path: string) => async () => {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes('<html')) throw new Error(`${path}: ${response.status}`);
    };
    return {
      dashboard: await time(page('/admin')),
      clients: await time(page(`/admin/clientes?estado=${encodeURIComponent(FILTER)}`)),
    };
  } finally {
    await server.stop();
  }
}

async function benchEngine(engine: DbEngine, pgUrl: string): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vertice-bench-crm-'));
  const schema = `bench_crm_${Date.now().toString(36)}`;
  let db: Db | undefined;
  let databaseUrl = join(dir, 'site.db');
  try {
    if (engine === 'postgres') {
      await createPgSchema(pgUrl, schema);
      databaseUrl = withSearchPath(pgUrl, schema);
    }
    db = openDatabase(databaseUrl).db;
    await migrateToLatest(db);
    const now = Date.now();
    const t0 = performance.now();
    await seedIncidents(db, now);
    await seedViews(db, now);
    await seedClients(db, now);
    // What autovacuum does on a live PostgreSQL (SQLite: the site never runs ANALYZE, so neither do we).
    if (engine === 'postgres')
      await sql.raw('vacuum analyze incidents, incident_events, page_views, clients').execute(db);
    console.log(`  ${engine}: datos sembrados en ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const conn = db;
    // The CPU time means the query work only where the queries run in this process.
    const cpuIfLocal = <T extends { cpu?: unknown }>(measured: T): T =>
      engine === 'sqlite' ? measured : { ...measured, cpu: undefined };
    const dashboardQueries = await time(() =>
      Promise.all([
        visitsOnDay(conn),
        mostViewedPages(conn),
        countIncidentsByState(conn),
        loadDashboardCharts(conn),
      ]),
    );
    const clientQuery = await time(() => listClients(conn, { estado: FILTER }));
    const rows: Row[] = [
      { engine, scenario: 'Panel /admin', measure: 'consultas', ...cpuIfLocal(dashboardQueries), target: 50 },
      {
        engine,
        scenario: `Clientes ?estado=${FILTER}`,
        measure: 'consultas',
        ...cpuIfLocal(clientQuery),
        target: 30,
      },
    ];
    if (existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
      const pages = await timePages(databaseUrl, dir);
      rows.push(
        {
          engine,
          scenario: 'Panel /admin',
          measure: 'página',
          ...pages.dashboard,
          cpu: undefined,
          target: 50,
        },
        {
          engine,
          scenario: `Clientes ?estado=${FILTER}`,
          measure: 'página',
          ...pages.clients,
          cpu: undefined,
          target: 30,
        },
      );
    } else {
      console.log('  (sin dist/: se omite la medida de la página completa; ejecuta antes `npm run build`)');
    }
    return rows;
  } finally {
    await db?.destroy();
    if (engine === 'postgres') await dropPgSchema(pgUrl, schema).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs both engines and prints one table. */
export async function benchCrm(): Promise<void> {
  const pgUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  console.log(
    `\nCRM (carga de la máquina al empezar: ${loadavg()[0]!.toFixed(1)} en ${availableParallelism()} núcleos): panel con ${INCIDENTS.toLocaleString('es-DO')} incidencias y ${VIEW_DAYS} días de visitas; clientes filtrados por estado entre ${CLIENTS.toLocaleString('es-DO')}`,
  );
  const rows: Row[] = [];
  rows.push(...(await benchEngine('sqlite', pgUrl)));
  const problem = await postgresProblem(pgUrl);
  if (problem) console.log(`  PostgreSQL no responde en ${new URL(pgUrl).host} (${problem}): se omite.`);
  else rows.push(...(await benchEngine('postgres', pgUrl)));

  const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);
  console.log(
    `\n  ${'motor'.padEnd(9)}${'escenario'.padEnd(28)}${'medida'.padEnd(11)}${'mediana'.padStart(10)}${'p95'.padStart(11)}${'CPU mediana'.padStart(13)}${'CPU p95'.padStart(11)}  objetivo`,
  );
  for (const row of rows) {
    const verdict = row.p95 < row.target ? 'cumple' : 'NO cumple';
    console.log(
      `  ${row.engine.padEnd(9)}${row.scenario.padEnd(28)}${row.measure.padEnd(11)}${ms(row.median)} ${ms(row.p95)}${row.cpu ? `${ms(row.cpu.median).padStart(13)} ${ms(row.cpu.p95)}` : '—'.padStart(13) + '—'.padStart(11)}  p95 < ${row.target} ms: ${verdict}`,
    );
  }
  console.log(`  (carga de la máquina al terminar: ${loadavg()[0]!.toFixed(1)})`);
  if (rows.some((row) => row.p95 >= row.target)) process.exitCode = 1;
}

/**
 * `npm run bench:admin`: seeds 1,000, 10,000 and 100,000 incidents and reports the median and p95
 * server time of the staff incident list (first page, each filter: the page's own query and parser)
 * at each size, after a warm-up, taking turns between the sizes. Target: p95 under 50 ms at 100,000
 * and less than 2x growth from 1,000 to 100,000.
 *
 * Then the staff pages as the real server renders them (issue 11): one production server per size
 * (`node scripts/start.ts`, as `npm start`) on that size's database, signed in as its first staff
 * account, asked over HTTP for each of {@link PAGE_SCENARIOS}: the incident page of an incident with
 * 20 timeline entries and the list with 'Asignadas a mí' (and more to come: add a scenario there, and
 * its data to {@link seedPages}). Builds first unless `--no-build`. Ends with a table of p95, targets
 * and growth ratios. `--explain` also prints the query plans of the list's filters at the largest size.
 *
 * Uses fresh temporary SQLite files, or `BENCH_DATABASE_URL=postgres://…` (schemas of its own,
 * dropped afterwards). Never touches DATABASE_URL. `BENCH_SIZES=1000,5000` sets other sizes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, createQueryId, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  openDatabase,
  type Db,
  withSearchPath,
} from '../src/server/db/index.ts';
import { INCIDENT_STATES } from '../src/domain/incidents.ts';
import { incidentPath, ROUTES } from '../src/routes.ts';
import { parseIncidentQuery } from '../src/server/incidents/index.ts';
import { listIncidents } from '../src/server/incidents/index.ts';
import { insertIncidents } from '../tests/support/factories.ts';
import { ROOT, signInFirstStaff, startServer, type RunningServer } from '../tests/support/server.ts';
import { benchCrm } from './bench/crm.ts';
import { benchLive } from './bench/live.ts';
import { FIRST, LAST } from './bench/names.ts';
import { benchSearch } from './bench/search.ts';

// `BENCH_SIZES=1000,2000` measures other sizes, e.g. a quick check that the script still runs.
const SIZES = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : [1_000, 10_000, 100_000];
const WARM_UP = 50;
const RUNS = 200;

/** A client with a steady trickle of incidents: ~30 among the first 1,000, ~57 at 10,000, ~84 at 100,000. */
const CLIENT_RNC = '131246757';
function isClientIncident(i: number): boolean {
  return i % (i < 1_000 ? 33 : i < 10_000 ? 330 : 3_300) === 7;
}

// Each case is the page's own query string, read by the page's own parser (parseIncidentQuery).
// Every case but the last fills the first page at every size, so the sizes compare like with like.
const CASES: [string, string][] = [
  ['primera página', ''],
  ['número', 'numero=inc-20240101-000500'], // one incident, pasted from a mail: 1 match, older with each size
  ['nombre', 'nombre=N%C3%BA%C3%B1ez'], // a common surname: 1 in 10
  ['RNC', 'rnc=24675'], // part of one client's RNC
  ['estado', 'estado=En+Proceso'],
  ['nombre + estado', 'nombre=carmen&estado=Resuelto'],
  ['sin resultados', 'nombre=zzzz'],
  // Issue 11: the assignment filters and the sort by last activity ('mías' is staff-0's fifth).
  ['asignadas a mí', 'asignacion=mias'],
  ['sin asignar + estado', 'asignacion=sin-asignar&estado=Registrado'],
  ['última actividad', 'orden=actividad'],
  ['mías + actividad', 'asignacion=mias&orden=actividad'],
  ['estado + actividad', 'estado=Resuelto&orden=actividad'],
];
/** Who 'Asignadas a mí' means in the in-process cases above. */
const LIST_VIEWER = { staffId: 'staff-0' };

/** Incidents `from` to `to`, one a minute from 2024-01-01, through the tests' factory (the site's row writer). */
async function seed(db: Db, from: number, to: number): Promise<void> {
  const start = Date.parse('2024-01-01T00:00:00Z');
  const rows = [];
  for (let i = from; i < to; i++) {
    const fecha = new Date(start + i * 60_000).toISOString();
    rows.push({
      numeroIncidencia: `INC-${fecha.slice(0, 10).replace(/-/g, '')}-${String(i).padStart(6, '0')}`,
      problema: 'Prueba de rendimiento del listado de incidencias.',
      nombre: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / 7) % LAST.length]}`,
      telefono: '809-555-0100',
      email: '',
      rnc: isClientIncident(i) ? CLIENT_RNC : String(100_000_000 + ((i * 7919) % 900_000_000)),
      estado: INCIDENT_STATES[i % INCIDENT_STATES.length]!,
      fecha,
      // Five staff members share four fifths of the incidents; one in five is unassigned. The bench's
      // own account takes over `staff-0`'s (seedPages), a fifth of every size.
      assignedTo: i % 5 === 4 ? null : `staff-${i % 5}`,
      // Some activity up to ~two days after the creation, so the two sorts differ.
      lastActivityAt: new Date(Date.parse(fecha) + ((i * 7919) % 3_000) * 60_000).toISOString(),
      customerWaiting: i % 50 === 3,
    });
  }
  await insertIncidents(db, rows);
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!,
  };
}

interface Sized {
  size: number;
  db: Db;
  describe: string;
  /** The DATABASE_URL that points a server at this size's database. */
  url: string;
}

const ms = (value: number) => value.toFixed(2).padStart(7);
const thousands = (value: number) => value.toLocaleString('es-DO');

// ---------------------------------------------------------------------------------------------
// Staff pages rendered by the real server, over HTTP. A scenario is a path per size (its data
// prepared by seedPages) and a p95 target at the largest size; every scenario must also grow less
// than 2x from the smallest size to the largest.

interface PageContext {
  size: number;
  db: Db;
  server: RunningServer;
  cookie: string;
  /** The signed-in staff account (Better Auth's user id): 'Asignadas a mí' means it. */
  staffId: string;
  /** The incident with 20 timeline entries. */
  numero: string;
}

interface PageScenario {
  name: string;
  /** p95 target at the largest size, in ms. */
  goal: number;
  path(context: PageContext): string;
  /** What a right answer holds (checked once per size before measuring). */
  check(html: string): boolean;
}

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

const PAGE_SCENARIOS: PageScenario[] = [
  {
    name: 'página de la incidencia (20 entradas)',
    goal: 30,
    path: ({ numero }) => incidentPath(numero),
    // The problem plus 9 state changes (the creation entry is the problem) and 10 entries.
    check: (html) => count(html, /data-tipo="/g) === 20,
  },
  {
    name: "listado 'Asignadas a mí'",
    goal: 50,
    path: () => `${ROUTES.adminIncidents}?asignacion=mias`,
    check: (html) => count(html, /data-incidencia="/g) === 20,
  },
];
const PAGE_WARM_UP = 30;
const PAGE_RUNS = 200;

/** The seeded number of the i-th incident (as `seed` writes it). */
function seededNumber(i: number): string {
  const fecha = new Date(Date.parse('2024-01-01T00:00:00Z') + i * 60_000).toISOString();
  return `INC-${fecha.slice(0, 10).replace(/-/g, '')}-${String(i).padStart(6, '0')}`;
}

/**
 * What the page scenarios need in one size's database, once its server has made the staff account:
 * staff-0's incidents become that account's (a fifth of them), and the incident in the middle gets a
 * timeline of 20 entries: the creation and 9 state changes (incident_events), and 10 replies, answers
 * and notes (incident_entries).
 */
async function seedPages(db: Db, size: number, staffId: string, staffEmail: string): Promise<string> {
  await db
    .updateTable('incidents')
    .set({ assignedTo: staffId })
    .where('assignedTo', '=', 'staff-0')
    .execute();
  const numero = seededNumber(Math.floor(size / 2));
  const incident = await db
    .selectFrom('incidents')
    .select(['id', 'fecha'])
    .where('numeroIncidencia', '=', numero)
    .executeTakeFirstOrThrow();
  const at = (step: number) => new Date(Date.parse(incident.fecha) + step * 60 * 60_000).toISOString();
  await db
    .insertInto('incidentEvents')
    .values(
      Array.from({ length: 9 }, (_, step) => ({
        incidentId: incident.id,
        estado: INCIDENT_STATES[(step + 1) % INCIDENT_STATES.length]!,
        fecha: at(2 * step + 1),
        actor: staffEmail,
      })),
    )
    .execute();
  const kinds = ['reply', 'answer', 'note'] as const;
  await db
    .insertInto('incidentEntries')
    .values(
      Array.from({ length: 10 }, (_, step) => {
        const kind = kinds[step % kinds.length]!;
        return {
          incidentId: incident.id,
          kind,
          authorId: kind === 'answer' ? null : staffId,
          authorEmail: kind === 'answer' ? null : staffEmail,
          body: `Entrada ${step + 1} de la conversación.\nCon una segunda línea.`,
          createdAt: at(2 * step + 2),
        };
      }),
    )
    .execute();
  return numero;
}

/** One production server per size on that size's database, signed in, with seedPages' data. */
async function startPageServers(databases: Sized[], pgUrl: string | undefined): Promise<PageContext[]> {
  const contexts: PageContext[] = [];
  try {
    for (const { size, db, url } of databases) {
      const server = await startServer({ env: { DATABASE_URL: url, LOG_LEVEL: 'warn' } });
      try {
        const cookie = await signInFirstStaff(server);
        const email = /Cuenta de personal creada: (\S+)/.exec(server.output())![1]!;
        const account = await db
          .withoutPlugins()
          .selectFrom('user')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        const numero = await seedPages(db, size, account.id, email);
        if (pgUrl) await sql.raw('vacuum analyze incidents, incident_events, incident_entries').execute(db);
        contexts.push({ size, db, server, cookie, staffId: account.id, numero });
      } catch (error) {
        await server.stop();
        throw error;
      }
    }
  } catch (error) {
    for (const { server } of contexts) await server.stop();
    throw error;
  }
  return contexts;
}

async function timedGet(context: PageContext, path: string): Promise<{ time: number; html: string }> {
  const t0 = performance.now();
  const response = await fetch(`${context.server.url}${path}`, { headers: { cookie: context.cookie } });
  const html = await response.text();
  const time = performance.now() - t0;
  if (response.status !== 200)
    throw new Error(`${path} respondió ${response.status} (${thousands(context.size)})`);
  return { time, html };
}

/** p50/p95 of each scenario at each size: a warm-up, then requests taking turns between the sizes. */
async function measurePages(
  contexts: PageContext[],
  scenarios: PageScenario[],
): Promise<Map<string, { median: number; p95: number }[]>> {
  const results = new Map<string, { median: number; p95: number }[]>();
  for (const scenario of scenarios) {
    for (const context of contexts) {
      const { html } = await timedGet(context, scenario.path(context));
      if (!scenario.check(html))
        throw new Error(
          `«${scenario.name}» no muestra lo esperado a ${thousands(context.size)} incidencias.`,
        );
    }
    for (let run = 0; run < PAGE_WARM_UP; run++)
      for (const context of contexts) await timedGet(context, scenario.path(context));
    const samples = contexts.map(() => [] as number[]);
    for (let run = 0; run < PAGE_RUNS; run++)
      for (const [index, context] of contexts.entries())
        samples[index]!.push((await timedGet(context, scenario.path(context))).time);
    results.set(scenario.name, samples.map(stats));
  }
  return results;
}

function printPageTable(
  engine: string,
  sizes: number[],
  scenarios: PageScenario[],
  results: Map<string, { median: number; p95: number }[]>,
): boolean {
  // A shared machine's other work lands in the p95: the load average tells the reader how much there was.
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
  console.log(
    `\nPáginas del personal servidas por el servidor real (${engine}), ${PAGE_RUNS} peticiones por tamaño, carga del sistema (1/5/15 min) ${load} en ${availableParallelism()} núcleos:\n`,
  );
  const sizeColumns = sizes.map((size) => `p95 a ${thousands(size)}`);
  console.log(
    `| página | ${sizeColumns.join(' | ')} | mediana a ${thousands(sizes.at(-1)!)} | crecimiento p95 | objetivo | resultado |`,
  );
  console.log(`|---|${sizes.map(() => '---|').join('')}---|---|---|---|`);
  let allOk = true;
  for (const scenario of scenarios) {
    const bySize = results.get(scenario.name)!;
    const growth = bySize.at(-1)!.p95 / bySize[0]!.p95;
    const ok = bySize.at(-1)!.p95 < scenario.goal && growth < 2;
    allOk &&= ok;
    console.log(
      `| ${scenario.name} | ${bySize.map((r) => `${r.p95.toFixed(2)} ms`).join(' | ')} | ${bySize.at(-1)!.median.toFixed(2)} ms | ${growth.toFixed(2)}x | < ${scenario.goal} ms y < 2x | ${ok ? 'cumple' : 'NO cumple'} |`,
    );
  }
  return allOk;
}

// ---------------------------------------------------------------------------------------------
// `--explain`: the plans of the list's queries, as listIncidents sends them, at the largest size.

const EXPLAIN_CASES = CASES.filter(([, query]) => /asignacion|orden|estado/.test(query));

async function explainList(db: Db, postgres: boolean): Promise<void> {
  const captured: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      captured.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const recording = db.withPlugin(recorder);
  for (const [name, query] of EXPLAIN_CASES) {
    captured.length = 0;
    const { filters } = parseIncidentQuery(new URLSearchParams(query));
    await listIncidents(recording, filters, 1, undefined, LIST_VIEWER);
    console.log(`\n== ${name} (${query})`);
    for (const node of captured) {
      const compiled = recording.getExecutor().compileQuery(node, createQueryId());
      // The page's query is what depends on the size; the rest reads those 20 rows (and histories) by key.
      if (!/order by/i.test(compiled.sql) || /"id" in \(|from "incident_events"/.test(compiled.sql)) continue;
      const plan = await db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`explain ${postgres ? '' : 'query plan '}${compiled.sql}`, [
          ...compiled.parameters,
        ]),
      );
      console.log(`  ${compiled.sql.replace(/\s+/g, ' ')}`);
      for (const row of plan.rows) console.log(`    ${String(row['QUERY PLAN'] ?? row.detail)}`);
    }
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!args.includes('--no-build'))
    execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const stamp = Date.now().toString(36);
  const dir = pgUrl ? null : mkdtempSync(join(tmpdir(), 'vertice-bench-'));
  const databases: Sized[] = [];
  let servers: PageContext[] = [];
  try {
    // One database per size, all open at once: the measurements below take turns between them, so
    // that a busy moment of a shared machine falls on every size alike instead of on one of them.
    for (const size of SIZES) {
      let opened;
      let url;
      if (pgUrl) {
        const schema = `bench_${stamp}_${size}`;
        await createPgSchema(pgUrl, schema);
        opened = openDatabase(pgUrl, { schema });
        url = withSearchPath(pgUrl, schema);
      } else {
        url = join(dir!, `bench-${size}.db`);
        opened = openDatabase(url);
      }
      databases.push({ size, url, ...opened });
      await migrateToLatest(opened.db);
      await seed(opened.db, 0, size);
      // What autovacuum does on a live PostgreSQL: fresh statistics for the planner. (SQLite: the
      // site never runs ANALYZE, so neither does the benchmark; its planner works without statistics.)
      if (pgUrl) await sql.raw('vacuum analyze incidents, incident_events').execute(opened.db);
    }
    console.log(
      `Base de datos: ${databases[0]!.describe.replace(/_1000\b/, '_<tamaño>').replace(/bench-1000/, 'bench-<tamaño>')}\n`,
    );

    // Warm-up: the JIT compiles our code and Kysely's, connections and page caches fill, as on a
    // server that has been running; otherwise the first size measured would be measured cold.
    for (let run = 0; run < WARM_UP; run++) {
      for (const [, query] of CASES)
        for (const { db } of databases)
          await listIncidents(
            db,
            parseIncidentQuery(new URLSearchParams(query)).filters,
            1,
            undefined,
            LIST_VIEWER,
          );
    }

    const results = new Map<string, { median: number; p95: number }[]>();
    for (const [name, query] of CASES) {
      const { filters, page } = parseIncidentQuery(new URLSearchParams(query));
      const samples = databases.map(() => [] as number[]);
      for (let run = 0; run < RUNS; run++) {
        for (const [index, { db }] of databases.entries()) {
          const t0 = performance.now();
          await listIncidents(db, filters, page, undefined, LIST_VIEWER);
          samples[index]!.push(performance.now() - t0);
        }
      }
      results.set(name, samples.map(stats));
    }

    for (const [index, { size }] of databases.entries()) {
      console.log(`${thousands(size)} incidencias`);
      for (const [name, bySize] of results)
        console.log(
          `  ${name.padEnd(20)} mediana ${ms(bySize[index]!.median)} ms   p95 ${ms(bySize[index]!.p95)} ms`,
        );
      console.log('');
    }
    console.log(
      `Crecimiento de ${thousands(SIZES[0]!)} a ${thousands(SIZES.at(-1)!)} (objetivo: p95 < 50 ms y < 2x):`,
    );
    for (const [name, bySize] of results) {
      const first = bySize[0]!;
      const last = bySize.at(-1)!;
      const growth = last.p95 / first.p95;
      const ok = last.p95 < 50 && growth < 2 ? 'cumple' : 'NO cumple';
      console.log(
        `  ${name.padEnd(20)} p95 ${growth.toFixed(2)}x (mediana ${(last.median / first.median).toFixed(2)}x)  p95 ${last.p95.toFixed(2)} ms  ${ok}`,
      );
    }

    if (args.includes('--explain')) await explainList(databases.at(-1)!.db, Boolean(pgUrl));

    servers = await startPageServers(databases, pgUrl);
    const pages = await measurePages(servers, PAGE_SCENARIOS);
    if (!printPageTable(pgUrl ? 'PostgreSQL' : 'SQLite', SIZES, PAGE_SCENARIOS, pages)) process.exitCode = 1;
  } finally {
    for (const { server } of servers) await server.stop();
    for (const { db, size } of databases) {
      await db.destroy();
      if (pgUrl) await dropPgSchema(pgUrl, `bench_${stamp}_${size}`);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// Then the CRM scenarios of issue 12 (scripts/bench/crm.ts), the live updates (scripts/bench/live.ts)
// and the search (scripts/bench/search.ts) of issue 22; `BENCH_ONLY=incidents`, `crm`, `live` or
// `search` runs one part alone.
const only = process.env.BENCH_ONLY;
const runs = (part: string) => !only || only === part;
(runs('incidents') ? main() : Promise.resolve())
  .then(() => (runs('crm') ? benchCrm() : undefined))
  .then(() => (runs('live') ? benchLive() : undefined))
  .then(() => (runs('search') ? benchSearch() : undefined))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });

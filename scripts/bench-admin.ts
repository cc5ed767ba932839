/**
 * `npm run bench:admin`: seeds 1,000, 10,000 and 100,000 incidents and reports the median and p95
 * server time of the staff incident list (first page, each filter: the page's own query and parser)
 * at each size, after a warm-up, taking turns between the sizes. Target: p95 under 50 ms at 100,000
 * and less than 2x growth from 1,000 to 100,000.
 *
 * Uses fresh temporary SQLite files, or `BENCH_DATABASE_URL=postgres://…` (schemas of its own,
 * dropped afterwards). Never touches DATABASE_URL. `BENCH_SIZES=1000,5000` sets other sizes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  openDatabase,
  type Db,
} from '../src/server/db/index.ts';
import { INCIDENT_STATES } from '../src/domain/incidents.ts';
import { listIncidents, parseIncidentQuery } from '../src/server/incidents/staff.ts';
import { insertIncidents } from '../tests/support/factories.ts';
import { benchCrm } from './bench/crm.ts';

// `BENCH_SIZES=1000,2000` measures other sizes, e.g. a quick check that the script still runs.
const SIZES = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : [1_000, 10_000, 100_000];
const WARM_UP = 50;
const RUNS = 200;
const FIRST = ['José', 'María', 'Ana', 'Pedro', 'Luis', 'Carmen', 'Rafael', 'Yolanda', 'Juan', 'Altagracia'];
const LAST = [
  'Pérez',
  'Gómez',
  'Núñez',
  'Rodríguez',
  'Martínez',
  'Santos',
  'Reyes',
  'Almonte',
  'Báez',
  'Castillo',
];

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
];

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
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const stamp = Date.now().toString(36);
  const dir = pgUrl ? null : mkdtempSync(join(tmpdir(), 'vertice-bench-'));
  const databases: Sized[] = [];
  try {
    // One database per size, all open at once: the measurements below take turns between them, so
    // that a busy moment of a shared machine falls on every size alike instead of on one of them.
    for (const size of SIZES) {
      let opened;
      if (pgUrl) {
        await createPgSchema(pgUrl, `bench_${stamp}_${size}`);
        opened = openDatabase(pgUrl, { schema: `bench_${stamp}_${size}` });
      } else {
        opened = openDatabase(join(dir!, `bench-${size}.db`));
      }
      databases.push({ size, ...opened });
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
          await listIncidents(db, parseIncidentQuery(new URLSearchParams(query)).filters);
    }

    const results = new Map<string, { median: number; p95: number }[]>();
    for (const [name, query] of CASES) {
      const { filters, page } = parseIncidentQuery(new URLSearchParams(query));
      const samples = databases.map(() => [] as number[]);
      for (let run = 0; run < RUNS; run++) {
        for (const [index, { db }] of databases.entries()) {
          const t0 = performance.now();
          await listIncidents(db, filters, page);
          samples[index]!.push(performance.now() - t0);
        }
      }
      results.set(name, samples.map(stats));
    }

    const ms = (value: number) => value.toFixed(2).padStart(7);
    for (const [index, { size }] of databases.entries()) {
      console.log(`${size.toLocaleString('es-DO')} incidencias`);
      for (const [name, bySize] of results)
        console.log(
          `  ${name.padEnd(16)} mediana ${ms(bySize[index]!.median)} ms   p95 ${ms(bySize[index]!.p95)} ms`,
        );
      console.log('');
    }
    console.log(
      `Crecimiento de ${SIZES[0]!.toLocaleString('es-DO')} a ${SIZES.at(-1)!.toLocaleString('es-DO')} (objetivo: p95 < 50 ms y < 2x):`,
    );
    for (const [name, bySize] of results) {
      const first = bySize[0]!;
      const last = bySize.at(-1)!;
      const growth = last.p95 / first.p95;
      const ok = last.p95 < 50 && growth < 2 ? 'cumple' : 'NO cumple';
      console.log(
        `  ${name.padEnd(16)} p95 ${growth.toFixed(2)}x (mediana ${(last.median / first.median).toFixed(2)}x)  p95 ${last.p95.toFixed(2)} ms  ${ok}`,
      );
    }
  } finally {
    for (const { db, size } of databases) {
      await db.destroy();
      if (pgUrl) await dropPgSchema(pgUrl, `bench_${stamp}_${size}`);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// Then the CRM scenarios of issue 12 (scripts/bench/crm.ts); `BENCH_ONLY=crm` runs those alone.
(process.env.BENCH_ONLY === 'crm' ? Promise.resolve() : main())
  .then(() => benchCrm())
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });

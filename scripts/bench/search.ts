/**
 * The search half of `npm run bench:admin` (issue 22): `/admin/buscar?q=…` at 100,000 incidents with 10
 * conversation entries each, 100,000 contact messages and 10,000 clients, on SQLite and on PostgreSQL.
 * Target: p95 under 50 ms for the whole page (guard, queries, highlighting, HTML, over loopback), for
 * a common word, a word found only in old messages, a rare word of the conversations, several words, an
 * incident number, an RNC typed with dashes and an e-mail address.
 *
 * Each engine gets a fresh database (a temporary SQLite file; a schema of its own on
 * `BENCH_DATABASE_URL`, else `TEST_DATABASE_URL`, else the tests' default server, dropped afterwards),
 * migrated up to 0029, seeded in bulk, then migrated to the latest: migration 0030 indexes everything
 * at once, as it would an existing site's data (its time is reported), instead of the triggers
 * working row by row during the seeding. Two measures per query, after a warm-up: the search's queries
 * in this process, and the whole page from the production build in `dist/` (skipped with a notice
 * when there is none).
 *
 * `BENCH_SEARCH_INCIDENTS` / `BENCH_SEARCH_MESSAGES` / `BENCH_SEARCH_CLIENTS` set other sizes (a quick
 * check that it runs); entries stay 10 per incident.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { INCIDENT_STATES } from '../../src/domain/incidents.ts';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  migrator,
  openDatabase,
  withSearchPath,
  type Db,
  type DbEngine,
} from '../../src/server/db/index.ts';
import { postgresProblem } from '../../tests/support/templates.ts';
import { clientRow, contactMessageRow } from '../../src/server/db/index.ts';
import { searchEverything } from '../../src/server/search/index.ts';
import { insertIncidents } from '../../tests/support/factories.ts';
import { ROOT, signInFirstStaff, startServer } from '../../tests/support/server.ts';
import { FIRST, LAST } from './names.ts';

const INCIDENTS = Number(process.env.BENCH_SEARCH_INCIDENTS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const CLIENTS = Number(process.env.BENCH_SEARCH_CLIENTS ?? 10_000);
const ENTRIES = 10;
const WARM_UP = 20;
const RUNS = 100;
const TARGET = 50;
const DAY = 86_400_000;
/** Only in the oldest messages: the issue's "word found only in old messages". */
const OLD_WORD = 'telecopiadora';
const OLD_MESSAGES = 40;
/** In the conversation of 1 incident in 2,000. */
const RARE_WORD = 'cortafuegos';

const SUBJECTS = [
  'la impresora',
  'el sistema',
  'la factura',
  'el reporte',
  'la caja',
  'el inventario',
  'la nómina',
  'el usuario',
  'la contraseña',
  'el servidor',
  'la conexión',
  'el cierre',
  'la cotización',
  'el pedido',
  'la sucursal',
  'el módulo de ventas',
  'la base de datos',
  'el correo',
  'la tableta',
  'el escáner',
];
const VERBS = [
  'no imprime',
  'no abre',
  'se cierra sola',
  'da un error',
  'no guarda los cambios',
  'está muy lento',
  'no sincroniza',
  'no calcula bien',
  'muestra un mensaje raro',
  'se congela',
  'no conecta',
  'pide actualizar',
];
const TAILS = [
  'desde ayer',
  'en la mañana',
  'al facturar',
  'con el cliente',
  'en la sucursal principal',
  'después de la actualización',
  'cuando hay muchos pedidos',
  'al cerrar el día',
  'con la impresora fiscal',
  'en el punto de venta',
];
const REPLIES = [
  'Gracias por escribirnos, ya revisamos el caso.',
  'Reiniciamos el servicio y quedó funcionando.',
  'Por favor, intente de nuevo y nos cuenta.',
  'Le enviamos los pasos para configurarlo.',
  'Quedamos atentos a su respuesta.',
  'El técnico pasará mañana temprano.',
  'Se actualizó la versión del programa.',
  'Hicimos una copia de seguridad antes del cambio.',
];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const sentence = (n: number) =>
  `${pick(SUBJECTS, n)} ${pick(VERBS, Math.floor(n / 7))} ${pick(TAILS, Math.floor(n / 13))}`;
const numberOf = (index: number, fecha: string) =>
  `INC-${fecha.slice(0, 10).replace(/-/g, '')}-${String(index).padStart(6, '0')}`;
const rncOf = (index: number) => String(101_000_000 + index * 7);
const dashed = (rnc: string) => `${rnc[0]}-${rnc.slice(1, 3)}-${rnc.slice(3, 8)}-${rnc[8]}`;

interface Seeded {
  /** An incident number from the first tenth (old). */
  oldNumber: string;
  /** A client's RNC, typed with dashes. */
  clientRnc: string;
  /** An old message's sender. */
  oldEmail: string;
}

export async function seed(db: Db, now: number): Promise<Seeded> {
  const span = 730 * DAY;
  const at = (index: number, total: number) => now - span + Math.floor(((index + 0.5) / total) * span);
  let oldNumber = '';
  for (let start = 0; start < INCIDENTS; start += 1000) {
    const rows: (Parameters<typeof insertIncidents>[1][number] & { fecha: string })[] = [];
    for (let index = start; index < Math.min(INCIDENTS, start + 1000); index++) {
      const fecha = new Date(at(index, INCIDENTS)).toISOString();
      if (index === Math.floor(INCIDENTS / 10)) oldNumber = numberOf(index, fecha);
      rows.push({
        numeroIncidencia: numberOf(index, fecha),
        problema: `${sentence(index)}. ${sentence(index * 31 + 5)}.`,
        nombre: `${pick(FIRST, index)} ${pick(LAST, Math.floor(index / 10))}`,
        telefono: '809-555-0100',
        email: `usuario${index}@empresa${index % 700}.example`,
        rnc: String(100_000_000 + ((index * 7919) % 900_000_000)),
        estado: pick(INCIDENT_STATES, index),
        fecha,
      });
    }
    const ids = await insertIncidents(db, rows);
    const entries = ids.flatMap((incidentId, offset) => {
      const index = start + offset;
      const opened = Date.parse(rows[offset]!.fecha);
      return Array.from({ length: ENTRIES }, (_, step) => {
        const kind = (['reply', 'answer', 'note'] as const)[step % 3]!;
        const body =
          kind === 'answer'
            ? `${sentence(index + step * 17)}, ${sentence(index * 3 + step)}.`
            : `${pick(REPLIES, index + step)} ${step === 5 && index % 2000 === 1 ? `Revisamos el ${RARE_WORD} de la oficina.` : sentence(index * 7 + step)}.`;
        return {
          incidentId,
          kind,
          authorId: kind === 'answer' ? null : 'staff-0',
          authorEmail: kind === 'answer' ? null : 'soporte@example.com',
          body,
          createdAt: new Date(opened + (step + 1) * 3_600_000).toISOString(),
        };
      });
    });
    // 2,000 rows (12,000 values) a statement: under SQLite's 32,766 bound variables.
    for (let from = 0; from < entries.length; from += 2000)
      await db
        .insertInto('incidentEntries')
        .values(entries.slice(from, from + 2000))
        .execute();
  }
  for (let start = 0; start < MESSAGES; start += 1000) {
    const rows = [];
    for (let index = start; index < Math.min(MESSAGES, start + 1000); index++)
      rows.push(
        contactMessageRow({
          name: `${pick(FIRST, index + 3)} ${pick(LAST, Math.floor(index / 3))}`,
          email: `contacto${index}@negocio${index % 900}.example`,
          message: `Hola, ${sentence(index * 11 + 2)}. ${index < OLD_MESSAGES ? `¿Venden repuestos de ${OLD_WORD}?` : `Quisiera una cotización de ${pick(['AdmCloud', 'Restaurant.pe', 'Tiendao'], index)}.`}`,
          createdAt: new Date(at(index, MESSAGES)).toISOString(),
        }),
      );
    await db.insertInto('contactMessages').values(rows).execute();
  }
  for (let start = 0; start < CLIENTS; start += 500) {
    const rows = [];
    for (let index = start; index < Math.min(CLIENTS, start + 500); index++)
      rows.push(
        clientRow({
          razonSocial: `${pick(['Farmacia', 'Colmado', 'Ferretería', 'Restaurante', 'Supermercado'], index)} ${pick(LAST, index)} ${index} SRL`,
          nombreRepresentante: `${pick(FIRST, index)} ${pick(LAST, index + 4)}`,
          telefono: '+1 809-555-0100',
          email: `cliente${index}@example.com`,
          rnc: index % 2 ? rncOf(index) : dashed(rncOf(index)),
          tipoProyecto: 'Implementación AdmCloud',
          fechaRegistro: new Date(at(index, CLIENTS)).toISOString(),
        }),
      );
    await db.insertInto('clients').values(rows).execute();
  }
  return {
    oldNumber,
    clientRnc: dashed(rncOf(Math.floor(CLIENTS / 3) | 1)),
    oldEmail: `contacto${OLD_MESSAGES - 1}@negocio${(OLD_MESSAGES - 1) % 900}.example`,
  };
}

function queries(seeded: Seeded): [string, string][] {
  return [
    ['palabra común', 'factura'],
    ['solo en mensajes viejos', OLD_WORD],
    ['rara, en conversaciones', RARE_WORD],
    ['varias palabras', 'impresora no imprime fiscal'],
    ['número de incidencia', seeded.oldNumber],
    ['RNC con guiones', seeded.clientRnc],
    ['correo', seeded.oldEmail],
  ];
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!,
  };
}

/** Median and p95 wall time of RUNS calls after WARM_UP, and this process's CPU per call. */
async function time(run: () => Promise<unknown>): Promise<{ median: number; p95: number; ownCpu: number }> {
  for (let index = 0; index < WARM_UP; index++) await run();
  const samples: number[] = [];
  const c0 = process.cpuUsage();
  for (let index = 0; index < RUNS; index++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  const used = process.cpuUsage(c0);
  return { ...stats(samples), ownCpu: (used.user + used.system) / 1000 / RUNS };
}

interface Row {
  engine: DbEngine;
  name: string;
  query: string;
  found: string;
  measure: string;
  median: number;
  p95: number;
  /**
   * CPU per call: the site server process's per page (user + system, from /proc), this process's for
   * SQLite's queries. What the page costs whatever else the machine is doing, which a shared machine's
   * load inflates far less than the wall-clock time (PostgreSQL's own work is out of this count).
   */
  cpu?: number;
}

/** A process's CPU time so far, in ms (Linux /proc; 0 elsewhere). */
function processCpu(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function benchEngine(engine: DbEngine, pgUrl: string): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vertice-bench-search-'));
  const schema = `bench_search_${Date.now().toString(36)}`;
  let db: Db | undefined;
  let databaseUrl = join(dir, 'site.db');
  try {
    if (engine === 'postgres') {
      await createPgSchema(pgUrl, schema);
      databaseUrl = withSearchPath(pgUrl, schema);
    }
    db = openDatabase(databaseUrl).db;
    const result = await migrator(db).migrateTo('0029_incident_priority');
    if (result.error) throw result.error;
    const t0 = performance.now();
    const seeded = await seed(db, Date.now());
    const t1 = performance.now();
    const indexed = await migrator(db).migrateTo('0030_search');
    if (indexed.error) throw indexed.error;
    const t2 = performance.now();
    // The later migrations (the clock's backfill of every open incident, 0031), timed apart.
    await migrateToLatest(db);
    const t3 = performance.now();
    if (engine === 'postgres')
      await sql
        .raw(
          'vacuum analyze incidents, incident_entries, contact_messages, clients, search_incidents, search_messages, search_clients',
        )
        .execute(db);
    console.log(
      `  ${engine}: datos sembrados en ${((t1 - t0) / 1000).toFixed(1)} s; la migración 0030 los indexó en ${((t2 - t1) / 1000).toFixed(1)} s; las siguientes tardaron ${((t3 - t2) / 1000).toFixed(1)} s`,
    );

    const conn = db;
    const rows: Row[] = [];
    const cases = queries(seeded);
    for (const [name, query] of cases) {
      const results = await searchEverything(conn, query);
      const found = results.groups.map((group) => `${group.total}${group.capped ? '+' : ''}`).join('/');
      if (results.groups.every((group) => group.total === 0))
        throw new Error(`«${query}» no encontró nada (${engine}).`);
      const measured = await time(() => searchEverything(conn, query));
      // SQLite's queries run in this process: its CPU is theirs (PostgreSQL's work is in its server).
      rows.push({
        engine,
        name,
        query,
        found,
        measure: 'consultas',
        ...measured,
        cpu: engine === 'sqlite' ? measured.ownCpu : undefined,
      });
    }
    if (existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
      const server = await startServer({
        dataDir: dir,
        cleanup: false,
        env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      });
      try {
        const cookie = await signInFirstStaff(server);
        for (const [name, query] of cases) {
          const path = `/admin/buscar?q=${encodeURIComponent(query)}`;
          const page = async () => {
            const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
            const html = await response.text();
            if (response.status !== 200 || !html.includes('data-grupo='))
              throw new Error(`${path}: ${response.status}`);
          };
          const found = rows.find((row) => row.query === query)!.found;
          const before = processCpu(server.process.pid);
          const measured = await time(page);
          const cpu = (processCpu(server.process.pid) - before) / (WARM_UP + RUNS);
          rows.push({ engine, name, query, found, measure: 'página', ...measured, cpu });
        }
      } finally {
        await server.stop();
      }
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
export async function benchSearch(): Promise<void> {
  const pgUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const n = (value: number) => value.toLocaleString('es-DO');
  console.log(
    `\nBúsqueda /admin/buscar (carga de la máquina al empezar: ${loadavg()[0]!.toFixed(1)} en ${availableParallelism()} núcleos): ${n(INCIDENTS)} incidencias con ${ENTRIES} entradas cada una, ${n(MESSAGES)} mensajes y ${n(CLIENTS)} clientes`,
  );
  const rows: Row[] = [];
  rows.push(...(await benchEngine('sqlite', pgUrl)));
  const problem = await postgresProblem(pgUrl);
  if (problem) console.log(`  PostgreSQL no responde en ${new URL(pgUrl).host} (${problem}): se omite.`);
  else rows.push(...(await benchEngine('postgres', pgUrl)));

  const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);
  console.log(
    `\n  ${'motor'.padEnd(9)}${'búsqueda'.padEnd(26)}${'halladas (inc/msj/cli)'.padEnd(24)}${'medida'.padEnd(11)}${'mediana'.padStart(10)}${'p95'.padStart(11)}${'CPU'.padStart(14)}  objetivo`,
  );
  for (const row of rows) {
    const verdict =
      row.measure === 'página' ? `p95 < ${TARGET} ms: ${row.p95 < TARGET ? 'cumple' : 'NO cumple'}` : '';
    console.log(
      `  ${row.engine.padEnd(9)}${row.name.padEnd(26)}${row.found.padEnd(24)}${row.measure.padEnd(11)}${ms(row.median)} ${ms(row.p95)}${row.cpu === undefined ? '—'.padStart(14) : ms(row.cpu).padStart(14)}  ${verdict}`,
    );
  }
  console.log(`  (carga de la máquina al terminar: ${loadavg()[0]!.toFixed(1)})`);
  if (rows.some((row) => row.measure === 'página' && row.p95 >= TARGET)) process.exitCode = 1;
}

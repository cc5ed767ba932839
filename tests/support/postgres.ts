/**
 * A private PostgreSQL server for tests that stop and start it (the shared one on :5432 serves other
 * runs and must never be restarted). `initdb` into a temporary folder, on a free port, run as the
 * `postgres` OS user when the tests run as root (PostgreSQL refuses to run as root).
 *
 * When the PostgreSQL binaries are missing, {@link privatePostgresProblem} says why and the tests
 * that need them are skipped with a loud notice — under CI that is a failure instead.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server.ts';

function findBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'pg_ctl'))) return process.env.PG_BIN;
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

const BIN = findBinaries();
const AS_ROOT = userInfo().uid === 0;

export const privatePostgresProblem: string | null = BIN
  ? null
  : 'no se encontraron los binarios de PostgreSQL (initdb, pg_ctl) en /usr/lib/postgresql/*/bin ni en PG_BIN';

if (privatePostgresProblem) {
  const message = `PostgreSQL privado no disponible: ${privatePostgresProblem}.`;
  if (process.env.CI)
    throw new Error(`${message} En CI las pruebas de reinicio de PostgreSQL son obligatorias.`);
  console.warn(
    `\n${'!'.repeat(78)}\n!! ${message}\n!! SE OMITEN las pruebas que reinician PostgreSQL.\n${'!'.repeat(78)}\n`,
  );
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  /** Stops the server; `immediate` is a crash (no checkpoint, connections cut). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops it if running and removes its folder. */
  destroy(): void;
}

function run(bin: string, args: string[]): void {
  const command = AS_ROOT ? 'runuser' : join(BIN!, bin);
  const fullArgs = AS_ROOT ? ['-u', 'postgres', '--', join(BIN!, bin), ...args] : args;
  execFileSync(command, fullArgs, { stdio: 'pipe', timeout: 60_000 });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!BIN) throw new Error(privatePostgresProblem ?? 'PostgreSQL no disponible');
  const dir = mkdtempSync(join(tmpdir(), 'vertice-pg-'));
  const data = join(dir, 'data');
  if (AS_ROOT) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  let running = false;
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
      running = true;
    },
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    destroy() {
      try {
        if (running) server.stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  server.start();
  return server;
}

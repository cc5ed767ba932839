/**
 * Starts the production build exactly as `npm start` does (`node scripts/start.ts`), on a free port,
 * with a fresh temporary SQLite database unless the caller passes its own DATABASE_URL, and
 * {@link TEST_AUTH_SECRET} unless the caller passes its own AUTH_SECRET.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createOrResetStaff } from '../../src/server/auth/accounts.ts';
import { createStaffAuth } from '../../src/server/auth/index.ts';
import { parseConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/index.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The AUTH_SECRET every test server gets unless the test sets its own: the tests sign form start times
 * with it (tests/support/form-stamp.ts) as the pages would.
 */
export const TEST_AUTH_SECRET = 'secreto-de-las-pruebas-e2e-0123456789abcdef';

export interface RunningServer {
  url: string;
  port: number;
  /** Temporary folder holding the database and the `.eml` mail files (unless overridden). */
  dataDir: string;
  env: Record<string, string>;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  process: ChildProcess;
}

/** What the e2e global setup hands the files about the run's shared server (tests/support/site.ts). */
export type SharedServer = Pick<RunningServer, 'url' | 'port' | 'dataDir' | 'env'>;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared server, for the files that only read the public pages (`useSite({ shared: true })`). */
    sharedServer: SharedServer;
  }
}

/**
 * What `server` writes from now on, read when asked: its last `lines` lines (a failed test prints them,
 * the only trace of the server's side in a CI log).
 */
export function outputFrom(server: RunningServer, lines: number): () => string {
  const from = server.output().length;
  return () => server.output().slice(from).trim().split('\n').slice(-lines).join('\n');
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Reuse a data folder (to restart on the same database); a new one is made otherwise. */
  dataDir?: string;
  port?: number;
  /** Where a port is found when none is given (default {@link freePort}); a test of the retry gives its own. */
  findPort?: () => Promise<number>;
  /** Remove the data folder when stopped (default true when this call made it). */
  cleanup?: boolean;
  /**
   * A migrated SQLite template (tests/support/templates.ts) copied in as the database when the data
   * folder has none yet and the caller keeps the default DATABASE_URL: the server then finds every
   * migration applied instead of applying them all.
   */
  template?: string;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vertice-e2e-'));
  const cleanup = options.cleanup ?? !options.dataDir;
  const spawnedAt = Date.now() - 200;
  let output = '';
  // A port freePort found free can be taken before the server binds it (another file's server given the
  // same one, an outgoing connection's local port): then the start is tried again on another, up to five
  // times, unless the caller chose the port. The output of every try is kept: the first one may have
  // made the first staff account.
  for (let attempt = 1; ; attempt += 1) {
    const started = await spawnServer(options, dataDir, (text) => (output += text));
    if (started.ok) return finishStart(started, dataDir, cleanup, spawnedAt, () => output);
    const portTaken = /EADDRINUSE/.test(started.output);
    if (!portTaken || options.port !== undefined || options.env?.PORT !== undefined || attempt === 5)
      throw new Error(started.reason);
  }
}

type Spawned =
  | {
      ok: true;
      child: ChildProcess;
      exited: Promise<number | null>;
      env: Record<string, string>;
      port: number;
    }
  | { ok: false; reason: string; output: string };

/** One start of the server; its health check answered, or why not (with this try's output). */
async function spawnServer(
  options: StartOptions,
  dataDir: string,
  record: (text: string) => void,
): Promise<Spawned> {
  const port = options.port ?? (await (options.findPort ?? freePort)());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: join(dataDir, 'site.db'),
    MAIL_DIR: join(dataDir, 'mail'),
    FIRST_PASSWORD_FILE: join(dataDir, 'first-staff-password'),
    LOG_LEVEL: 'info',
    AUTH_SECRET: TEST_AUTH_SECRET,
    // A test server lives for seconds: the best-quality recompression after start would only cost CPU.
    STATIC_RECOMPRESS: 'false',
    // Node's compile cache (set for the whole run in vitest.config.ts): a start after the run's first
    // reads the modules' compiled code and stripped TypeScript from disk (a third less CPU per start).
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
  };
  const defaultDatabase = env.DATABASE_URL!;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  if (options.template && env.DATABASE_URL === defaultDatabase && !existsSync(defaultDatabase)) {
    copyFileSync(options.template, defaultDatabase);
  }
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    record(text);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  // After the exit and its pipes' last data.
  const closed = new Promise((resolveClose) => child.once('close', resolveClose));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      // Its last words (an error printed just before exiting) can still be in the pipes; a process it
      // started may hold them open, so this waits a second at most.
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]);
      return {
        ok: false,
        reason: `El servidor terminó al arrancar (código ${child.exitCode}):\n${output}`,
        output,
      };
    }
    try {
      // Bounded: whatever else holds the port may take the connection and never answer.
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { ok: true, child, exited, env, port };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false, reason: `El servidor no respondió en 30 s:\n${output}`, output };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function finishStart(
  { child, exited, env, port }: Extract<Spawned, { ok: true }>,
  dataDir: string,
  cleanup: boolean,
  spawnedAt: number,
  output: () => string,
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  // A first staff account made by this start is announced on the console before the server listens,
  // but the pipe's data can reach this process after the health check's answer: wait for the line, so
  // that tests reading it from `output()` never race it.
  const passwordFile = env.FIRST_PASSWORD_FILE;
  const madeNow =
    passwordFile !== undefined && existsSync(passwordFile) && statSync(passwordFile).mtimeMs >= spawnedAt;
  for (
    const until = Date.now() + 10_000;
    madeNow && !output().includes('Cuenta de personal creada:') && Date.now() < until;
  )
    await new Promise((r) => setTimeout(r, 20));

  const removeData = () => {
    if (cleanup) rmSync(dataDir, { recursive: true, force: true });
  };
  return {
    url,
    port,
    dataDir,
    env,
    output,
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      removeData();
      return code;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The password the tests give the first staff account in place of the generated one. */
export const FIRST_STAFF_TEST_PASSWORD = 'guayacán-brújula-zafiro-42';
/**
 * Keyed by the server's first-password file (its data folder, made anew for each server and kept by a
 * restart on the same data): tests reach a server through useSite's proxy, never the object itself,
 * and a port is reused by a later file's server in the same worker (whose modules stay loaded).
 */
const readied = new Map<string, string>();
const readyKey = (server: RunningServer) => server.env.FIRST_PASSWORD_FILE ?? server.url;

/** The generated password and the account it belongs to, from the server's FIRST_PASSWORD_FILE (mode 0600). */
export function generatedFirstPassword(server: RunningServer): { email: string; password: string } | null {
  try {
    const text = readFileSync(server.env.FIRST_PASSWORD_FILE!, 'utf8');
    return { email: /^Cuenta: (.+)$/m.exec(text)![1]!, password: /^Contraseña: (.+)$/m.exec(text)![1]! };
  } catch {
    return null;
  }
}

const resetArgs = (email: string) => ['scripts/admin.ts', 'create', '--email', email];

/**
 * Resets the first staff account to {@link FIRST_STAFF_TEST_PASSWORD} with the code `npm run admin --
 * create` runs (createOrResetStaff: the generated password's mark and file go), in this process, on
 * the server's database: what an operator does, without starting a Node process for it.
 * Asynchronous, so that the test's open keep-alive connections are not left to go stale while it runs
 * (useSite calls it right after the start). The script itself is tested through {@link runAdminScript}.
 */
export async function prepareFirstStaff(server: RunningServer): Promise<void> {
  const generated = generatedFirstPassword(server);
  if (!generated || readied.has(readyKey(server))) return;
  const config = parseConfig(server.env);
  const { db, engine } = openDatabase(config.DATABASE_URL);
  try {
    const auth = createStaffAuth({ db, engine, config, secret: config.AUTH_SECRET! });
    await createOrResetStaff({ email: generated.email, password: FIRST_STAFF_TEST_PASSWORD }, auth, config);
  } finally {
    await db.destroy();
  }
  readied.set(readyKey(server), FIRST_STAFF_TEST_PASSWORD);
}

/** The first staff account's e-mail, as the server's start printed it ('Cuenta de personal creada: …'); '' when it did not. */
export function firstStaffEmail(server: RunningServer): string {
  return /Cuenta de personal creada: (\S+)/.exec(server.output())?.[1] ?? '';
}

/** The password the first staff account signs in with, ready for the staff pages (see {@link prepareFirstStaff}). */
export function firstStaffPassword(server: RunningServer): string {
  const known = readied.get(readyKey(server));
  if (known) return known;
  const generated = generatedFirstPassword(server);
  if (!generated) return '';
  execFileSync(process.execPath, resetArgs(generated.email), {
    cwd: ROOT,
    env: { ...server.env, LOG_LEVEL: 'silent' },
    input: `${FIRST_STAFF_TEST_PASSWORD}\n`,
    encoding: 'utf8',
  });
  readied.set(readyKey(server), FIRST_STAFF_TEST_PASSWORD);
  return FIRST_STAFF_TEST_PASSWORD;
}

/**
 * A staff account on this server's database, made in the test process by the code `npm run admin -- create`
 * runs (with this ADMIN_EMAILS), instead of a Node process per account: for files that need accounts, not the
 * script (the script's own options and messages are tested through {@link runAdminScript}).
 */
export async function createStaffAccount(
  server: RunningServer,
  account: { email: string; password: string; name?: string },
  adminEmails: string,
): Promise<void> {
  const config = parseConfig({ ...server.env, ADMIN_EMAILS: adminEmails });
  const { db, engine } = openDatabase(config.DATABASE_URL);
  try {
    const auth = createStaffAuth({ db, engine, config, secret: config.AUTH_SECRET! });
    await createOrResetStaff(account, auth, config);
  } finally {
    await db.destroy();
  }
}

/** `npm run admin -- ARGS` against this server's database, with this ADMIN_EMAILS; returns what it printed. */
export function runAdminScript(
  server: RunningServer,
  args: string[],
  adminEmails: string,
  input?: string,
): string {
  return execFileSync(process.execPath, ['scripts/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...server.env, ADMIN_EMAILS: adminEmails, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    input: input ?? '',
  });
}

/** Signs in with the staff account the server created on its first start (password printed once). */
export async function signInFirstStaff(server: RunningServer): Promise<string> {
  // From the password file, written before the server listens (its console line may still be on its way).
  const email =
    generatedFirstPassword(server)?.email ?? /Cuenta de personal creada: (\S+)/.exec(server.output())?.[1];
  await prepareFirstStaff(server);
  const password = firstStaffPassword(server);
  if (!email || !password) throw new Error('El servidor no creó la cuenta de personal inicial.');
  const response = await fetch(`${server.url}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (response.status !== 303 || !cookie) throw new Error(`No se pudo iniciar sesión (${response.status}).`);
  return cookie;
}

/**
 * Before the end-to-end suite, once per run:
 * - the production build, made again only when its inputs changed since it was made (a hash of the
 *   sources, the public files, the build configuration, the lock file and the settings the build
 *   reads, kept in `dist/.inputs-hash`): `npm test` on an unchanged tree starts testing at once;
 * - the migrated SQLite template every test server starts from (tests/support/templates.ts);
 * - one Chromium for the whole run: each test file connects to it and works in contexts of its own
 *   (tests/support/site.ts), instead of launching a browser per file;
 * - one server with the default settings, shared by the files that only read the public pages
 *   (`useSite({ shared: true })`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROME_ARGS, TEST_CHROME_PATH } from './browser.ts';
import { ROOT, startServer } from './server.ts';
import { buildSqliteTemplate } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (Playwright's browser server), for `chromium.connect`. */
    browserWsEndpoint: string;
  }
}

const INPUTS = ['src', 'public', 'astro.config.ts', 'tsconfig.json', 'package-lock.json'];
const HASH_FILE = join(ROOT, 'dist/.inputs-hash');

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

/** What the build depends on: every input file's path and bytes, and the settings it may read. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(ROOT, input))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  // The build reads the company details and links from the environment (src/server/config.ts).
  const configSource = readFileSync(join(ROOT, 'src/server/config.ts'), 'utf8');
  for (const [key, value] of Object.entries(process.env).sort(([a], [b]) => a.localeCompare(b))) {
    if (/^[A-Z][A-Z0-9_]+$/.test(key) && configSource.includes(key)) hash.update(`${key}=${value}\0`);
  }
  return hash.digest('hex');
}

function buildWhenStale(): void {
  const wanted = inputsHash();
  const built =
    existsSync(join(ROOT, 'dist/server/entry.mjs')) && existsSync(HASH_FILE)
      ? readFileSync(HASH_FILE, 'utf8')
      : '';
  if (built === wanted) {
    console.log('e2e: la compilación de producción está al día (dist/.inputs-hash); no se recompila.');
    return;
  }
  // Vitest sets NODE_ENV=test, which would make a build with React's development JSX runtime.
  execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  writeFileSync(HASH_FILE, wanted);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(TEST_CHROME_PATH)) {
    throw new Error(
      `No se encontró Chromium en ${TEST_CHROME_PATH}: instálalo (apt-get install -y chromium chromium-headless-shell) o define CHROME_PATH.`,
    );
  }
  buildWhenStale();
  const template = await buildSqliteTemplate();
  project.provide('sqliteTemplate', template);
  const [browser, shared] = await Promise.all([
    chromium.launchServer({ executablePath: TEST_CHROME_PATH, headless: true, args: CHROME_ARGS }),
    startServer({ template }),
  ]);
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  project.provide('sharedServer', {
    url: shared.url,
    port: shared.port,
    dataDir: shared.dataDir,
    env: shared.env,
  });
  return async () => {
    await shared.stop();
    await browser.close();
  };
}

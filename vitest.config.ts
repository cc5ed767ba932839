import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's compile cache for every Node process the run starts (the test servers, `npm run admin` and
// `npm run data` in the tests, the build): each start after the first reads the compiled code and the
// stripped TypeScript of its modules from this folder instead of making them again. Entries are keyed
// by the source's contents, so a changed file is compiled anew; the folder only ever saves work.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'vertice-node-compile-cache');

/**
 * Two projects behind `npm test`, one after the other (the script runs `--project unit`, then `--project e2e`):
 * - unit: unit and integration tests (SQLite file and PostgreSQL server, real SMTP peer on loopback),
 *   each test on a copy of the run's migrated template database (tests/support/templates.ts);
 * - e2e: the production build served by `npm start`, driven by the system Chromium. Its global setup
 *   builds only when the build is stale, and launches the one Chromium every file connects to.
 */
export default defineConfig({
  test: {
    // Verbose: the log shows every test by name, including each engine's half of the integration suites.
    reporters: ['verbose'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/unit-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Most of these files wait (PostgreSQL, the SMTP peer, Dovecot, recorded delays) rather than
          // compute: four at once halve the phase's time on 2 cores for the same CPU (Vitest's default
          // here is one worker per core but one).
          maxWorkers: 4,
          // A worker runs file after file in one process, its imported modules kept (each test file is
          // still evaluated anew): a new process per file spent a third of the phase's CPU starting Node
          // and importing the same modules again. No file mocks modules or leaves settings behind; a test
          // database is reused across files only after it is emptied (tests/support/templates.ts).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A shared 2-core machine running Chromium can take more than expect.poll's default 1 s; each
          // try is a round trip to the browser, so every 100 ms rather than the default 50 ms (as `poll`
          // in tests/support/browser.ts).
          expect: { poll: { timeout: 10_000, interval: 100 } },
          // A file's tests mostly wait on its server and the browser, one step at a time: four files
          // at once keep the two cores busy (each file has its own server; they share one Chromium).
          maxWorkers: 4,
          fileParallelism: true,
          // A worker runs file after file with its module cache kept (playwright-core, the support
          // modules, the server's modules the factories use): each test file is still evaluated anew,
          // with its own server and contexts. 11 % less CPU for the phase.
          isolate: false,
        },
      },
    ],
  },
});

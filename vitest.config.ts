import { defineConfig } from 'vitest/config';

/**
 * Two projects behind `npm test`:
 * - unit: unit and integration tests (SQLite file and PostgreSQL server, real SMTP peer on loopback);
 * - e2e: the production build served by `npm start`, driven by the system Chromium.
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          // A shared 2-core machine running Chromium can take more than expect.poll's default 1 s.
          expect: { poll: { timeout: 10_000 } },
          // Each file starts its own server and browser (useSite, tests/support/site.ts); two at a time fit a 2-core machine.
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});

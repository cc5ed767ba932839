/**
 * The end-to-end suite runs against the production build. `npm test` builds first; when the build is
 * missing (e.g. `npm run test:e2e` on a fresh clone) this builds it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROME_PATH } from './browser.ts';
import { ROOT } from './server.ts';

export default function setup(): void {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`No se encontró Chromium en ${CHROME_PATH}: instálelo (apt-get install -y chromium) o defina CHROME_PATH.`);
  }
  if (!existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
}

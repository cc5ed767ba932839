/**
 * The routes as the source defines them, so a test that walks "every route" cannot silently miss a
 * new one.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './server.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** URL paths of the page and endpoint files under `src/pages/<folder>` (parameters filled with `1`/`x`). */
export function routesUnder(folder: string): string[] {
  return files(join(ROOT, 'src/pages', folder)).map((file) =>
    `/${relative(join(ROOT, 'src/pages'), file)}`
      .replace(/\.(astro|ts)$/, '')
      .replace(/\/index$/, '')
      .replace(/\[\.\.\.[^\]]+\]/g, 'x')
      .replace(/\[[^\]]+\]/g, '1'),
  );
}

/**
 * The staff actions of the fixed interface (DESIGN.md). The server recognises staff actions from their
 * definition (`STAFF_ACTION_NAMES` in src/actions/staff/index.ts), so a new one is guarded by being defined;
 * the tests call these by name.
 */
export const STAFF_ACTIONS = ['incidents.setState', 'clients.create', 'clients.sendWelcome'] as const;

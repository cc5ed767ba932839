/**
 * The routes and staff actions as the source defines them, so a test that walks "every route" cannot
 * silently miss a new one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

/** `group.name` of every staff action, read from src/actions/staff.ts. */
export function staffActionNames(): string[] {
  const source = readFileSync(join(ROOT, 'src/actions/staff.ts'), 'utf8');
  const block = /export const staffActions = \{([\s\S]*?)\n\};/.exec(source)?.[1] ?? '';
  return [...block.matchAll(/(\w+): \{([^}]*)\}/g)].flatMap(([, group, members]) =>
    members!.split(',').map((member) => `${group}.${member.split(':')[0]!.trim()}`),
  );
}

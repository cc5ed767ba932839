/**
 * Modules import downwards (issue 40, 'Circles'): no import circle among the files of src/, read from
 * their `import` and `export … from` lines (type-only ones too: they tie the files as much for a
 * reader). The one circle left is waited for: src/server/incidents/, which its owner is moving apart
 * (the test names it, and fails once it is gone so that the allowance goes with it). And a migration
 * carries what it needs: none imports the server's live code outside src/server/db/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const EXTENSIONS = ['.ts', '.tsx', '.astro', '.mjs'];

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files of src/ this file imports by a relative path (with or without its extension). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const [, specifier] of text.matchAll(IMPORT)) {
    const base = resolve(dirname(file), specifier!.split('?')[0]!);
    const target = [base, ...EXTENSIONS.map((extension) => base + extension)].find((path) => known.has(path));
    if (target) found.push(target);
  }
  return found;
}

/** The strongly connected groups of more than one file (Tarjan), each sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) === order.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.map((path) => relative(ROOT, path)).sort());
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return groups;
}

const files = filesUnder(SRC);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

describe('imports', () => {
  it('form no circle in src/, but the one src/server/incidents/ is being moved out of', () => {
    const found = circles(graph);
    const waited = found.filter((group) => group.every((path) => path.startsWith('src/server/incidents/')));
    expect(found.filter((group) => !waited.includes(group))).toEqual([]);
    // Gone once the incidents' circle is broken: then drop this allowance.
    expect(waited.length).toBeLessThanOrEqual(1);
  });

  it('leave the migrations to carry what they need: no migration imports live server code', () => {
    const migrations = files.filter((file) => file.includes('/src/server/db/migrations/'));
    expect(migrations.length).toBeGreaterThan(30);
    const live = migrations.flatMap((file) =>
      graph
        .get(file)!
        .filter(
          (target) => target.startsWith(join(SRC, 'server')) && !target.startsWith(join(SRC, 'server/db')),
        )
        .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
    );
    expect(live).toEqual([]);
  });
});

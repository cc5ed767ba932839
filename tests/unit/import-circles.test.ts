/**
 * Modules import downwards (issue 40, 'Circles'): no import circle among the files of src/, read from
 * their `import` and `export … from` lines that bring values (a type-only import vanishes at run time;
 * a dynamic `import()` is a dependency at run time only: the desk's one door to the channels,
 * src/server/incidents/customer-notices.ts, docs/decisions/0020). And a migration carries what it
 * needs: none imports the server's live code outside src/server/db/.
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

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Whether an import brings values (not only types: `import type`, or `{ type A, type B }`). */
function bringsValues(typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return false;
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named) return true;
  const items = named[1]!
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length === 0 || items.some((item) => !item.startsWith('type '));
}

/** The files of src/ this file imports by a relative path (with or without its extension). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const [, typeKeyword, clause, specifier] of text.matchAll(IMPORT)) {
    if (!bringsValues(typeKeyword, clause!)) continue;
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
  it('finds a circle, and tells a type-only import from one that brings values (the check can fail)', () => {
    expect(
      circles(
        new Map([
          [join(ROOT, 'a.ts'), [join(ROOT, 'b.ts')]],
          [join(ROOT, 'b.ts'), [join(ROOT, 'a.ts')]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
    expect(bringsValues(undefined, '{ type A, type B }')).toBe(false);
    expect(bringsValues(undefined, '{ type A, b }')).toBe(true);
    expect(bringsValues('type ', '{ A }')).toBe(false);
  });

  it('form no circle in src/', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(circles(graph)).toEqual([]);
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
